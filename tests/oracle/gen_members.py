#!/usr/bin/env python3
"""NumPy 2 oracle for nf::array's NumPy methods (tests/test_members.cpp).

Usage: gen_members.py OUTDIR. Writes OUTDIR/members/manifest.tsv, tab-separated:
  id  inputs  expected
as gen_composites.py does (RAISES:<nf error>:<NumPy exception> where NumPy raises). Each id names a
method call the C++ test makes on the first input; NumPy's in-place methods (sort, partition, fill,
put) are checked through the array they leave behind, and tobytes through its bytes as uint8.
"""
import os
import shutil
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_composites import case_writer  # noqa: E402
from gen_ops import OracleWriter  # noqa: E402


def main():
    w = OracleWriter(sys.argv[1], "members")
    try:
        write(w)
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


def in_place(method):
    def run(x, *args):
        y = x.copy()
        getattr(y, method)(*args)
        return y
    return run


def write(w):
    rng = np.random.default_rng(45)

    case = case_writer(w)

    x = rng.standard_normal((4, 5))
    ints = rng.integers(-9, 9, (3, 4)).astype(np.int32)
    z = (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64)
    empty = np.zeros((0, 3))
    zero_d = np.array(1.5)
    case("sum", [x], lambda a: a.sum())
    case("sum_axis0_keepdims", [x], lambda a: a.sum(axis=0, keepdims=True))
    case("sum_int32", [ints], lambda a: a.sum(axis=1))
    case("sum_empty", [empty], lambda a: a.sum(axis=0))
    case("prod_axis1", [x], lambda a: a.prod(axis=1))
    case("mean", [x], lambda a: a.mean())
    case("mean_ints_axis0", [ints], lambda a: a.mean(axis=0))
    case("max_axis1", [x], lambda a: a.max(axis=1))
    case("min", [ints], lambda a: a.min())
    case("max_empty", [empty], lambda a: a.max())
    case("all", [x > -5], lambda a: a.all())
    case("any_axis0", [x > 1], lambda a: a.any(axis=0))
    case("argmax", [x], lambda a: a.argmax())
    case("argmin_axis1", [x], lambda a: a.argmin(axis=1))
    case("var_ddof1", [x], lambda a: a.var(axis=0, ddof=1))
    case("std", [x], lambda a: a.std())
    case("cumsum", [ints], lambda a: a.cumsum())
    case("cumsum_axis1", [x], lambda a: a.cumsum(axis=1))
    case("cumprod_axis0", [ints], lambda a: a.cumprod(axis=0))
    case("trace", [x], lambda a: a.trace())
    case("trace_offset", [x], lambda a: a.trace(offset=1))
    case("clip", [x], lambda a: a.clip(-0.5, 0.5))
    case("round", [x * 100], lambda a: a.round(1))
    case("conj", [z], lambda a: a.conj())
    case("conjugate", [z], lambda a: a.conjugate())
    case("real", [z], lambda a: a.real)
    case("imag", [z], lambda a: a.imag)
    case("nonzero", [ints], lambda a: a.nonzero())
    case("repeat", [ints], lambda a: a.repeat(2))
    case("repeat_axis0", [ints], lambda a: a.repeat(3, axis=0))
    case("take", [x, np.array([0, 7, 19])], lambda a, i: a.take(i))
    case("take_axis1", [x, np.array([4, 0])], lambda a, i: a.take(i, axis=1))
    case("compress", [x, np.array([True, False, True, True])], lambda a, c: a.compress(c, axis=0))
    case("argsort", [x], lambda a: a.argsort())
    case("argsort_axis0", [x], lambda a: a.argsort(axis=0, kind="stable"))
    case("searchsorted", [np.sort(x.ravel()), x[0].copy()], lambda a, v: a.searchsorted(v))
    case("searchsorted_right", [np.array([1.0, 2.0, 2.0, 3.0]), np.array([2.0, 0.5])],
         lambda a, v: a.searchsorted(v, side="right"))
    case("sort", [x], in_place("sort"))
    case("sort_axis0", [ints], lambda a: in_place("sort")(a, 0))
    case("partition", [np.array([3.0, 1.0, 2.0, 5.0, 4.0])], lambda a: np.sort(in_place("partition")(a, 2)))
    case("argpartition", [np.array([3.0, 1.0, 2.0, 5.0, 4.0])], lambda a: a.argpartition(2)[2])
    case("fill", [ints], lambda a: in_place("fill")(a, 7))
    case("fill_0d", [zero_d], lambda a: in_place("fill")(a, -2.0))
    case("put", [x, np.array([0, 3]), np.array([9.0, 8.0])], lambda a, i, v: in_place("put")(a, i, v))
    case("mT", [rng.standard_normal((2, 3, 4))], lambda a: a.mT)
    case("mT_1d", [x[0].copy()], lambda a: a.mT)
    case("strides", [x], lambda a: np.array(a.strides, dtype=np.int64))
    case("strides_T", [x], lambda a: np.array(a.T.strides, dtype=np.int64))
    case("tobytes", [ints], lambda a: np.frombuffer(a.tobytes(), dtype=np.uint8))
    case("tobytes_T", [ints], lambda a: np.frombuffer(a.T.tobytes(), dtype=np.uint8))
    # Buffer members: view, byteswap, flags; and choose, tolist (its Python text as bytes).
    case("view_int64", [x], lambda a: a.view(np.int64))
    case("view_uint8", [x[:2].astype(np.float32)], lambda a: a.view(np.uint8))
    case("view_float32_pairs", [x], lambda a: a.view(np.float32))
    case("view_complex", [x], lambda a: a.view(np.complex128))
    case("view_wider", [np.arange(12, dtype=np.int16).reshape(3, 4)], lambda a: a.view(np.int64))
    case("view_odd", [np.arange(6, dtype=np.int16).reshape(2, 3)], lambda a: a.view(np.int32))
    case("view_0d", [zero_d], lambda a: a.view(np.int32))
    case("view_0d_same", [zero_d], lambda a: a.view(np.uint64))
    case("view_T", [x], lambda a: a.T.view(np.float32))
    for dt in ["int16", "uint32", "int64", "float32", "float64", "complex64", "complex128", "uint8", "bool"]:
        vals = (rng.standard_normal(5) * 1000 + 1j * rng.standard_normal(5)) if dt.startswith("complex") else \
            rng.standard_normal(5) * 1000
        case(f"byteswap_{dt}", [np.asarray(vals).astype(dt)], lambda a: a.byteswap())
    case("byteswap_2d", [ints], lambda a: a.byteswap())
    case("byteswap_0d", [zero_d], lambda a: a.byteswap())

    def flags(a):
        f = a.flags
        return np.array([f.c_contiguous, f.f_contiguous, f.owndata, f.writeable, f.aligned])
    case("flags", [x], flags)
    case("flags_T", [x], lambda a: flags(a.T))
    case("flags_1d", [x[0].copy()], flags)
    case("flags_broadcast", [x[0].copy()], lambda a: flags(np.broadcast_to(a, (3, 5))))
    choices = [np.arange(4.0), -np.arange(4.0), np.full(4, 9.0)]
    case("choose", [np.array([0, 2, 1, 0])] + choices, lambda a, *c: a.choose(c))
    case("choose_clip", [np.array([0, 5, -1, 1])] + choices, lambda a, *c: a.choose(c, mode="clip"))
    case("choose_raise", [np.array([0, 5, -1, 1])] + choices, lambda a, *c: a.choose(c))

    def tolist_text(a):
        return np.frombuffer(str(a.tolist()).encode(), dtype=np.uint8)
    for name, a in [("float64", x[:2]), ("float32", x[:2].astype(np.float32)), ("int", ints),
                    ("bool", ints > 0), ("complex", np.array([1 + 2j, -0.5j, complex(-0.0, 1), 3])),
                    ("uint64", np.array([2**64 - 1, 0], np.uint64)), ("0d", zero_d), ("empty", empty),
                    ("float16", np.array([0.1, 65504.0], np.float16)),
                    ("special", np.array([np.nan, -np.inf, 1e-5, 1e16, 123456789.0, -0.0]))]:
        case(f"tolist_{name}", [np.ascontiguousarray(a)], tolist_text)
    w.finish()


if __name__ == "__main__":
    main()
