#!/usr/bin/env python3
"""NumPy 2 oracle for nf::distributed's collectives (tests/test_distributed.cpp, test_distributed_gpu.cpp).

Usage: gen_distributed.py OUTDIR. Writes OUTDIR/distributed/manifest.tsv, tab-separated:
  id  inputs  expected
id is <collective>.<op>.<dtype>.<ranks> (<op> is "-" for the collectives that only move data);
inputs are the ranks' arrays in rank order; expected is each rank's result in rank order, or
RAISES:dtype_error:- where ndfuse refuses the dtype and op.

A reduction across ranks means NumPy's elementwise fold a0 op a1 op ... in the arrays' dtype: sum is
np.add (logical or for bool, wrapping for integers), prod np.multiply, min and max np.minimum and
np.maximum, avg the sum divided by the number of ranks (for complex arrays, the real and imaginary
parts each divided: NumPy's complex division by n would turn an infinite part's partner into NaN). ndfuse refuses avg of integers and bool
(NumPy's mean would change the dtype) and prod, min and max of complex arrays (not elementwise on
the parts NCCL sees); those rows say so, since NumPy itself would compute something.
"""
import functools
import os
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_composites import run_oracle  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
OPS = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum}
RANKS = [2, 3, 4]


def sample(d, shape, rng, rank):
    n = int(np.prod(shape))
    if d == "bool":
        return rng.random(shape) < 0.5
    if d.startswith(("int", "uint")):
        info = np.iinfo(d)
        # Mostly small values, so products stay readable, plus extremes that make sums wrap.
        a = rng.integers(max(info.min, -20), min(info.max, 20), size=n, endpoint=True).astype(d)
        a[0] = info.max - rank
        a[1] = info.min + rank
        return a.reshape(shape)
    real = {"complex64": "float32", "complex128": "float64"}.get(d, d)
    x = (rng.standard_normal(n) * 4).astype(real)
    x[0] = [-0.0, 1.5, np.inf, 2.0][rank % 4]
    if d.startswith("complex"):
        y = (rng.standard_normal(n) * 4).astype(real)
        a = np.empty(n, dtype=d)
        a.real, a.imag = x, y
        return a.reshape(shape)
    return x.reshape(shape)


def refused(d, op):
    inexact = np.dtype(d).kind in "fc"
    if op == "avg" and not inexact:
        return True
    return np.dtype(d).kind == "c" and op in ("prod", "min", "max")


def fold(parts, op):
    if op == "avg":
        total = functools.reduce(np.add, parts)
        n = np.asarray(len(parts)).astype(total.real.dtype)
        if total.dtype.kind == "c":  # part by part (a complex division by n would turn inf parts to NaN)
            out = np.empty_like(total)
            out.real, out.imag = total.real / n, total.imag / n
            return out
        return total / n
    return functools.reduce(OPS[op], parts)


def write(w):
    rng = np.random.default_rng(45)

    def row(case_id, parts, outs):
        inputs = ",".join(w.array(p) for p in parts)
        w.row(case_id, inputs, outs if isinstance(outs, str) else ",".join(w.array(o) for o in outs))

    with np.errstate(all="ignore"):
        for n in RANKS:
            for d in DTYPES:
                for op in ["sum", "prod", "min", "max", "avg"]:
                    parts = [sample(d, (4, 3), rng, r) for r in range(n)]
                    if refused(d, op):
                        row(f"all_reduce.{op}.{d}.{n}", parts, "RAISES:dtype_error:-")
                        continue
                    total = fold(parts, op)
                    row(f"all_reduce.{op}.{d}.{n}", parts, [total] * n)
                    if op in ("sum", "max"):
                        parts = [sample(d, (2 * n, 3), rng, r) for r in range(n)]
                        total = fold(parts, op)
                        row(f"reduce_scatter.{op}.{d}.{n}", parts, np.split(total, n))
                parts = [sample(d, (2, 3), rng, r) for r in range(n)]
                row(f"all_gather.-.{d}.{n}", parts, [np.concatenate(parts)] * n)
                row(f"broadcast.-.{d}.{n}", parts, [parts[1]] * n)
    w.finish()


if __name__ == "__main__":
    run_oracle("distributed", write)
