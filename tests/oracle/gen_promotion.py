#!/usr/bin/env python3
"""NumPy 2 (NEP 50) oracle for ndfuse's type promotion and casting rules (tests/test_promotion.cpp).

Usage: gen_promotion.py OUTDIR. Writes OUTDIR/promotion/manifest.tsv, tab-separated:
  pair      left right result_type add multiply true_divide maximum
  scalar    left right result_type add multiply true_divide maximum
  can_cast  from to casting answer(0|1)
  call      name dtype result: the dtype of a library call, reduction, scan or sort of an input of
            that dtype (m = np.eye(4, dtype), v = np.ones(8, dtype)), or the error NumPy raises
left/right: a:<dtype> (a 1-d array of that dtype) or a weak Python scalar token as in gen_ops.py
(b:1, i:300, u:<uint64>, f:1.5, c:1.0:2.0). Each result is a dtype name or RAISES:<ndfuse error>:<NumPy error>.
"""
import os
import shutil
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import DTYPES, OracleWriter, pyscalar, raises_token  # noqa: E402

OPS = ["add", "multiply", "true_divide", "maximum"]
# Weak scalars: one per kind, then Python ints at and past the edges of the integer dtypes (NumPy 2
# raises OverflowError when the value does not fit the array's dtype, but np.result_type does not look
# at values), and float/complex values that overflow small float dtypes (inf, not an error).
SCALARS = ["b:1", "b:0", "i:1", "i:0", "f:1.5", "c:1.0:2.0", "i:-1", "i:127", "i:128", "i:-128", "i:-129",
           "i:255", "i:256", "i:300", "i:32767", "i:32768", "i:-32769", "i:65535", "i:65536",
           "i:2147483647", "i:2147483648", "i:-2147483649", "i:4294967296", "i:9223372036854775807",
           "i:-9223372036854775808", "u:9223372036854775808", "u:18446744073709551615", "f:1e+300",
           "f:inf", "f:nan", "c:1e+300:0.0"]
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
# Calls whose result dtype (or refusal) depends on the input's dtype; tests/test_promotion.cpp builds
# the same names. The refusals must come at the call, and whatever builds must evaluate.
CALLS = {
    "matmul": lambda m, v: m @ m,
    "linalg.inv": lambda m, v: np.linalg.inv(m),
    "linalg.det": lambda m, v: np.linalg.det(m),
    "linalg.svdvals": lambda m, v: np.linalg.svd(m, compute_uv=False),
    "linalg.eigvalsh": lambda m, v: np.linalg.eigvalsh(m),
    "linalg.cholesky": lambda m, v: np.linalg.cholesky(m),
    "linalg.solve": lambda m, v: np.linalg.solve(m, m),
    "linalg.norm": lambda m, v: np.linalg.norm(m),
    "fft.fft": lambda m, v: np.fft.fft(v),
    "fft.rfft": lambda m, v: np.fft.rfft(v),
    "fft.ifft": lambda m, v: np.fft.ifft(v),
    "sum": lambda m, v: np.sum(v),
    "prod": lambda m, v: np.prod(v),
    "max": lambda m, v: np.max(v),
    "argmax": lambda m, v: np.argmax(v),
    "mean": lambda m, v: np.mean(v),
    "var": lambda m, v: np.var(v),
    "cumsum": lambda m, v: np.cumsum(v),
    "cumprod": lambda m, v: np.cumprod(v),
    "sort": lambda m, v: np.sort(v),
    "argsort": lambda m, v: np.argsort(v),
    "flatnonzero": lambda m, v: np.flatnonzero(v),
    "unique": lambda m, v: np.unique(v),
    "searchsorted": lambda m, v: np.searchsorted(v, v),
}


def operand(token):
    if token.startswith("a:"):
        return np.zeros(2, dtype=token[2:])
    return pyscalar(token)


def answer(fn):
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = fn()
        return np.dtype(getattr(r, "dtype", r)).name
    except Exception as e:  # noqa: BLE001 - the exception type is the oracle's answer
        return raises_token(e)


def row(w, kind, left, right):
    a, b = operand(left), operand(right)
    results = [answer(lambda: np.result_type(a, b))]
    results += [answer(lambda op=op: getattr(np, op)(a, b)) for op in OPS]
    w.row("%s/%s/%s" % (kind, left, right), kind, left, right, *results)


def main():
    w = OracleWriter(sys.argv[1], "promotion")
    try:
        for d1 in DTYPES:
            for d2 in DTYPES:
                row(w, "pair", "a:" + d1, "a:" + d2)
        for d in DTYPES:
            for s in SCALARS:
                row(w, "scalar", "a:" + d, s)
                row(w, "scalar", s, "a:" + d)
        for d1 in DTYPES:
            for d2 in DTYPES:
                for casting in CASTINGS:
                    ok = np.can_cast(np.dtype(d1), np.dtype(d2), casting)
                    w.row("can_cast/%s/%s/%s" % (d1, d2, casting), "can_cast", d1, d2, casting, str(int(ok)))
        for d in DTYPES:
            for name, fn in CALLS.items():
                m, v = np.eye(4, dtype=d), np.ones(8, dtype=d)
                w.row("call/%s/%s" % (name, d), "call", name, d, answer(lambda: fn(m, v)))
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


if __name__ == "__main__":
    main()
