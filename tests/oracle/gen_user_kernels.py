#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's user kernels (tests/test_user_kernels.cpp).

Usage: gen_user_kernels.py OUTDIR. Writes OUTDIR/user_kernels/manifest.tsv, tab-separated:
  id  inputs  expected
inputs and expected: array files joined by ','. Each id names a kernel the C++ test defines; what
it computes is written here in NumPy (seed 003's kernel is np.where(x - 2 > y, x * y, x + y)).
"""
import os
import shutil
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402


def main():
    w = OracleWriter(sys.argv[1], "user_kernels")
    try:
        write(w)
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


def write(w):
    rng = np.random.default_rng(3)

    def case(case_id, inputs, expected):
        w.row(case_id, ",".join(w.array(a) for a in inputs), ",".join(w.array(e) for e in expected))

    # Seed 003's kernel, float32, with values on both sides of x - 2 > y.
    x = (rng.random(1000) * 6).astype(np.float32)
    y = (rng.random(1000) * 4).astype(np.float32)
    case("seed003", [x, y], [np.where(x - np.float32(2) > y, x * y, x + y)])
    # The same kernel fused: k(x * 2, y) + 1, and its sum (float64 to keep the reduction exact enough).
    case("seed003_fused", [x, y], [np.where(x * 2 - np.float32(2) > y, (x * 2) * y, x * 2 + y) + np.float32(1)])
    xd = rng.random((37, 29))
    yd = rng.random((37, 29))
    k = np.where(xd * 2 - 2 > yd, (xd * 2) * yd, xd * 2 + yd)
    case("seed003_sum", [xd, yd], [np.sum(k + 1), np.sum(k, axis=0)])
    # Placeholders with a scalar: T is float64 from the array, a = 2.5 is converted to it.
    z = rng.random(50)
    case("axpy_scalar", [z], [np.float64(2.5) * z + 1])
    # The same kernel on int32: T is int32, the scalar 3 is int32.
    zi = rng.integers(-100, 100, 40, dtype=np.int32)
    case("axpy_int32", [zi], [(np.int32(3) * zi + np.int32(1)).astype(np.int32)])
    # Broadcasting (3, 1) against (4,).
    a = rng.random((3, 1))
    b = rng.random(4)
    case("broadcast", [a, b], [a - b])
    # i: the element's C-order index, also through a transposed view of the result's input.
    m = rng.integers(-5, 5, (2, 3), dtype=np.int64)
    case("index", [m], [m * np.arange(6).reshape(2, 3)])
    case("index_transposed", [m], [m.T * np.arange(6).reshape(3, 2)])
    # _ind.size(): the loop's element count.
    case("size", [a, b], [a + b + 12])
    # Two outputs.
    case("two_outputs", [z], [z + 1, z - 1])
    # Outputs given: seed 003's into a float32 array of zeros (a copy of its handle keeps the
    # zeros), and U decided by an int32 output (the body's assignment truncates as astype does).
    case("given_output", [x, y], [np.where(x - np.float32(2) > y, x * y, x + y), np.zeros(1000, np.float32)])
    # Only scalar inputs: the given output decides T and the loop's shape.
    case("scalars_into_output", [np.zeros(4, np.float32)], [np.full(4, np.float32(2.5) * np.float32(3))])
    w64 = rng.random(30) * 100
    # A preamble's helper (written for CUDA, __device__) in an elementwise and a reduction kernel.
    case("preamble", [w64], [w64 * 2 + 1])
    case("preamble_reduction", [w64], [np.sum(w64 * 2) + 1])
    # raw parameters: the body indexes x itself. y decides the loop; x is read reversed.
    rx = rng.random(10)
    ry = rng.random(10)
    case("raw_reversed", [rx, ry], [rx[::-1] + ry])
    # A lazy raw input (x * 2, written first), and a strided view (x[::2], copied to C order).
    case("raw_lazy", [rx, ry], [(rx * 2)[::-1] + ry])
    case("raw_strided", [rx, ry[:5]], [rx[::2][::-1] + ry[:5]])
    # A 2-d raw input indexed by flat C order: each output element sums a row.
    rm = rng.random((4, 6))
    case("raw_rows", [rm, np.zeros(4)], [rm.sum(axis=1)])
    # Reduction kernels: CuPy's L2 norm example, over axis 1 and over everything, and of x * 2.
    case("l2norm_axis1", [xd], [np.sqrt(np.sum(xd * xd, axis=1))])
    case("l2norm_all", [xd], [np.sqrt(np.sum(xd * xd))])
    case("l2norm_fused", [xd], [np.sqrt(np.sum((xd * 2) * (xd * 2), axis=0))])
    # A reduction kernel of two outputs (the norm and its square), and the two outputs given as
    # output arguments, then read together (their sum).
    squares = np.sum(xd * xd, axis=1)
    case("l2norm_two_outputs", [xd], [np.sqrt(squares), squares])
    case("l2norm_two_given", [xd], [np.sqrt(squares) + squares])
    # loop_prep's declarations are the body's: z = x * scale with scale = 3 declared there.
    case("loop_prep", [xd], [xd * 3])
    # max over int32 from an identity of INT32_MIN, keepdims; an empty axis gives the identity.
    mi = rng.integers(-1000, 1000, (6, 7), dtype=np.int32)
    case("max_keepdims", [mi], [np.max(mi, axis=0, keepdims=True)])
    case("max_empty", [np.zeros((3, 0), np.int32)], [np.full(3, np.iinfo(np.int32).min, np.int32)])
    # A float32 input folded in float64 (reduce_type), written as float64.
    xf = rng.random(1000).astype(np.float32)
    case("sum_float64", [xf], [np.sum(xf.astype(np.float64))])
    case("placeholder_output", [w64], [(w64 * 2).astype(np.int32)])
    w.finish()


if __name__ == "__main__":
    main()
