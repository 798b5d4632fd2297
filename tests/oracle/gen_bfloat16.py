#!/usr/bin/env python3
"""bfloat16 oracle for ndfuse (tests/test_bfloat16.cpp), from NumPy 2 with ml_dtypes' bfloat16.

Usage: gen_bfloat16.py OUTDIR. Writes OUTDIR/bfloat16/manifest.tsv and the .npy files it names. Without
ml_dtypes it writes no manifest (the test then reports itself skipped) and says so.

NumPy has no bfloat16; ml_dtypes adds it, computing every ufunc in float32 and rounding the result
to bfloat16 once (to nearest even), which is ndfuse's definition too. The .npy format cannot name
bfloat16 (ml_dtypes writes anonymous 'V2' bytes), so bfloat16 arrays are stored as float32 (every
bfloat16 value is exact in float32) and the manifest says which arrays are bfloat16.

manifest.tsv, tab-separated, one case per line:
  id      <op>/<input dtypes>
  op      a NumPy function name (unary/binary ufuncs), astype:<dtype>, sum/mean/max/prod:<axis or ->,
          or matmul
  inputs  the operands' files joined by ','; each 'name.npy' or 'name.npy@bfloat16' (stored float32,
          meant as bfloat16: the test casts it, exactly)
  dtype   the result's dtype
  expect  the result's file (float32 for a bfloat16 result)
  tol     exact: bit for bit (NaN equal to NaN); ulp: within one bfloat16 unit in the last place
          (transcendental functions: float32 libm results differ by an ulp between implementations,
          which rounding to bfloat16 almost always absorbs, but not always)

Promotion where ml_dtypes defines it (bool, int8, uint8 -> bfloat16; float32 and wider win) is
checked against np.result_type; where it raises (int16 and wider ints, float16) ndfuse follows
NumPy's promote_types rule on ml_dtypes' safe casts, which gives float32 or float64; those rows use
the float32 / float64 result NumPy computes from the operands cast to it.
"""
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402

UNARY_EXACT = ["negative", "absolute", "sqrt", "square", "floor", "ceil", "trunc", "rint", "sign", "reciprocal",
               "isnan", "isinf", "isfinite"]
UNARY_ULP = ["exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh", "arctan", "cbrt", "exp2", "log2"]
BINARY_EXACT = ["add", "subtract", "multiply", "true_divide", "maximum", "minimum", "fmax", "fmin", "greater",
                "less_equal", "equal", "not_equal", "floor_divide", "remainder"]
BINARY_ULP = ["power", "arctan2", "hypot"]


def values(n, seed, positive=False):
    r = np.random.default_rng(seed)
    v = r.uniform(-6, 6, n).astype(np.float32)
    v[:8] = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-40]  # zeros, units, specials, subnormal
    v[8:12] = [3.3895314e38, -1.1754944e-38, 0.5, 255.0]  # largest bfloat16, smallest normal
    if positive:
        v = np.abs(v)
    return v


def main(outdir):
    try:
        import ml_dtypes
    except ImportError:
        print("gen_bfloat16: ml_dtypes is not installed (scripts/setup-deps installs it): no bfloat16 cases")
        return 0
    bf16 = np.dtype(ml_dtypes.bfloat16)
    w = OracleWriter(outdir, "bfloat16")

    def store(x):
        if x.dtype == bf16:
            return w.array(x.astype(np.float32)) + "@bfloat16"
        return w.array(x)

    def case(op, xs, result, tol):
        r = np.asarray(result)
        name = "bfloat16" if r.dtype == bf16 else r.dtype.name
        expect = w.array(r.astype(np.float32) if r.dtype == bf16 else r)
        cid = "%s/%s/%d" % (op, "-".join("bfloat16" if x.dtype == bf16 else x.dtype.name for x in xs), case.n)
        case.n += 1
        w.row(cid, op, ",".join(store(x) for x in xs), name, expect, tol)

    case.n = 0
    try:
        x = values(64, 1).astype(bf16)
        y = values(64, 2).astype(bf16)
        with np.errstate(all="ignore"):
            for op in UNARY_EXACT + UNARY_ULP:
                arg = np.abs(x) if op in ("sqrt", "log", "log1p", "log2") else x
                # ml_dtypes' ufunc: float32 computation rounded once to bfloat16. sign follows NumPy's
                # float loops (sign(-0.0) is 0.0; ml_dtypes' own returns -0.0).
                r = getattr(np, op)(arg) if op != "sign" else np.sign(arg.astype(np.float32)).astype(bf16)
                case(op, [arg], r, "ulp" if op in UNARY_ULP else "exact")
            for op in BINARY_EXACT + BINARY_ULP:
                b = np.abs(y) if op == "power" else y
                case(op, [x, b], getattr(np, op)(x, b), "ulp" if op in BINARY_ULP else "exact")
            # Casts both ways (bfloat16 -> t exact widening; t -> bfloat16 rounds once to nearest even).
            # To integers as NumPy's float32 casts (NaN and inf as NumPy gives them; ml_dtypes' own casts
            # differ there).
            for t in ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "float64", "complex64"]:
                r = x.astype(np.float32).astype(t) if t.startswith(("int", "uint")) else x.astype(t)
                case("astype:" + t, [x], r, "exact")
            wide = np.concatenate([values(64, 3).astype(np.float64) * 1.00390625,
                                   [1.00390625, 1.01171875, 3.0e38, 3.4e38, -2.0**-134, 2.0**-133 * 1.5]])
            for t in ["float32", "float64"]:
                src = wide.astype(t)
                # float64 -> bfloat16 in ml_dtypes goes through float32 (two roundings); the oracle
                # rounds once, exactly, from the float64 value, as ndfuse does.
                r = src.astype(bf16) if t == "float32" else round_once(src, bf16)
                case("astype:bfloat16", [src], r, "exact")
            for t in ["int8", "uint8", "int16", "int32"]:
                src = np.arange(-130, 300, 7).astype(t)
                case("astype:bfloat16", [src], np.array([round_once(np.array([float(v)]), bf16)[0] for v in src],
                                                        dtype=bf16), "exact")
            # Out-of-range and NaN floats to integers, as NumPy's casts give them on x86-64 (through int32
            # for targets up to 32 bits: INT32_MIN; through int64 for int64 and uint32), for every float
            # source (the same rule as bfloat16's).
            special = np.array([np.inf, -np.inf, np.nan, 3e9, -3e9, 5e9, 40000.5, -40000.5, 1e19, 2.5e9])
            for src_t in ("float32", "float64"):
                src = special.astype(src_t)
                for t in ("int8", "int16", "int32", "int64", "uint8", "uint16"):  # uint32: NumPy SIMD-dependent
                    case("astype:" + t, [src], src.astype(t), "exact")
            # Promotion with other dtypes, where ml_dtypes defines it (checked against result_type)
            for t in ["bool", "int8", "uint8", "float32", "float64", "complex64"]:
                other = values(64, 4).astype(t) if t != "bool" else (values(64, 4) > 0)
                assert np.result_type(x, other) in (bf16, np.dtype("float32"), np.dtype("float64"),
                                                    np.dtype("complex64"), np.dtype("complex128"))
                case("add", [x, other], np.add(x, other), "exact")
                case("multiply", [other, x], np.multiply(other, x), "exact")
            # ... and where it raises: float32 (int16, float16) or float64 (int32, int64), NumPy's
            # promote_types rule on ml_dtypes' safe casts.
            for t, via in [("int16", "float32"), ("float16", "float32"), ("int32", "float64"), ("int64", "float64")]:
                other = (values(64, 5) * 100).astype(t)
                case("add", [x, other], np.add(x.astype(via), other.astype(via)), "exact")
            # Reductions: float32 accumulation, one rounding at the end (ndfuse's pairwise order may
            # differ from NumPy's in float32, which the bfloat16 rounding absorbs up to one ulp).
            # Moderate values (and one subnormal): no partial product overflows in any order.
            v = values(48, 6)
            v[4:12] = [1.5, -2.0, 0.75, 3.0, 1.25, -0.5, 0.5, 2.0]
            m = v.reshape(6, 8).astype(bf16)
            m[0, 0] = 1e-40
            for op in ("sum", "mean", "max", "min", "prod"):
                for axis in (None, 0, 1):
                    f32 = getattr(np, op)(m.astype(np.float32), axis=axis)
                    r = np.asarray(f32).astype(bf16)
                    case("%s:%s" % (op, "-" if axis is None else axis), [m], r, "exact" if op in ("max", "min") else "ulp")
            # matmul: float32 products and sums, rounded once (tensor cores on the GPU accumulate in float32)
            a = (values(12 * 16, 7) % 3).reshape(12, 16).astype(bf16)
            b = (values(16 * 5, 8) % 3).reshape(16, 5).astype(bf16)
            a = np.where(np.isfinite(a.astype(np.float32)), a, np.zeros_like(a))
            b = np.where(np.isfinite(b.astype(np.float32)), b, np.zeros_like(b))
            case("matmul", [a, b], (a.astype(np.float32) @ b.astype(np.float32)).astype(bf16), "ulp")
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)
    return 0


def round_once(src, bf16):
    """float64 values rounded once, to nearest even, to bfloat16 (8 significant bits, float32's exponent
    range, subnormals in steps of 2**-133)."""
    out = []
    for v in np.asarray(src, dtype=np.float64):
        if not np.isfinite(v) or v == 0:
            out.append(np.float32(v))
            continue
        e = np.frexp(abs(v))[1]
        unit = max(e - 8, -133)
        r = np.ldexp(np.rint(np.ldexp(abs(v), -unit)), unit)
        r = np.inf if r >= 2.0**128 else r
        out.append(np.float32(np.copysign(r, v)))
    return np.array(out, dtype=np.float32).astype(bf16)  # exact: already a bfloat16 value


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
