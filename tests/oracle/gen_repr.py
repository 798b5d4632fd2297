#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's array printing (tests/test_repr.cpp).

Usage: gen_repr.py OUTDIR. Writes OUTDIR/repr/manifest.txt, one case name per line, and for each case
OUTDIR/repr/<name>.npy (the input array) and OUTDIR/repr/<name>.txt (exactly repr(array), no newline).
OUTDIR/repr/lazy_input.npy and OUTDIR/repr/lazy_times_two.txt: an input and repr(input * 2.0), which the
test prints from an unevaluated ndfuse expression.
OUTDIR/repr/<name>.str.txt: str(array); <name>.opt.txt: repr(array) under OPTIONS; <name>.a2s.txt:
np.array2string(array, max_line_width=50, precision=4, suppress_small=True, separator="; ",
prefix="value = ").
OUTDIR/repr/shapes.txt holds shapes as Python prints them, one a line: "<sizes, space-separated>|<repr>".

The test loads each .npy with nf::load, prints it with nf::repr and compares the strings exactly.
NumPy before 2.3 chose scientific notation and the shape= suffix by older rules; with such a NumPy
this writes OUTDIR/repr/SKIP holding the reason, and the test reports a skip.
"""
import os
import shutil
import sys

import numpy as np

inf, nan = float("inf"), float("nan")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def cases():
    rng = np.random.default_rng(20240611)
    c = {}

    # One small vector, one 0-d value and one empty vector per dtype.
    vectors = {
        "bool": [True, False, True],
        "int8": [-128, 0, 5, 127],
        "int16": [-32768, 7, 32767],
        "int32": [1, 2, 3],
        "int64": [1, -20, 300],
        "uint8": [0, 17, 255],
        "uint16": [0, 65535],
        "uint32": [4294967295, 1],
        "uint64": [0, 18446744073709551615],
        "float16": [0.1, 1.5, -2.0, 0.333],
        "float32": [0.1, 1.0 / 3.0, 2.5],
        "float64": [1.0, 2.0, 3.0],
        "complex64": [1 + 2j, -0.5j, 3.25],
        "complex128": [1 + 2j, 0 - 1j],
    }
    for d in DTYPES:
        c[f"vec_{d}"] = np.array(vectors[d], dtype=d)
        c[f"scalar_{d}"] = np.array(vectors[d][-1], dtype=d)
        c[f"empty_{d}"] = np.zeros((0,), dtype=d)
    c["empty_2d"] = np.zeros((0, 3))
    c["empty_3d_int32"] = np.zeros((2, 0, 4), dtype=np.int32)
    c["empty_bool_2d"] = np.zeros((2, 0), dtype=bool)
    c["scalar_negzero"] = np.array(-0.0)
    c["scalar_nan"] = np.array(nan)
    c["scalar_pi"] = np.array(np.pi)
    c["scalar_big"] = np.array(1.5e300)
    c["scalar_false"] = np.array(False)
    c["scalar_complex_nan"] = np.array(complex(nan, -inf))

    # Layout: nested brackets, blank lines between 3-D blocks, size-1 axes.
    c["int_2d"] = np.arange(12).reshape(3, 4)
    c["int_3d"] = np.arange(24).reshape(2, 3, 4) - 10
    c["float_2d"] = np.arange(6.0).reshape(2, 3) / 4
    c["float_3d"] = np.linspace(-1, 1, 24).reshape(2, 3, 4)
    c["float_4d"] = np.arange(16.0).reshape(2, 2, 2, 2) - 7.5
    c["bool_2d"] = np.array([[True, False], [False, True]])
    c["ones_111"] = np.ones((1, 1, 1), dtype=np.float32)
    c["col_31"] = np.array([[1], [22], [333]], dtype=np.int16)
    c["row_15"] = np.arange(5, dtype=np.uint8).reshape(1, 5)
    c["complex_2d"] = (np.arange(6) - 2.5 + 1j * np.arange(6)[::-1]).reshape(3, 2)

    # Float formatting: negatives, integral values, -0.0, nan/inf, precision cut at 8 digits.
    c["negatives"] = np.array([-1.5, 2.25, -3.0])
    c["integral"] = np.array([1.0, 2.0, 100.0])
    c["negzero"] = np.array([-0.0, 0.0, 1.0])
    c["negzero_only"] = np.array([-0.0])
    c["nan_inf"] = np.array([nan, -inf, 1.5, inf])
    c["nan_inf_only"] = np.array([nan, inf])
    c["all_nan"] = np.array([nan, nan], dtype=np.float32)
    c["neg_inf_int_like"] = np.array([-inf, 2.0, 3.0])
    c["pi_e"] = np.array([np.pi, np.e, 1.0])
    c["long_digits"] = np.array([0.123456789012, 1.0])
    c["small_positional"] = np.array([0.0001, 0.5])
    c["float32_third"] = np.array([1.0 / 3.0, 2.0 / 3.0], dtype=np.float32)
    c["float16_mix"] = np.array([0.1, 100.0], dtype=np.float16)  # the float16 ratio rounds to 1000
    c["float32_1e-4"] = np.array([1e-4, 0.05], dtype=np.float32)  # float32(1e-4) is not < 1e-4 in float32

    # Scientific notation: tiny, huge, wide ratio, 3-digit exponents, subnormals, dtype cutoffs.
    c["sci_small"] = np.array([1e-5, 1.0, 2.0])
    c["sci_ratio"] = np.array([1.0, 1234.5])
    c["sci_big"] = np.array([1e8, 1.0])
    c["sci_huge"] = np.array([1e16, -2.5e20])
    c["sci_3digit_exp"] = np.array([1e-300, 1e300, nan])
    c["sci_subnormal"] = np.array([5e-324, 1.0])
    c["sci_with_zero"] = np.array([0.0, 1e-7, -3.0])
    c["sci_float32"] = np.array([1e6, 1.5], dtype=np.float32)
    c["sci_float32_digits"] = np.array([0.1, 1.2345678e-5, 3.0], dtype=np.float32)
    c["sci_float16"] = np.array([1000.0, 0.5], dtype=np.float16)
    c["sci_float16_max"] = np.array([65504.0, -6.1e-5, 6e-8], dtype=np.float16)
    c["sci_neg_inf"] = np.array([-inf, 1e-10, 1e10])

    # Complex: signs of zero parts, nan/inf parts, mixed magnitudes, float32 precision.
    c["complex_basic"] = np.array([1 + 2j, 0 - 1j, -1.5 + 0.25j])
    c["complex_negzero"] = np.array([complex(-0.0, -0.0), complex(0.0, 0.0)])
    c["complex_nan_inf"] = np.array([complex(nan, 1), complex(1, inf), complex(-inf, nan)])
    c["complex_sci"] = np.array([1e-8 + 1j, 1e8 - 2j])
    c["complex64_third"] = np.array([1 / 3 + 2j / 3, 1j], dtype=np.complex64)

    # Summarization: more than 1000 elements prints corners and ..., plus shape=.
    c["summary_float"] = np.arange(2000.0)
    c["summary_int"] = np.arange(2000)
    c["summary_int16"] = np.arange(2000, dtype=np.int16)
    c["summary_2d"] = np.arange(50 * 50, dtype=np.float64).reshape(50, 50) / 7
    c["summary_3d"] = np.arange(10 * 10 * 20).reshape(10, 10, 20)
    c["summary_bool"] = np.arange(1500) % 3 == 0
    c["summary_complex"] = np.arange(1200) * (1 + 1j)

    # Wrapping at 75 columns.
    c["wrap_linspace"] = np.linspace(0, 1, 30)
    c["wrap_ints"] = np.arange(100) * 12345
    c["wrap_2d"] = np.arange(90.0).reshape(3, 30) * 1.25
    c["wrap_complex"] = np.arange(20) * (0.5 - 1.25j)
    c["wrap_bool"] = np.arange(40) % 2 == 0
    c["wrap_uint64"] = np.array([2**64 - 1] * 5, dtype=np.uint64)
    c["wrap_dtype_suffix"] = np.arange(21, dtype=np.int32) * 1000  # dtype= moves to its own line

    # Random values over many magnitudes, per float dtype.
    for d in ["float16", "float32", "float64", "complex64", "complex128"]:
        for scale in [1e-6, 1e-3, 1.0, 1e3, 1e7, 1e20]:
            if d == "float16" and scale in (1e-6, 1e7, 1e20):
                continue
            shape = (2, 5) if d.startswith("complex") else (11,)
            x = rng.standard_normal(shape) * scale
            if d.startswith("complex"):
                x = x + 1j * rng.standard_normal(shape) * scale
            c[f"random_{d}_{scale:g}"] = x.astype(d)
    for d in ["int8", "int32", "uint16", "int64"]:
        info = np.iinfo(d)
        c[f"random_{d}"] = rng.integers(info.min, info.max, size=(3, 7), dtype=d, endpoint=True)
    return c


# The print options of the .opt.txt strings (tests/test_repr.cpp sets the same through nf::printoptions).
OPTIONS = dict(precision=3, suppress=True, threshold=20, edgeitems=2, linewidth=60)


def main():
    out = os.path.join(sys.argv[1], "repr")
    tmp = out + ".tmp-%d" % os.getpid()
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    version = tuple(int(p) for p in np.__version__.split(".")[:2])
    if version < (2, 3):
        with open(os.path.join(tmp, "SKIP"), "w") as f:
            f.write(f"NumPy {np.__version__} prints by pre-2.3 rules; the repr oracle needs NumPy >= 2.3")
    else:
        np.set_printoptions(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False,
                            nanstr="nan", infstr="inf", sign="-", floatmode="maxprec", legacy=False)
        names = []
        for name, a in cases().items():
            np.save(os.path.join(tmp, name + ".npy"), a, allow_pickle=False)
            with open(os.path.join(tmp, name + ".txt"), "w") as f:
                f.write(repr(a))
            with open(os.path.join(tmp, name + ".str.txt"), "w") as f:
                f.write(str(a))
            # Under other print options, repr and array2string with another separator and a prefix.
            with np.printoptions(**OPTIONS):
                with open(os.path.join(tmp, name + ".opt.txt"), "w") as f:
                    f.write(repr(a))
            with open(os.path.join(tmp, name + ".a2s.txt"), "w") as f:
                f.write(np.array2string(a, max_line_width=50, precision=4, suppress_small=True, separator="; ",
                                        prefix="value = "))
            names.append(name)
        with open(os.path.join(tmp, "manifest.txt"), "w") as f:
            f.write("\n".join(names) + "\n")
        lazy = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
        np.save(os.path.join(tmp, "lazy_input.npy"), lazy)
        with open(os.path.join(tmp, "lazy_times_two.txt"), "w") as f:
            f.write(repr(lazy * 2.0))
    with open(os.path.join(tmp, "shapes.txt"), "w") as f:
        for shape in [(), (0,), (3,), (2, 3), (0, 5, 1), (7, 1, 2, 9), (2**40, 3)]:
            f.write(" ".join(str(s) for s in shape) + "|" + repr(np.empty(shape, dtype=np.uint8).shape if np.prod(shape) < 10**6 else shape) + "\n")
    shutil.rmtree(out, ignore_errors=True)
    os.rename(tmp, out)


if __name__ == "__main__":
    main()
