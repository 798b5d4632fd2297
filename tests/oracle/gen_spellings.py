#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's spellings (tests/test_spellings.cpp).

Usage: gen_spellings.py OUTDIR. Writes OUTDIR/spellings/manifest.tsv (the files' names),
OUTDIR/spellings/dtypes.tsv: each spelling tried with
numpy.dtype() and the dtype it names, or RAISES where NumPy refuses it or names a dtype ndfuse does
not have (float128, object, str, a big-endian multi-byte type); and OUTDIR/spellings/lists.tsv: the
dtype of np.array(...) of Python literals, by the id the C++ test builds the same list under.
"""
import os
import shutil
import sys

import numpy as np

SUPPORTED = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "float32", "float64", "complex64", "complex128"}

SPELLINGS = ["?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q", "p", "P", "n", "N", "e", "f", "d", "g", "F",
             "D", "G", "b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "f16", "c8", "c16",
             "c32", "<f4", ">f4", "=f4", "|b1", "<i8", ">i2", "|u1", ">u1", "<c16", "=d", "<d", ">d", "|i1",
             "bool", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "float32", "float64", "complex64", "complex128", "half", "single", "double", "longdouble", "csingle",
             "cdouble", "clongdouble", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "long",
             "ulong", "longlong", "ulonglong", "intp", "uintp", "float_", "complex_", "float", "int", "complex",
             "object", "str", "U", "S", "float128", "int0", "bool8", "cfloat", "Float64", "", "i3"]

LISTS = {
    "ints": [1, 2, 3],
    "floats": [1.0, 2.5],
    "bools": [True, False],
    "int_rows": [[1, 2], [3, 4]],
    "float_rows": [[1.0], [2.0]],
}


def main():
    out = os.path.join(sys.argv[1], "spellings")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with open(os.path.join(out, "manifest.tsv"), "w") as f:  # what oracle_dir() looks for
        f.write("dtypes.tsv\nlists.tsv\nfinfo.tsv\niinfo.tsv\n")
    with open(os.path.join(out, "dtypes.tsv"), "w") as f:
        for s in SPELLINGS:
            try:
                d = np.dtype(s)
                name = d.name if d.name in SUPPORTED and d.byteorder != ">" else "RAISES"
            except TypeError:
                name = "RAISES"
            f.write(f"{s}\t{name}\n")
    # finfo and iinfo: each field as Python prints it (float(x) of NumPy's scalar), or RAISES.
    fields = ["bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal", "smallest_subnormal", "resolution",
              "precision", "maxexp", "minexp", "nexp", "nmant", "machep", "negep", "iexp"]
    with open(os.path.join(out, "finfo.tsv"), "w") as f:
        for d in ["float16", "float32", "float64", "complex64", "complex128", "int32", "bool"]:
            try:
                fi = np.finfo(d)
                f.write(d + "\t" + fi.dtype.name + "\t" + "\t".join(repr(float(getattr(fi, k))) for k in fields) + "\n")
            except ValueError:
                f.write(d + "\tRAISES\n")
    with open(os.path.join(out, "iinfo.tsv"), "w") as f:
        for d in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "bool"]:
            try:
                ii = np.iinfo(d)
                f.write(f"{d}\t{ii.bits}\t{ii.min}\t{ii.max}\n")
            except ValueError:
                f.write(d + "\tRAISES\n")
    with open(os.path.join(out, "lists.tsv"), "w") as f:
        for k, v in LISTS.items():
            a = np.array(v)
            f.write(f"{k}\t{a.dtype.name}\t{' '.join(map(str, a.shape))}\n")


if __name__ == "__main__":
    main()
