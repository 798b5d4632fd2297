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
from gen_composites import error_kind  # noqa: E402
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

    def case(case_id, inputs, fn):
        try:
            with np.errstate(all="ignore"):
                out = fn(*inputs)
        except (ValueError, TypeError) as e:
            w.row(case_id, ",".join(w.array(a) for a in inputs), f"RAISES:{error_kind(e)}:{type(e).__name__}")
            return
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        w.row(case_id, ",".join(w.array(a) for a in inputs), ",".join(w.array(np.asarray(o)) for o in outs))

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
    w.finish()


if __name__ == "__main__":
    main()
