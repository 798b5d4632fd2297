#!/usr/bin/env python3
"""DLPack between ndfuse and NumPy 2, both ways, in one process (CTest: dlpack_numpy).

Usage: dlpack_numpy.py LIBRARY. LIBRARY is tests/dlpack_probe.cpp built as a shared library: it
exports ndfuse arrays as DLManagedTensorVersioned pointers and reads NumPy's. The pointers travel
through PyCapsules made with ctypes (dlpack_capsules.py), which is all a C extension would do:
  ndfuse -> NumPy: numpy.from_dlpack of an object whose __dlpack__ returns ndfuse's capsule; the
    values must equal NumPy's own arange(6).reshape(2, 3).astype(dtype), and NumPy must call the
    deleter when the array goes (the probe counts the calls);
  NumPy -> ndfuse: a NumPy array's __dlpack__(max_version=(1, 0)) capsule handed to
    nf::from_dlpack; ndfuse's sum of a strided view of it must equal NumPy's.
Exits 0 when every check passes; prints each failure.
"""
import ctypes
import gc
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
import dlpack_capsules  # noqa: E402

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]



class Exported:
    """What numpy.from_dlpack asks for: __dlpack__ and __dlpack_device__ (the CPU)."""

    def __init__(self, pointer):
        self.pointer = pointer

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        return dlpack_capsules.wrap(self.pointer)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def main():
    lib = ctypes.CDLL(sys.argv[1])
    lib.probe_export.restype = ctypes.c_void_p
    lib.probe_export.argtypes = [ctypes.c_char_p]
    lib.probe_deleted.restype = ctypes.c_int
    lib.probe_sum_strided.restype = ctypes.c_double
    lib.probe_sum_strided.argtypes = [ctypes.c_void_p]
    failures = []

    for name in DTYPES:
        pointer = lib.probe_export(name.encode())
        if not pointer:
            failures.append(f"{name}: probe_export returned null")
            continue
        before = lib.probe_deleted()
        got = np.from_dlpack(Exported(pointer))
        expected = np.arange(6).reshape(2, 3).astype(name)
        if got.dtype != expected.dtype or got.shape != expected.shape or not np.array_equal(got, expected):
            failures.append(f"{name}: NumPy read {got!r}, expected {expected!r}")
        if got.flags.writeable:
            failures.append(f"{name}: the exported tensor is read-only, but NumPy's array is writeable")
        del got
        gc.collect()
        if lib.probe_deleted() != before + 1:
            failures.append(f"{name}: the deleter ran {lib.probe_deleted() - before} times, expected once")

    x = np.arange(24, dtype=np.float64).reshape(4, 6) * 0.5
    view = x[1:, ::2]  # strided, at a byte offset
    capsule = view.__dlpack__(max_version=(1, 0))
    pointer = dlpack_capsules.take(capsule)  # ndfuse takes it over
    got = lib.probe_sum_strided(pointer)
    if got != view.sum():
        failures.append(f"NumPy -> ndfuse: sum {got}, NumPy's {view.sum()}")

    for f in failures:
        print("FAIL:", f)
    print(f"dlpack_numpy: {len(DTYPES) + 1 - len(failures)} of {len(DTYPES) + 1} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
