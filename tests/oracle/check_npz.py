#!/usr/bin/env python3
"""Checks the .npz archives that tests/test_npz.cpp wrote with nf::savez and nf::savez_compressed.

Usage: check_npz.py DIR. Each archive must open with np.load and zipfile, pass zipfile's CRC check
(testzip), use the expected compression for every member, and hold exactly the expected arrays:
dtype with byte order, shape and values bit for bit (check_npy.py's comparison). Prints one line per
failure and exits 1 if there was any; prints "ok <count>" and exits 0 otherwise.
"""
import os
import sys
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_npy import expected_cases, mismatch  # noqa: E402

MANY = 70000  # members of many.npz: past the 65535 that the classic end record can count


def expected_archives():
    """archive name -> (compression, {key: array}, keys in archive order or None for any order)."""
    cases = expected_cases()
    big = np.arange(2_000_000, dtype=np.float64) * 0.5
    big[::7] = -big[::7]
    return {
        "named": (zipfile.ZIP_STORED, cases, None),
        "named_compressed": (zipfile.ZIP_DEFLATED, cases, None),
        "positional": (zipfile.ZIP_STORED,
                       {"arr_0": np.arange(5, dtype=np.int64), "arr_1": np.array(2.5),
                        "arr_2": np.zeros((0, 4), dtype=np.float32)}, ["arr_0", "arr_1", "arr_2"]),
        "positional_compressed": (zipfile.ZIP_DEFLATED,
                                  {"arr_0": np.arange(5, dtype=np.int64), "arr_1": np.array(2.5),
                                   "arr_2": np.zeros((0, 4), dtype=np.float32)}, ["arr_0", "arr_1", "arr_2"]),
        "no_suffix": (zipfile.ZIP_STORED, {"x": np.array([True, False])}, ["x"]),
        "empty": (zipfile.ZIP_STORED, {}, []),
        "big_compressed": (zipfile.ZIP_DEFLATED, {"big": big, "tail": np.array([7], dtype=np.uint8)},
                           ["big", "tail"]),
        "unicode": (zipfile.ZIP_STORED, {"größe": np.array([1.5, -2.0]), "a/b": np.array([3], dtype=np.int16)},
                    ["größe", "a/b"]),
        "many": (zipfile.ZIP_STORED, {f"arr_{i}": np.array(i, dtype=np.int32) for i in range(MANY)}, None),
    }


def main():
    root = sys.argv[1]
    failures = []
    checked = 0
    for archive, (compression, arrays, order) in expected_archives().items():
        path = os.path.join(root, archive + ".npz")
        if not os.path.exists(path):
            failures.append(f"{archive}: {path} was not written")
            continue
        try:
            with zipfile.ZipFile(path) as z:
                bad = z.testzip()
                if bad is not None:
                    failures.append(f"{archive}: member {bad} fails zipfile's CRC check")
                for info in z.infolist():
                    if info.compress_type != compression:
                        failures.append(f"{archive}: member {info.filename} has compression "
                                        f"{info.compress_type}, expected {compression}")
                        break
            with np.load(path, allow_pickle=False) as npz:
                keys = list(npz.files)
                if order is not None and keys != order:
                    failures.append(f"{archive}: keys {keys[:10]}, expected {order[:10]}")
                if sorted(keys) != sorted(arrays):
                    failures.append(f"{archive}: {len(keys)} keys, expected {len(arrays)}: "
                                    f"{sorted(set(keys) ^ set(arrays))[:10]} differ")
                    continue
                for key, want in arrays.items():
                    problem = mismatch(npz[key], want)
                    if problem:
                        failures.append(f"{archive}[{key}]: {problem}")
                    checked += 1
        except Exception as e:  # noqa: BLE001 - report any load failure as a test failure
            failures.append(f"{archive}: reading failed: {e!r}")
    with open(os.path.join(root, "many.npz"), "rb") as f:
        if b"PK\x06\x06" not in f.read():
            failures.append("many: no zip64 end of central directory record")
    for f in failures:
        print("FAIL", f)
    if failures:
        sys.exit(1)
    print("ok", checked)


if __name__ == "__main__":
    main()
