#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's raw kernels (tests/test_raw_kernels.cpp).

Usage: gen_raw_kernels.py OUTDIR. Writes OUTDIR/raw_kernels/manifest.tsv, tab-separated:
  id  inputs  expected
inputs and expected: array files joined by ','. Each id names a launch the C++ test makes:
  matmul        seed 003's RawKernel (a naive float32 matrix product, one thread per output)
                (compiled with --fmad=false: the same bits as the sequential float32 sum here)
  scale_float   a RawModule template instance scale<float>: y = x * a + i (i the element index)
  scale_double  the same module's scale<double>
  fill_ptx      a kernel loaded from a PTX file: every element set to 7.25
  inplace       a kernel that doubles x in place, given x both plainly and as its output
"""
import os
import shutil
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402


def main():
    w = OracleWriter(sys.argv[1], "raw_kernels")
    try:
        write(w)
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


def write(w):
    rng = np.random.default_rng(43)

    def case(case_id, inputs, expected):
        w.row(case_id, ",".join(w.array(a) for a in inputs), ",".join(w.array(e) for e in expected))

    a = rng.standard_normal((67, 45)).astype(np.float32)
    b = rng.standard_normal((45, 53)).astype(np.float32)
    # The kernel's own order: s += a[row, t] * b[t, col] for t = 0, 1, ..., each step rounded to
    # float32 (the test compiles it with --fmad=false, so no product is fused into an fma).
    c = np.zeros((67, 53), np.float32)
    for t in range(45):
        c = c + np.outer(a[:, t], b[t, :]).astype(np.float32)
    case("matmul", [a, b], [c])
    xf = rng.standard_normal(1001).astype(np.float32)
    case("scale_float", [xf], [xf * np.float32(2.5) + np.arange(1001, dtype=np.float32)])
    xd = rng.standard_normal(1001)
    case("scale_double", [xd], [xd * 2.5 + np.arange(1001, dtype=np.float64)])
    case("fill_ptx", [np.zeros(300, np.float32)], [np.full(300, 7.25, np.float32)])
    xi = rng.standard_normal(777)
    case("inplace", [xi], [xi * 2])
    w.finish()


if __name__ == "__main__":
    main()
