#!/usr/bin/env python3
"""NumPy 2 oracle for nf::load (tests/test_npy.cpp): .npy files that NumPy writes, with known contents.

Usage: gen_npy.py OUTDIR. Writes OUTDIR/npy/manifest.txt, one case a line: "<name> ok" or
"<name> dtype_error". For each case OUTDIR/npy/<name>.npy is the file; for "ok" cases
OUTDIR/npy/<name>.expected holds the contents in plain text:
  line 1: the dtype name (float32, bool, ...)
  line 2: the shape as space-separated sizes (an empty line for 0-d)
  then one line per element in C order: bool 0/1, integers in decimal, floats as float.hex of the
  value ("nan", "inf", "-0x0.0p+0" included), complex as two such fields "real imag".
"dtype_error" cases hold a dtype that ndfuse lacks; nf::load must throw nf::dtype_error.
"""
import os
import shutil
import sys
import warnings

import numpy as np

inf, nan = float("inf"), float("nan")
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def sample(d, shape, rng):
    n = int(np.prod(shape))
    if d == "bool":
        a = rng.random(n) < 0.5
    elif d.startswith(("int", "uint")):
        info = np.iinfo(d)
        a = rng.integers(info.min, info.max, size=n, dtype=d, endpoint=True)
    else:
        real = "float32" if d == "complex64" else "float64" if d == "complex128" else d
        specials = np.array([nan, inf, -inf, -0.0, 0.0, 1.0], dtype=real)
        x = (rng.standard_normal(n) * 100).astype(real)
        x[: min(n, len(specials))] = specials[: min(n, len(specials))]
        if d.startswith("complex"):
            y = (rng.standard_normal(n) * 100).astype(real)
            y[::-1][: min(n, len(specials))] = specials[: min(n, len(specials))]
            a = np.empty(n, dtype=d)
            a.real, a.imag = x, y
        else:
            a = x
    return a.astype(d).reshape(shape)


def fmt_float(x):
    return float(x).hex()


def expected_text(a):
    a = np.asarray(a)
    lines = [a.dtype.name, " ".join(str(s) for s in a.shape)]
    for x in a.reshape(-1):
        if a.dtype.kind == "b":
            lines.append("1" if x else "0")
        elif a.dtype.kind in "iu":
            lines.append(str(int(x)))
        elif a.dtype.kind == "f":
            lines.append(fmt_float(x))
        else:
            lines.append(fmt_float(x.real) + " " + fmt_float(x.imag))
    return "\n".join(lines) + "\n"


def write_raw(path, header_text, payload, version=(1, 0)):
    """A .npy file with a hand-written header dict (padded the way NumPy pads)."""
    hlen_bytes = 2 if version == (1, 0) else 4
    text = header_text.encode("latin1" if version != (3, 0) else "utf8")
    total = 6 + 2 + hlen_bytes + len(text) + 1
    text += b" " * ((64 - total % 64) % 64) + b"\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes(version) + len(text).to_bytes(hlen_bytes, "little") + text + payload)


def main():
    out = os.path.join(sys.argv[1], "npy")
    tmp = out + ".tmp-%d" % os.getpid()
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    rng = np.random.default_rng(7)
    manifest = []

    def ok(name, a, writer=None):
        path = os.path.join(tmp, name + ".npy")
        if writer is None:
            np.save(path, a, allow_pickle=False)
        else:
            writer(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy warns about the Python 2 style header
            back = np.load(path, allow_pickle=False)  # the file must be valid NumPy input
        assert back.shape == np.shape(a) and back.dtype == np.asarray(a).dtype, name
        with open(os.path.join(tmp, name + ".expected"), "w") as f:
            f.write(expected_text(a))
        manifest.append(f"{name} ok")

    def with_version(a, version):
        def write(path):
            with open(path, "wb") as f:
                np.lib.format.write_array(f, a, version=version, allow_pickle=False)
        return write

    for d in DTYPES:
        ok(f"c_{d}", sample(d, (2, 3, 4), rng))
        ok(f"f_{d}", np.asfortranarray(sample(d, (3, 5), rng)))
        if np.dtype(d).itemsize > 1:
            ok(f"be_{d}", sample(d, (7,), rng).astype(np.dtype(d).newbyteorder(">")))
    ok("f_3d_float64", np.asfortranarray(sample("float64", (2, 3, 4), rng)))
    ok("f_4d_int16", np.asfortranarray(sample("int16", (2, 3, 2, 3), rng)))
    ok("be_f_3d_complex128", np.asfortranarray(sample("complex128", (3, 2, 4), rng).astype(">c16")))
    ok("be_f_2d_int32", np.asfortranarray(sample("int32", (4, 3), rng).astype(">i4")))
    a = sample("float32", (3, 4), rng)
    ok("v2_float32", a, with_version(a, (2, 0)))
    a = sample("int64", (5, 2), rng)
    ok("v2_int64", a, with_version(a, (2, 0)))
    a = np.asfortranarray(sample("float64", (4, 3), rng))
    ok("v3_fortran_float64", a, with_version(a, (3, 0)))
    a = np.array(2.5)
    ok("v3_scalar", a, with_version(a, (3, 0)))
    ok("scalar_float64", np.array(-3.75))
    ok("scalar_bool", np.array(True))
    ok("scalar_int32", np.array(-7, dtype=np.int32))
    ok("scalar_complex64", np.array(1.5 - 2j, dtype=np.complex64))
    ok("scalar_be_float16", np.array(0.5, dtype=">f2"))
    ok("empty_float64", np.zeros((0,)))
    ok("empty_2d_int32", np.zeros((0, 3), dtype=np.int32))
    ok("empty_f_2d_float32", np.asfortranarray(np.zeros((3, 0, 2), dtype=np.float32)))
    ok("tuple1_uint8", np.arange(3, dtype=np.uint8))

    # Hand-written headers: key order, quotes and spacing NumPy's reader also accepts.
    a = np.array([1, -2, 3], dtype=np.int32)
    ok("hdr_key_order", a, lambda p: write_raw(p, "{'shape': (3,), 'fortran_order': False, 'descr': '<i4'}",
                                                 a.astype("<i4").tobytes()))
    ok("hdr_spacing", a, lambda p: write_raw(p, "{ \"descr\" :'<i4' ,\n 'fortran_order':False,'shape':( 3 , ) ,}",
                                               a.astype("<i4").tobytes()))
    b = np.arange(6, dtype=np.float64).reshape(2, 3)
    ok("hdr_py2_long", b, lambda p: write_raw(p, "{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 3L), }",
                                                b.tobytes()))
    ok("hdr_native_order", b, lambda p: write_raw(p, "{'descr': '=f8', 'fortran_order': False, 'shape': (2, 3)}",
                                                    b.tobytes()))
    c = np.array([True, False, True])
    ok("hdr_bool_nonzero", c, lambda p: write_raw(p, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
                                                    bytes([5, 0, 255])))

    # Dtypes ndfuse does not have.
    def unsupported(name, writer):
        writer(os.path.join(tmp, name + ".npy"))
        manifest.append(f"{name} dtype_error")

    unsupported("unicode", lambda p: np.save(p, np.array(["abc", "de"])))
    unsupported("object", lambda p: np.save(p, np.array([1, "x", None], dtype=object), allow_pickle=True))
    unsupported("datetime", lambda p: np.save(p, np.array(["2024-01-01"], dtype="datetime64[ns]")))
    unsupported("structured", lambda p: np.save(p, np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")])))
    unsupported("float128", lambda p: write_raw(p, "{'descr': '<f16', 'fortran_order': False, 'shape': (1,)}",
                                                bytes(16)))
    unsupported("bytes", lambda p: np.save(p, np.array([b"ab"])))

    with open(os.path.join(tmp, "manifest.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)


if __name__ == "__main__":
    main()
