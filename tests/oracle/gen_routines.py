#!/usr/bin/env python3
"""NumPy 2 oracle for include/ndfuse/routines.hpp (tests/test_routines.cpp): delete, insert,
resize, rollaxis, trim_zeros, lexsort, the index helpers, placing and filling, choose, piecewise and
the apply functions.

Usage: gen_routines.py OUTDIR. Writes OUTDIR/routines/manifest.tsv in gen_composites.py's format;
NumPy's in-place functions are checked through the array they leave (a copy of the first input).
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_composites import case_writer, run_oracle  # noqa: E402


# One-input calls tried on an empty and a 0-d array (the C++ test makes the same calls).
EDGE_CALLS = {
    "delete": lambda a: np.delete(a, []),
    "insert": lambda a: np.insert(a, 0, 9.0),
    "resize": lambda a: np.resize(a, (2,)),
    "rollaxis": lambda a: np.rollaxis(a, 0),
    "trim_zeros": np.trim_zeros,
    "diagflat": np.diagflat,
    "sort_complex": np.sort_complex,
    "real_if_close": np.real_if_close,
    "lexsort": lambda a: np.lexsort((a,)),
    "extract": lambda a: np.extract(a > 0.5, a),
    "choose": lambda a: np.choose(np.zeros(a.shape, np.int64), [a]),
    "piecewise": lambda a: np.piecewise(a, [a > 0.5], [1.0, 2.0]),
    "fill_diagonal": lambda a: in_place(lambda b: np.fill_diagonal(b, 1.0))(a),
    "apply_along_axis": lambda a: np.apply_along_axis(lambda v: v * 2, 0, a),
}


def main():
    run_oracle("routines", write)


def in_place(fn):
    def run(a, *rest):
        b = a.copy()
        fn(b, *rest)
        return b
    return run


def write(w):
    case = case_writer(w)
    rng = np.random.default_rng(4404)
    a1 = np.arange(10.0)
    m = np.arange(12).reshape(3, 4)

    case("delete_int", [a1], lambda a: np.delete(a, 3))
    case("delete_negative", [a1], lambda a: np.delete(a, -1))
    case("delete_list", [a1], lambda a: np.delete(a, [0, 2, 2, -3]))
    case("delete_axis1", [m], lambda a: np.delete(a, [1, 3], axis=1))
    case("delete_flat", [m], lambda a: np.delete(a, 5))
    case("delete_mask", [a1, a1 > 6], lambda a, k: np.delete(a, k))
    case("delete_index_array", [m, np.array([0, 2])], lambda a, k: np.delete(a, k, axis=0))
    case("delete_slice", [a1], lambda a: np.delete(a, slice(1, 8, 3)))
    case("delete_slice_negative", [a1], lambda a: np.delete(a, slice(None, None, -4)))
    case("delete_out_of_range", [a1], lambda a: np.delete(a, 10))
    case("delete_list_out_of_range", [a1], lambda a: np.delete(a, [1, 12]))
    case("delete_bad_mask", [a1, np.array([True, False])], lambda a, k: np.delete(a, k))
    case("delete_axis", [m], lambda a: np.delete(a, 0, axis=2))

    case("insert_int", [a1, np.array([-1.0, -2.0])], lambda a, v: np.insert(a, 3, v))
    case("insert_end", [a1, np.array(7.0)], lambda a, v: np.insert(a, 10, v))
    case("insert_list", [a1, np.array([-1.0, -2.0, -3.0])], lambda a, v: np.insert(a, [1, 5, 1], v))
    case("insert_list_scalar", [a1, np.array(9.5)], lambda a, v: np.insert(a, [0, 10], v))
    case("insert_one_list", [m, np.array([7, 8, 9])], lambda a, v: np.insert(a, [1], v, axis=1))
    case("insert_axis1", [m, np.array([7, 8, 9])], lambda a, v: np.insert(a, 1, v, axis=1))
    case("insert_axis0", [m, np.array([7, 8, 9, 10])], lambda a, v: np.insert(a, 2, v, axis=0))
    case("insert_cast", [m, np.array(2.7)], lambda a, v: np.insert(a, 1, v))
    case("insert_mask", [a1[:4].copy(), np.array([True, False, True, False]), np.array([0.5, 1.5])],
         lambda a, k, v: np.insert(a, k, v))
    case("insert_slice", [a1, np.array([-1.0, -2.0, -3.0])], lambda a, v: np.insert(a, slice(0, 9, 4), v))
    case("insert_out_of_range", [a1, np.array(1.0)], lambda a, v: np.insert(a, 11, v))

    case("resize", [m], lambda a: np.resize(a, (5, 3)))
    case("resize_smaller", [m], lambda a: np.resize(a, (2,)))
    case("resize_empty", [np.zeros(0)], lambda a: np.resize(a, (2, 2)))
    case("resize_negative", [m], lambda a: np.resize(a, (-1, 2)))
    x3 = rng.standard_normal((2, 3, 4))
    case("rollaxis", [x3], lambda a: np.rollaxis(a, 2))
    case("rollaxis_start", [x3], lambda a: np.rollaxis(a, 0, 2))
    case("rollaxis_end", [x3], lambda a: np.rollaxis(a, 1, 3))
    case("rollaxis_bad_start", [x3], lambda a: np.rollaxis(a, 0, 5))
    case("row_stack", [m, m[:1].copy()], lambda a, b: np.vstack([a, b]))
    z = np.array([0, 0, 3, 0, 5, 0, 0])
    case("trim_zeros", [z], np.trim_zeros)
    case("trim_zeros_f", [z], lambda a: np.trim_zeros(a, "f"))
    case("trim_zeros_b", [z], lambda a: np.trim_zeros(a, "B"))
    case("trim_zeros_all", [np.zeros(4)], np.trim_zeros)
    z2 = np.zeros((4, 5))
    z2[1, 2] = 1
    z2[2, 3] = 2
    case("trim_zeros_2d", [z2], np.trim_zeros)
    case("trim_zeros_axis", [z2], lambda a: np.trim_zeros(a, axis=1))
    case("trim_zeros_bad", [z], lambda a: np.trim_zeros(a, "x"))
    case("diagflat", [m[:2, :2].copy()], np.diagflat)
    case("diagflat_k", [np.array([1, 2])], lambda v: np.diagflat(v, -1))
    case("sort_complex", [np.array([3 + 1j, 1 - 2j, 1 + 2j, 3])], np.sort_complex)
    case("sort_complex_int8", [np.array([5, -2, 7], np.int8)], np.sort_complex)
    case("sort_complex_float32", [np.array([2.5, -1.0], np.float32)], np.sort_complex)
    case("real_if_close", [np.array([1 + 1e-15j, 2 - 1e-16j])], np.real_if_close)
    case("real_if_close_far", [np.array([1 + 1e-3j, 2.0])], np.real_if_close)
    case("real_if_close_tol", [np.array([1 + 1e-3j, 2.0])], lambda a: np.real_if_close(a, tol=0.01))
    case("real_if_close_real", [m], np.real_if_close)

    surnames = np.array([3, 1, 2, 1, 3, 2, 1])
    first = np.array([0.5, 0.2, 0.9, 0.1, 0.3, 0.2, nan_val()])
    case("lexsort", [first, surnames], lambda f, s: np.lexsort((f, s)))
    case("lexsort_2d", [np.stack([first, surnames.astype(float)])], np.lexsort)
    case("lexsort_axis0", [m % 2, m // 3], lambda a, b: np.lexsort((a, b), axis=0))
    case("lexsort_shapes", [first, surnames[:3].copy()], lambda f, s: np.lexsort((f, s)))

    sq = np.arange(16.0).reshape(4, 4)
    case("diag_indices_from", [sq], np.diag_indices_from)
    case("diag_indices_from_3d", [np.zeros((3, 3, 3))], np.diag_indices_from)
    case("diag_indices_from_rect", [m], np.diag_indices_from)
    case("tril_indices_from", [m], lambda a: np.tril_indices_from(a, 1))
    case("triu_indices_from", [m], lambda a: np.triu_indices_from(a, -1))
    case("tril_indices_from_3d", [x3], np.tril_indices_from)
    case("mask_indices_triu", [], lambda: np.mask_indices(4, np.triu, 1))
    case("mask_indices_tril", [], lambda: np.mask_indices(3, np.tril))
    case("ix_", [np.array([0, 2]), np.array([True, False, True, True])], lambda a, b: np.ix_(a, b))
    case("ix_2d", [m], lambda a: np.ix_(a))

    r = rng.standard_normal((3, 4))
    case("extract", [r > 0, r], np.extract)
    case("extract_ints", [m % 3, m], np.extract)
    case("place", [r, r > 0, np.array([10.0, 20.0])], in_place(np.place))
    case("place_empty", [r, r > 0, np.zeros(0)], in_place(np.place))
    case("place_size", [r, np.array([True, False]), np.array([1.0])], in_place(np.place))
    case("putmask", [r, r > 0, np.array([10.0, 20.0, 30.0])], in_place(np.putmask))
    case("putmask_ints", [m, m % 2 == 0, np.array([-1, -2])], in_place(np.putmask))
    idx = np.argsort(r, axis=1)[:, :2].copy()
    case("put_along_axis", [r, idx, np.array([[1.0], [2.0], [3.0]])],
         lambda a, i, v: in_place(lambda b, i, v: np.put_along_axis(b, i, v, axis=1))(a, i, v))
    case("put_along_axis_axis0", [r, np.argmax(r, axis=0, keepdims=True), np.array(0.0)],
         lambda a, i, v: in_place(lambda b, i, v: np.put_along_axis(b, i, v, axis=0))(a, i, v))
    case("put_along_axis_ndim", [r, np.array([0, 1]), np.array(0.0)],
         lambda a, i, v: in_place(lambda b, i, v: np.put_along_axis(b, i, v, axis=0))(a, i, v))
    case("copyto", [r, np.array([1.0, 2.0, 3.0, 4.0])], in_place(np.copyto))
    case("copyto_where", [r, np.array(7.0), r > 0], lambda a, s, k: in_place(lambda b, s, k: np.copyto(b, s, where=k))(a, s, k))
    case("copyto_cast", [m, np.array([1.5])], in_place(np.copyto))
    case("copyto_unsafe", [m, np.array([1.5])], lambda a, s: in_place(lambda b, s: np.copyto(b, s, casting="unsafe"))(a, s))
    case("copyto_shape", [r, np.ones(3)], in_place(np.copyto))
    case("fill_diagonal", [np.zeros((3, 3))], in_place(lambda b: np.fill_diagonal(b, 5.0)))
    case("fill_diagonal_tall", [np.zeros((7, 3))], in_place(lambda b: np.fill_diagonal(b, 4.0)))
    case("fill_diagonal_wrap", [np.zeros((7, 3))], in_place(lambda b: np.fill_diagonal(b, 4.0, wrap=True)))
    case("fill_diagonal_values", [np.zeros((4, 4))], lambda a: in_place(lambda b: np.fill_diagonal(b, [1.0, 2.0]))(a))
    case("fill_diagonal_3d", [np.zeros((3, 3, 3), np.int32)], in_place(lambda b: np.fill_diagonal(b, 9)))
    case("fill_diagonal_1d", [np.zeros(3)], in_place(lambda b: np.fill_diagonal(b, 1.0)))

    choices = [np.arange(4.0), np.arange(4.0) * 10, np.full(4, -1.0)]
    case("choose", [np.array([0, 2, 1, 0])] + choices, lambda a, *c: np.choose(a, c))
    case("choose_broadcast", [np.array([[0], [1], [2]])] + choices, lambda a, *c: np.choose(a, c))
    case("choose_wrap", [np.array([0, 4, -1, 5])] + choices, lambda a, *c: np.choose(a, c, mode="wrap"))
    case("choose_clip", [np.array([0, 4, -1, 5])] + choices, lambda a, *c: np.choose(a, c, mode="clip"))
    case("choose_raise", [np.array([0, 4, -1, 5])] + choices, lambda a, *c: np.choose(a, c))
    case("choose_float", [np.array([0.0, 1.0])] + choices, lambda a, *c: np.choose(a, c))
    case("choose_mixed", [np.array([0, 1, 1, 0]), np.arange(4), np.full(4, 0.5)], lambda a, *c: np.choose(a, c))

    xs = np.linspace(-2, 2, 9)
    case("piecewise", [xs], lambda x: np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2]))
    case("piecewise_values", [xs], lambda x: np.piecewise(x, [x < -1, x > 1], [-1.0, 1.0, 0.5]))
    case("piecewise_ints", [np.arange(-3, 4)], lambda x: np.piecewise(x, [x < 0], [lambda v: v * 3, 7]))
    case("piecewise_count", [xs], lambda x: np.piecewise(x, [x < 0], [1.0, 2.0, 3.0]))

    case("fromfunction", [], lambda: np.fromfunction(lambda i, j: i * 10 + j, (3, 4)))
    case("fromfunction_int", [], lambda: np.fromfunction(lambda i: i * i, (5,), dtype=int))
    case("apply_along_axis", [r], lambda a: np.apply_along_axis(lambda v: v - v.mean(), 1, a))
    case("apply_along_axis_scalar", [r], lambda a: np.apply_along_axis(lambda v: v.max(), 0, a))
    case("apply_along_axis_grow", [r], lambda a: np.apply_along_axis(lambda v: np.outer(v, v)[:2], 1, a))
    case("apply_along_axis_empty", [np.zeros((0, 3))], lambda a: np.apply_along_axis(lambda v: v, 1, a))
    case("apply_over_axes", [x3], lambda a: np.apply_over_axes(np.sum, a, [0, 2]))

    # Every one-input call on an empty and a 0-d input: NumPy's result, or its error.
    for kind, e in {"empty": np.zeros((0,)), "0d": np.array(0.75)}.items():
        for name, fn in EDGE_CALLS.items():
            case(f"edge_{name}_{kind}", [e], fn)
    w.finish()


def nan_val():
    return np.nan


if __name__ == "__main__":
    main()
