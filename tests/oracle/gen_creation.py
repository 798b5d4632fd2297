#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's creation ops (tests/test_creation.cpp).

Usage: gen_creation.py OUTDIR. Writes OUTDIR/creation/manifest.tsv, tab-separated:
  id  function  args  expected
args: k=v pairs joined by ';' (shape=2,3 (empty for 0-d); dtype=<name>; value/start/stop/step=<scalar token
as in gen_ops.py>; like=<array file>; num=, endpoint=0|1, n=, m=, k=). expected: an array file, or
RAISES:<ndfuse error>:<NumPy error>. For empty/empty_like only the dtype and shape are compared.
"""
import os
import shutil
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import DTYPES, OracleWriter, evaluate, pyscalar  # noqa: E402


def shape_arg(shape):
    return "shape=" + ",".join(str(s) for s in shape)


def main():
    w = OracleWriter(sys.argv[1], "creation")

    def case(case_id, func, args, fn):
        result, _ = evaluate(fn)
        expect = result if isinstance(result, str) else w.array(result)
        w.row(case_id, func, ";".join(args), expect)

    try:
        shapes = [(2, 3), (5,), (), (0,), (3, 0, 2)]
        for name, fn in [("zeros", np.zeros), ("ones", np.ones), ("empty", np.empty)]:
            for shape in shapes:
                case("%s/default/%s" % (name, shape), name, [shape_arg(shape)], lambda: fn(shape))
            for d in DTYPES:
                case("%s/%s" % (name, d), name, [shape_arg((2, 3)), "dtype=" + d], lambda: fn((2, 3), d))
        # full: the dtype follows the value (bool, int64, float64, complex128) unless given; explicit dtypes
        # cast the value (a Python int out of the dtype's range is an OverflowError in NumPy 2).
        values = ["b:1", "i:7", "i:-3", "f:2.5", "f:-0.0", "f:nan", "f:inf", "c:1.5:-2.0", "u:18446744073709551615"]
        for v in values:
            for shape in [(2, 3), ()]:
                case("full/%s/%s" % (v, shape), "full", [shape_arg(shape), "value=" + v],
                     lambda: np.full(shape, pyscalar(v)))
        for d in DTYPES:
            for v in ["b:1", "i:7", "i:-3", "i:300", "f:2.5", "f:-2.75", "c:1.5:0.0"]:
                if d.startswith("uint") and v == "f:-2.75":
                    continue  # a negative float cast to an unsigned integer is undefined in C and NumPy
                if not d.startswith("complex") and v.startswith("c:"):
                    continue  # NumPy drops the imaginary part with a ComplexWarning; ndfuse may refuse
                case("full/%s/%s" % (v, d), "full", [shape_arg((4,)), "value=" + v, "dtype=" + d],
                     lambda: np.full((4,), pyscalar(v), dtype=d))
        # *_like: shape and dtype from the prototype, or the dtype given.
        for d in ["bool", "int8", "uint32", "float16", "float64", "complex64"]:
            proto = np.arange(6).reshape(2, 3).astype(d)
            pf = w.array(proto)
            for name, fn in [("zeros_like", np.zeros_like), ("ones_like", np.ones_like), ("empty_like", np.empty_like)]:
                case("%s/%s" % (name, d), name, ["like=" + pf], lambda: fn(proto))
                case("%s/%s/float32" % (name, d), name, ["like=" + pf, "dtype=float32"], lambda: fn(proto, "float32"))
            for v in ["b:1", "i:5", "i:300", "f:2.75", "f:-0.0", "c:1.0:1.0"]:
                if not d.startswith("complex") and v.startswith("c:"):
                    continue
                case("full_like/%s/%s" % (d, v), "full_like", ["like=" + pf, "value=" + v],
                     lambda: np.full_like(proto, pyscalar(v)))
            case("full_like/%s/i:3/int16" % d, "full_like", ["like=" + pf, "value=i:3", "dtype=int16"],
                 lambda: np.full_like(proto, 3, dtype="int16"))
        zero_d = w.array(np.array(4.5))
        case("zeros_like/0d", "zeros_like", ["like=" + zero_d], lambda: np.zeros_like(np.array(4.5)))
        case("full_like/0d", "full_like", ["like=" + zero_d, "value=i:2"], lambda: np.full_like(np.array(4.5), 2))
        # arange: the dtype follows the arguments (all ints: int64, else float64) unless given.
        aranges = [(["stop=i:5"], lambda: np.arange(5)), (["stop=i:0"], lambda: np.arange(0)),
                   (["stop=f:3.5"], lambda: np.arange(3.5)), (["stop=i:-2"], lambda: np.arange(-2))]
        for start, stop, step in [("i:2", "i:11", "i:3"), ("i:10", "i:0", "i:-3"), ("i:5", "i:1", "i:1"),
                                  ("f:0.0", "f:1.0", "f:0.1"), ("f:1.5", "i:-2", "f:-0.5"), ("i:0", "i:5", "f:1.5"),
                                  ("f:-1.0", "f:1.0", "f:0.25"), ("i:3", "i:3", "i:1"), ("i:-5", "i:5", "i:1"),
                                  ("f:0.1", "f:2.0", "f:0.3"), ("i:1", "i:2", "f:0.125")]:
            aranges.append((["start=" + start, "stop=" + stop, "step=" + step],
                            lambda a=start, b=stop, c=step: np.arange(pyscalar(a), pyscalar(b), pyscalar(c))))
        aranges.append((["start=i:2", "stop=i:9"], lambda: np.arange(2, 9)))
        aranges.append((["start=f:0.5", "stop=i:4"], lambda: np.arange(0.5, 4)))
        for d in ["int8", "int32", "uint16", "int64", "float16", "float32", "float64", "complex64"]:
            aranges.append((["start=i:1", "stop=i:20", "step=i:3", "dtype=" + d],
                            lambda d=d: np.arange(1, 20, 3, dtype=d)))
            aranges.append((["start=i:10", "stop=i:-5", "step=i:-2", "dtype=" + d] if not d.startswith("u") else
                            ["start=i:10", "stop=i:0", "step=i:-2", "dtype=" + d],
                            lambda d=d: np.arange(10, -5 if not d.startswith("u") else 0, -2, dtype=d)))
        for d in ["float32", "float64", "float16"]:
            aranges.append((["start=f:0.1", "stop=f:2.0", "step=f:0.3", "dtype=" + d],
                            lambda d=d: np.arange(0.1, 2.0, 0.3, dtype=d)))
        for i, (args, fn) in enumerate(aranges):
            case("arange/%d/%s" % (i, ",".join(args)), "arange", args, fn)
        # linspace
        linspaces = [(0, 1, 50, 1, "float64"), (0, 1, 50, 0, "float64"), (2, 3, 5, 1, "float32"),
                     (-1, 1, 0, 1, "float64"), (-1, 1, 1, 1, "float64"), (-1, 1, 1, 0, "float64"),
                     (5, -5, 11, 1, "float64"), (0.1, 0.7, 7, 0, "float32"), (1, 1e6, 9, 1, "float32"),
                     (-5, 5, 7, 1, "int64"), (0, 10, 4, 1, "int32"), (0, 1, 5, 1, "complex128"),
                     (0, 1, 5, 1, "float16"), (3, 3, 4, 1, "float64")]
        for start, stop, num, endpoint, d in linspaces:
            args = ["start=f:%r" % float(start), "stop=f:%r" % float(stop), "num=%d" % num, "endpoint=%d" % endpoint,
                    "dtype=" + d]
            case("linspace/%s" % ",".join(args), "linspace", args,
                 lambda: np.linspace(start, stop, num, endpoint=bool(endpoint), dtype=d))
        # eye / identity
        for n, m, k, d in [(3, -1, 0, "float64"), (3, 4, 1, "float64"), (4, 3, -2, "int32"), (3, -1, 5, "float64"),
                           (3, -1, -3, "float64"), (0, -1, 0, "float64"), (1, -1, 0, "bool"), (5, 2, -1, "complex64"),
                           (2, 6, 3, "uint8"), (4, -1, 0, "float16"), (3, 3, -1, "bool")]:
            args = ["n=%d" % n, "m=%d" % m, "k=%d" % k, "dtype=" + d]
            case("eye/%s" % ",".join(args), "eye", args, lambda: np.eye(n, None if m < 0 else m, k, dtype=d))
        for n, d in [(3, "float64"), (1, "int8"), (0, "float64"), (4, "bool"), (2, "complex128")]:
            case("identity/%d/%s" % (n, d), "identity", ["n=%d" % n, "dtype=" + d], lambda: np.identity(n, dtype=d))
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


if __name__ == "__main__":
    main()
