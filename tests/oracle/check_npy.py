#!/usr/bin/env python3
"""Checks the .npy files that tests/test_npy.cpp wrote with nf::save, against arrays built here in NumPy.

Usage: check_npy.py DIR. For every case below, DIR/<name>.npy must load with np.load to exactly the
expected array: same dtype (byte order included), shape and values (NaN matches NaN, the sign of zero
counts), and its header must be byte-identical to the one np.save writes for that array. Prints one
line per failure and exits 1 if there was any; prints "ok <count>" and exits 0 otherwise.
"""
import io
import os
import sys

import numpy as np

inf, nan = float("inf"), float("nan")

SPECIAL = {
    "bool": [True, False, True, True],
    "int8": [-128, -1, 0, 1, 127],
    "int16": [-32768, -1, 0, 1, 32767],
    "int32": [-2**31, -1, 0, 1, 2**31 - 1],
    "int64": [-2**63, -1, 0, 1, 2**63 - 1],
    "uint8": [0, 1, 255],
    "uint16": [0, 1, 65535],
    "uint32": [0, 1, 2**32 - 1],
    "uint64": [0, 1, 2**64 - 1],
}
for _d in ["float16", "float32", "float64"]:
    _fi = np.finfo(_d)
    SPECIAL[_d] = np.array([nan, inf, -inf, -0.0, 0.0, _fi.max, -_fi.max, _fi.smallest_subnormal,
                            _fi.smallest_normal, 1.0, 0.1], dtype=_d)
for _d, _r in [("complex64", "float32"), ("complex128", "float64")]:
    _fi = np.finfo(_r)
    _re = np.array([nan, 0.0, -inf, -0.0, float(_fi.max), 1.5], dtype=_r)
    _im = np.array([0.0, inf, -0.0, 1.5, float(_fi.smallest_subnormal), -0.1], dtype=_r)
    _c = np.empty(_re.shape, dtype=_d)
    _c.real, _c.imag = _re, _im  # built by parts so that nan/inf/-0.0 parts are exact
    SPECIAL[_d] = _c


def cube(d):
    """The (2, 3, 4) array test_npy.cpp computes element by element."""
    i = np.arange(24)
    if d == "bool":
        v = i % 3 == 0
    elif d.startswith("int"):
        v = i * 7 - 50
    elif d.startswith("uint"):
        v = i * 7
    elif d.startswith("float"):
        v = (i - 11.5) / 4
    else:
        v = (i - 11.5) / 4 + 1j * (i / 8)
    return np.asarray(v).astype(d).reshape(2, 3, 4)


def expected_cases():
    out = {}
    for d, values in SPECIAL.items():
        a = np.array(values, dtype=d)
        out[f"special_{d}"] = a
        out[f"scalar_{d}"] = a[-1].reshape(())
        out[f"empty_{d}"] = np.zeros((0,), dtype=d)
        out[f"empty3_{d}"] = np.zeros((2, 0, 3), dtype=d)
        out[f"cube_{d}"] = cube(d)
    out["lazy_times_two"] = np.arange(6.0).reshape(2, 3) * 2.0
    return out


def same_values(a, b):
    if a.dtype.kind in "fc":
        parts = [(a.real, b.real), (a.imag, b.imag)] if a.dtype.kind == "c" else [(a, b)]
        for x, y in parts:
            if not np.array_equal(x, y, equal_nan=True):
                return False
            if not np.array_equal(np.signbit(x), np.signbit(y)):
                return False
        return True
    return np.array_equal(a, b)


def mismatch(got, want):
    """What differs between a loaded array and the expected one (dtype with byte order, shape,
    values bit for bit), or None."""
    if got.dtype.str != want.dtype.str:
        return f"dtype {got.dtype.str}, expected {want.dtype.str}"
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if not same_values(got, want):
        return f"values differ\n  got      {got!r}\n  expected {want!r}"
    return None


def main():
    root = sys.argv[1]
    failures = []
    cases = expected_cases()
    for name, want in cases.items():
        path = os.path.join(root, name + ".npy")
        if not os.path.exists(path):
            failures.append(f"{name}: {path} was not written")
            continue
        try:
            got = np.load(path, allow_pickle=False)
        except Exception as e:  # noqa: BLE001 - report any load failure as a test failure
            failures.append(f"{name}: np.load failed: {e!r}")
            continue
        problem = mismatch(got, want)
        if problem:
            failures.append(f"{name}: {problem}")
            continue
        buf = io.BytesIO()
        np.save(buf, want, allow_pickle=False)
        with open(path, "rb") as f:
            data = f.read()
        header_len = len(buf.getvalue()) - want.nbytes
        if data[:header_len] != buf.getvalue()[:header_len]:
            failures.append(f"{name}: header differs from np.save's\n  got      {data[:header_len]!r}\n"
                            f"  expected {buf.getvalue()[:header_len]!r}")
        if len(data) != len(buf.getvalue()):
            failures.append(f"{name}: file is {len(data)} bytes, np.save writes {len(buf.getvalue())}")
    for f in failures:
        print("FAIL", f)
    if failures:
        sys.exit(1)
    print("ok", len(cases))


if __name__ == "__main__":
    main()
