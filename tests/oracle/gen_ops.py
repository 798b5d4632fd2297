#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's elementwise ops (tests/test_ops.cpp) and broadcasting (tests/test_broadcast.cpp).

Usage: gen_ops.py OUTDIR. Writes OUTDIR/ops/manifest.tsv and OUTDIR/broadcast/manifest.tsv, plus the
.npy files they name (under arrays/, deduplicated by content).

ops/manifest.tsv, one case per line, tab-separated:
  id      unique, readable: group/op/dtypes/variant
  group   unary | binary | mixed | scalar | operator | inplace | out | special
  op      the ndfuse spelling: a function name (add, exp, round, ...), an operator (op+, op==, op_neg,
          op_pos, op_inv, op_not), an in-place operator (op+=, ...), or out:<function>
  params  k=v pairs joined by ';': tol=arith|transc, zsign=1 (sign of a zero result must match),
          decimals=N, deg=0|1, out=<dtype>:<shape> (out= target, shape as 2,3 or empty for 0-d)
  args    operands joined by ' ': an array file (arrays/xxx.npy) or a weak scalar: b:0|1, i:<int64>,
          u:<uint64 above INT64_MAX>, f:<float repr>, c:<real>:<imag>
  expect  arrays/xxx.npy, or RAISES:<ndfuse exception>:<NumPy exception type>

broadcast/manifest.tsv: id, shape a, shape b, expected shape or RAISES:shape_error:ValueError, a file, b file,
expected a+b file (or '-'); shapes written as NumPy prints them: (2, 3), (3,), ().
"""
import hashlib
import os
import shutil
import sys
import warnings

import numpy as np

# NEP 50 needs NumPy 2, but early 2.x minors answer some cases here differently (2.0: floor/ceil/trunc of
# integers return floats, np.full(..., -3, dtype=uint8) wraps; 2.2: some complex special values), so the
# expectations would depend on the minor installed. 2.3 and 2.4 agree on every case.
NUMPY_MIN = (2, 3)
if tuple(int(p) for p in np.__version__.split(".")[:2]) < NUMPY_MIN:
    sys.exit("the ndfuse oracle needs NumPy >= %d.%d, found %s (run scripts/setup-deps)" % (NUMPY_MIN + (np.__version__,)))

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INTS = [d for d in DTYPES if d.startswith(("int", "uint"))]
FLOATS = ["float16", "float32", "float64"]
COMPLEXES = ["complex64", "complex128"]

inf, nan = float("inf"), float("nan")


class OracleWriter:
    """Collects cases and writes them atomically (a temp dir renamed into place) to OUTDIR/<sub>."""

    def __init__(self, outdir, sub):
        self.final = os.path.join(outdir, sub)
        self.root = self.final + ".tmp-%d" % os.getpid()
        shutil.rmtree(self.root, ignore_errors=True)
        os.makedirs(os.path.join(self.root, "arrays"))
        self.rows = []
        self.ids = set()
        self.saved = {}

    def array(self, a):
        a = np.asarray(a)
        if not a.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d array 1-d)
            a = a.copy(order="C")
        key = hashlib.sha1(a.dtype.str.encode() + repr(a.shape).encode() + a.tobytes()).hexdigest()[:16]
        if key not in self.saved:
            name = "arrays/%s_%s.npy" % (a.dtype.name, key)
            np.save(os.path.join(self.root, name), a, allow_pickle=False)
            self.saved[key] = name
        return self.saved[key]

    def row(self, case_id, *fields):
        assert case_id not in self.ids, "duplicate case id " + case_id
        self.ids.add(case_id)
        for f in (case_id,) + fields:
            assert "\t" not in f and "\n" not in f and f != "", (case_id, fields)
        self.rows.append("\t".join((case_id,) + fields))

    def finish(self):
        with open(os.path.join(self.root, "manifest.tsv"), "w") as f:
            f.write("\n".join(self.rows) + "\n")
        old = self.final + ".old-%d" % os.getpid()
        if os.path.exists(self.final):
            os.replace(self.final, old)
        os.replace(self.root, self.final)
        shutil.rmtree(old, ignore_errors=True)
        print("%s: %d cases, %d arrays" % (self.final, len(self.rows), len(self.saved)))


def raises_token(e):
    """The manifest token for a NumPy exception: what ndfuse must throw instead."""
    if isinstance(e, (TypeError, OverflowError)):  # UFuncTypeError is a TypeError
        return "RAISES:dtype_error:" + type(e).__name__
    if isinstance(e, ValueError) and ("broadcast" in str(e) or "shape" in str(e)):
        return "RAISES:shape_error:ValueError"
    raise e  # anything else means the generator asked for something NumPy leaves undefined


def scalar_token(v):
    if isinstance(v, bool):
        return "b:%d" % v
    if isinstance(v, int):
        return ("i:%d" if -2**63 <= v < 2**63 else "u:%d") % v
    if isinstance(v, float):
        return "f:" + repr(v)
    if isinstance(v, complex):
        return "c:%r:%r" % (v.real, v.imag)
    raise TypeError(v)


# --- input values per dtype --------------------------------------------------------------------------
INT_VALUES = {
    "int8": [0, 1, -1, 2, -3, 7, 100, 127, -128, -127],
    "int16": [0, 1, -1, 2, -3, 7, 1000, 32767, -32768, -32767],
    "int32": [0, 1, -1, 2, -3, 7, 100000, 2**31 - 1, -2**31, -2**31 + 1],
    "int64": [0, 1, -1, 2, -3, 7, 10**12, 2**63 - 1, -2**63, -2**63 + 1],
    "uint8": [0, 1, 2, 3, 7, 100, 128, 254, 255],
    "uint16": [0, 1, 2, 3, 7, 1000, 32768, 65534, 65535],
    "uint32": [0, 1, 2, 3, 7, 100000, 2**31, 2**32 - 2, 2**32 - 1],
    "uint64": [0, 1, 2, 3, 7, 10**12, 2**63, 2**64 - 2, 2**64 - 1],
}
BIG = {"float16": 65504.0, "float32": 3e38, "float64": 1e300}
MID = {"float16": 1000.0, "float32": 1e10, "float64": 1e10}
# Exponents and shift counts: never negative (NumPy leaves those undefined or raises).
NONNEG = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 63, 64]


def float_values(d):
    return [0.0, -0.0, 1.0, -1.0, 2.5, -3.75, 0.1, 7.0, MID[d], -BIG[d], inf, -inf, nan]


COMPLEX_FINITE = [0j, 1 + 0j, -2.5 + 1.5j, 3 - 4j, 0.1 - 0.7j, -1j, 1e10 + 1j, 2 + 0j, complex(-0.0, -0.0)]
SPECIAL_PARTS = [0.0, -0.0, 1.5, -inf, inf, nan]
COMPLEX_SPECIAL = [complex(r, i) for r in SPECIAL_PARTS for i in SPECIAL_PARTS]


def values(d):
    if d == "bool":
        return [False, True]
    if d in INT_VALUES:
        return INT_VALUES[d]
    if d in FLOATS:
        return float_values(d)
    return COMPLEX_FINITE


def unary_values(d, variant=""):
    """Inputs of unary ops: the binary value set plus values that exercise each function's domain."""
    if d == "bool":
        return [False, True, True, False]
    if d in INT_VALUES:
        return INT_VALUES[d] + [5, 10, 15, 25, 42]
    if d in FLOATS:
        extra = [0.5, -0.5, 1.5, -2.5, 0.9, -0.9, 3.5, 4.5, 10.0, -10.0, 100.0, 1e-5, -1e-5, 0.7, 2.0, 1.25]
        return float_values(d) + [BIG[d]] + extra
    if variant == "special":
        return COMPLEX_SPECIAL
    return COMPLEX_FINITE + [0.5 + 0.5j, -0.5 - 0.5j, 2j, -1 + 0j, complex(-1, -0.0), 1.5 + 0j, 1.5j,
                             -3 + 2j, 0.3 + 0.2j, 2.5 - 0.5j]


def arr(vals, d):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(vals, dtype=d)


def product_pair(va, da, vb, db):
    """Every value of va against every value of vb, as two 1-d arrays of equal length."""
    a = [x for x in va for _ in vb]
    b = [y for _ in va for y in vb]
    return arr(a, da), arr(b, db)


# --- ops -----------------------------------------------------------------------------------------------
# name -> (numpy function, tolerance class, zero sign defined for real floats)
UNARY = {
    "negative": (np.negative, "arith", True), "positive": (np.positive, "arith", True),
    "absolute": (np.absolute, "arith", True), "abs": (np.abs, "arith", True),
    "sign": (np.sign, "arith", True), "logical_not": (np.logical_not, "arith", False),
    "invert": (np.invert, "arith", False), "bitwise_not": (np.bitwise_not, "arith", False),
    "exp": (np.exp, "transc", False), "exp2": (np.exp2, "transc", False),
    "expm1": (np.expm1, "transc", False), "log": (np.log, "transc", False),
    "log2": (np.log2, "transc", False), "log10": (np.log10, "transc", False),
    "log1p": (np.log1p, "transc", False), "sqrt": (np.sqrt, "arith", True),
    "cbrt": (np.cbrt, "transc", False), "square": (np.square, "arith", True),
    "reciprocal": (np.reciprocal, "arith", True),
    "sin": (np.sin, "transc", False), "cos": (np.cos, "transc", False), "tan": (np.tan, "transc", False),
    "arcsin": (np.arcsin, "transc", False), "arccos": (np.arccos, "transc", False),
    "arctan": (np.arctan, "transc", False), "sinh": (np.sinh, "transc", False),
    "cosh": (np.cosh, "transc", False), "tanh": (np.tanh, "transc", False),
    "arcsinh": (np.arcsinh, "transc", False), "arccosh": (np.arccosh, "transc", False),
    "arctanh": (np.arctanh, "transc", False),
    "floor": (np.floor, "arith", True), "ceil": (np.ceil, "arith", True),
    "trunc": (np.trunc, "arith", True), "rint": (np.rint, "arith", True),
    "isnan": (np.isnan, "arith", False), "isinf": (np.isinf, "arith", False),
    "isfinite": (np.isfinite, "arith", False),
    "real": (np.real, "arith", True), "imag": (np.imag, "arith", True),
    "conj": (np.conj, "arith", True), "conjugate": (np.conjugate, "arith", True),
    # NumPy 2's array-API names
    "acos": (np.acos, "transc", False), "asin": (np.asin, "transc", False), "atan": (np.atan, "transc", False),
    "acosh": (np.acosh, "transc", False), "asinh": (np.asinh, "transc", False),
    "atanh": (np.atanh, "transc", False), "bitwise_invert": (np.bitwise_invert, "arith", False),
    "signbit": (np.signbit, "arith", False), "bitwise_count": (np.bitwise_count, "arith", False),
}
# Complex results of these are computed component by component, so their zero signs are defined too.
COMPLEX_ZSIGN = {"negative", "positive", "conj", "conjugate", "real", "imag", "add", "subtract", "rint"}
# Complex sqrt/square/reciprocal are not correctly rounded: transcendental tolerance.
COMPLEX_TRANSC = {"sqrt", "square", "reciprocal", "absolute", "abs", "sign", "power", "pow"}

BINARY = {
    "add": (np.add, "arith", True), "subtract": (np.subtract, "arith", True),
    "multiply": (np.multiply, "arith", True), "divide": (np.divide, "arith", True),
    "true_divide": (np.true_divide, "arith", True), "floor_divide": (np.floor_divide, "arith", True),
    "remainder": (np.remainder, "arith", True), "mod": (np.mod, "arith", True),
    "fmod": (np.fmod, "arith", True), "power": (np.power, "transc", False),
    "equal": (np.equal, "arith", False), "not_equal": (np.not_equal, "arith", False),
    "less": (np.less, "arith", False), "less_equal": (np.less_equal, "arith", False),
    "greater": (np.greater, "arith", False), "greater_equal": (np.greater_equal, "arith", False),
    "logical_and": (np.logical_and, "arith", False), "logical_or": (np.logical_or, "arith", False),
    "logical_xor": (np.logical_xor, "arith", False),
    "bitwise_and": (np.bitwise_and, "arith", False), "bitwise_or": (np.bitwise_or, "arith", False),
    "bitwise_xor": (np.bitwise_xor, "arith", False),
    "left_shift": (np.left_shift, "arith", False), "right_shift": (np.right_shift, "arith", False),
    "arctan2": (np.arctan2, "transc", False), "hypot": (np.hypot, "transc", False),
    "logaddexp": (np.logaddexp, "transc", False), "logaddexp2": (np.logaddexp2, "transc", False),
    # NumPy leaves the sign of maximum(0., -0.) to the implementation: no zero-sign check.
    "maximum": (np.maximum, "arith", False), "minimum": (np.minimum, "arith", False),
    "fmax": (np.fmax, "arith", False), "fmin": (np.fmin, "arith", False),
    "atan2": (np.atan2, "transc", False), "pow": (np.pow, "transc", False),
    "bitwise_left_shift": (np.bitwise_left_shift, "arith", False),
    "bitwise_right_shift": (np.bitwise_right_shift, "arith", False),
    "copysign": (np.copysign, "arith", True), "nextafter": (np.nextafter, "arith", True),
    "gcd": (np.gcd, "arith", False), "lcm": (np.lcm, "arith", False),
}
NONNEG_RHS = {"power", "left_shift", "right_shift", "pow", "bitwise_left_shift", "bitwise_right_shift"}

BINARY_OPERATORS = {"op+": "add", "op-": "subtract", "op*": "multiply", "op/": "true_divide",
                    "op%": "remainder", "op&": "bitwise_and", "op|": "bitwise_or", "op^": "bitwise_xor",
                    "op<<": "left_shift", "op>>": "right_shift", "op==": "equal", "op!=": "not_equal",
                    "op<": "less", "op<=": "less_equal", "op>": "greater", "op>=": "greater_equal"}
UNARY_OPERATORS = {"op_neg": "negative", "op_pos": "positive", "op_inv": "invert", "op_not": "logical_not"}
INPLACE = {"op+=": "add", "op-=": "subtract", "op*=": "multiply", "op/=": "true_divide", "op%=": "remainder",
           "op&=": "bitwise_and", "op|=": "bitwise_or", "op^=": "bitwise_xor", "op<<=": "left_shift",
           "op>>=": "right_shift"}


NUMPY_2_5 = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 5)


def params(tol, zsign, result_dtype, op, **extra):
    """The params field; zsign only where NumPy defines the sign of a zero result."""
    if op == "nextafter" and result_dtype == np.float16 and not NUMPY_2_5:
        zsign = False  # float16 nextafter(0, -0) was 0 before NumPy 2.5, -0 (C's answer) since
    if result_dtype is not None and result_dtype.kind == "c":
        zsign = zsign and op in COMPLEX_ZSIGN
        if op in COMPLEX_TRANSC:
            tol = "transc"
    p = ["tol=" + tol]
    if zsign:
        p.append("zsign=1")
    p += ["%s=%s" % kv for kv in extra.items()]
    return ";".join(p)


def power_condition(operands, shape):
    """a**b = exp(b*log(a)) amplifies rounding by |b*log(a)|: NumPy's own complex result (glibc's
    cpow) carries that much more error. Per element, never below 1."""
    with np.errstate(all="ignore"):
        a, b = (np.asarray(o, dtype=np.complex128) for o in operands)
        k = np.abs(b * np.log(a))
    k = np.where(np.isfinite(k), np.maximum(k, 1.0), 1.0)
    return np.ascontiguousarray(np.broadcast_to(k, shape), dtype=np.float64)


def evaluate(fn):
    """(expected token, result dtype or None)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = np.asarray(fn())
        return r, r.dtype
    except Exception as e:  # noqa: BLE001 - the exception type is the oracle's answer
        return raises_token(e), None


def pyscalar(token):
    kind, _, rest = token.partition(":")
    if kind == "b":
        return bool(int(rest))
    if kind in ("i", "u"):
        return int(rest)
    if kind == "f":
        return float(rest)
    re, im = rest.split(":")
    return complex(float(re), float(im))


class Cases:
    def __init__(self, w):
        self.w = w

    def operand(self, x):
        return x if isinstance(x, str) else self.w.array(x)

    def add(self, case_id, group, op, fn, tol, zsign, operands, **extra):
        """operands: arrays or scalar tokens ('i:3'); fn is called with arrays / Python scalars."""
        py = [pyscalar(o) if isinstance(o, str) else o for o in operands]
        result, dt = evaluate(lambda: fn(*py))
        expect = result if isinstance(result, str) else self.w.array(result)
        if op.split(":")[-1] in ("power", "pow") and dt is not None and dt.kind == "c" and not isinstance(result, str):
            extra["cond"] = self.w.array(power_condition(py, np.shape(result)))
        p = params(tol, zsign, dt, op.split(":")[-1], **extra)
        self.w.row(case_id, group, op, p, " ".join(self.operand(o) for o in operands), expect)


def gen_unary(c):
    shaped_dtypes = ["bool", "int8", "uint64", "float16", "float32", "float64", "complex64", "complex128"]
    for name, (fn, tol, zs) in UNARY.items():
        for d in DTYPES:
            vals = unary_values(d)
            if name == "reciprocal" and d not in FLOATS + COMPLEXES:
                vals = [v for v in vals if v != 0] or [True]  # integer 1/0 is undefined in NumPy
            c.add("unary/%s/%s" % (name, d), "unary", name, fn, tol, zs, [arr(vals, d)])
            if d in COMPLEXES:
                c.add("unary/%s/%s/special" % (name, d), "unary", name, fn, tol, zs,
                      [arr(unary_values(d, "special"), d)])
            if d in shaped_dtypes:
                one = [v for v in vals if v not in (0, False)][:1] or vals[:1]
                c.add("unary/%s/%s/0d" % (name, d), "unary", name, fn, tol, zs, [arr(one[0], d)])
                c.add("unary/%s/%s/empty" % (name, d), "unary", name, fn, tol, zs, [np.zeros((2, 0), d)])
                c.add("unary/%s/%s/2d" % (name, d), "unary", name, fn, tol, zs,
                      [arr((vals * 12)[:12], d).reshape(3, 4)])
    for name, npname in UNARY_OPERATORS.items():
        fn, tol, zs = UNARY[npname]
        for d in DTYPES:
            c.add("operator/%s/%s" % (name, d), "operator", name, fn, tol, zs, [arr(unary_values(d), d)])


def binary_inputs(name, da, db, variant=""):
    va, vb = values(da), values(db)
    if variant == "special":
        va, vb = COMPLEX_SPECIAL, COMPLEX_SPECIAL
    if name in NONNEG_RHS and db not in FLOATS + COMPLEXES:
        vb = [v for v in NONNEG if v <= np.iinfo(db).max] if db != "bool" else [False, True]
    return product_pair(va, da, vb, db)


def gen_binary(c):
    for name, (fn, tol, zs) in BINARY.items():
        for d in DTYPES:
            a, b = binary_inputs(name, d, d)
            c.add("binary/%s/%s" % (name, d), "binary", name, fn, tol, zs, [a, b])
            if d in COMPLEXES:
                a, b = binary_inputs(name, d, d, "special")
                c.add("binary/%s/%s/special" % (name, d), "binary", name, fn, tol, zs, [a, b])
        for d in ["bool", "int32", "uint8", "float16", "float64", "complex128"]:
            a, b = binary_inputs(name, d, d)
            x, y = a[1:2].reshape(()), b[3:4].reshape(())
            c.add("binary/%s/%s/0d-0d" % (name, d), "binary", name, fn, tol, zs, [x, y])
            c.add("binary/%s/%s/0d-1d" % (name, d), "binary", name, fn, tol, zs, [x, b[:7]])
            c.add("binary/%s/%s/empty" % (name, d), "binary", name, fn, tol, zs,
                  [np.zeros((0,), d), np.zeros((3, 0), d)])
            c.add("binary/%s/%s/bcast" % (name, d), "binary", name, fn, tol, zs,
                  [np.resize(a, 12).reshape(3, 1, 4), np.resize(b[3:], 2).reshape(2, 1)])
    for name, npname in BINARY_OPERATORS.items():
        fn, tol, zs = BINARY[npname]
        for d in DTYPES:
            a, b = binary_inputs(npname, d, d)
            c.add("operator/%s/%s" % (name, d), "operator", name, fn, tol, zs, [a, b])


MIXED_PAIRS = [("bool", "int8"), ("int8", "bool"), ("int8", "uint8"), ("uint8", "int8"), ("int16", "uint16"),
               ("int32", "uint32"), ("int64", "uint64"), ("uint64", "int64"), ("uint8", "int64"),
               ("uint8", "uint32"), ("int8", "float16"), ("int16", "float16"), ("uint16", "float32"),
               ("int32", "float32"), ("int64", "float32"), ("float16", "float32"), ("float32", "float64"),
               ("float64", "float16"), ("float16", "complex64"), ("float64", "complex64"), ("int32", "complex64"),
               ("complex64", "complex128"), ("bool", "float32"), ("uint64", "float64"), ("complex128", "int8")]


def gen_mixed(c):
    for name, (fn, tol, zs) in BINARY.items():
        for da, db in MIXED_PAIRS:
            a, b = binary_inputs(name, da, db)
            c.add("mixed/%s/%s-%s" % (name, da, db), "mixed", name, fn, tol, zs, [a, b])
    for name, npname in BINARY_OPERATORS.items():
        fn, tol, zs = BINARY[npname]
        for da, db in [("int8", "uint8"), ("int32", "float32"), ("float32", "float64"), ("int64", "uint64")]:
            a, b = binary_inputs(npname, da, db)
            c.add("operator/%s/%s-%s" % (name, da, db), "operator", name, fn, tol, zs, [a, b])


RIGHT_SCALARS = ["b:1", "i:3", "i:-2", "f:2.5", "c:1.5:-2.0"]
LEFT_SCALARS = ["b:0", "i:7", "f:-1.5", "c:0.5:1.0"]


def scalar_array(name, d, scalar_on_left):
    vals = unary_values(d)
    if scalar_on_left and name in NONNEG_RHS and d not in FLOATS + COMPLEXES:
        vals = [v for v in NONNEG if d == "bool" or v <= np.iinfo(d).max] if d != "bool" else [False, True]
    return arr(vals, d)


def skip_scalar(name, d, s):
    # Negative integer exponents and shift counts are undefined (or a ValueError) for integer arrays.
    return s == "i:-2" and name in NONNEG_RHS and d not in FLOATS + COMPLEXES


def gen_scalar(c):
    for name, (fn, tol, zs) in BINARY.items():
        for d in DTYPES:
            for s in RIGHT_SCALARS:
                if not skip_scalar(name, d, s):
                    c.add("scalar/%s/%s/%s" % (name, d, s), "scalar", name, fn, tol, zs,
                          [scalar_array(name, d, False), s])
            for s in LEFT_SCALARS:
                c.add("scalar/%s/%s/%s" % (name, s, d), "scalar", name, fn, tol, zs,
                      [s, scalar_array(name, d, True)])
    # Python ints out of the array dtype's range: OverflowError (dtype_error), except comparisons,
    # which NumPy 2 answers exactly.
    for d in INTS:
        info = np.iinfo(d)
        for v in [int(info.max) + 1, int(info.min) - 1]:
            if not -2**63 <= v < 2**64:
                continue
            for name in ["add", "multiply", "maximum", "equal", "less", "greater_equal"]:
                fn, tol, zs = BINARY[name]
                c.add("scalar/%s/%s/overflow%d" % (name, d, v), "scalar", name, fn, tol, zs,
                      [arr(INT_VALUES[d], d), scalar_token(v)])
    for d in FLOATS + COMPLEXES:
        for s in ["f:inf", "f:-inf", "f:nan", "f:-0.0", "f:1e+300", "i:100000"]:
            for name in ["add", "multiply", "true_divide", "maximum", "fmin", "less"]:
                fn, tol, zs = BINARY[name]
                c.add("scalar/%s/%s/%s" % (name, d, s), "scalar", name, fn, tol, zs, [arr(unary_values(d), d), s])
    for name, npname in BINARY_OPERATORS.items():
        fn, tol, zs = BINARY[npname]
        for d in DTYPES:
            for s in ["b:1", "i:3", "f:2.5", "c:1.5:-2.0", "u:9223372036854775808"]:
                c.add("operator/%s/%s/%s" % (name, d, s), "operator", name, fn, tol, zs,
                      [scalar_array(npname, d, False), s])
            for s in ["i:5", "f:-0.5"]:
                c.add("operator/%s/%s/%s" % (name, s, d), "operator", name, fn, tol, zs,
                      [s, scalar_array(npname, d, True)])


def inplace_fn(npname):
    def run(x, y):
        x = np.array(x, copy=True)
        getattr(np, npname)(x, y, out=x, casting="same_kind")
        return x
    return run


def gen_inplace(c):
    for name, npname in INPLACE.items():
        _, tol, zs = BINARY[npname]
        fn = inplace_fn(npname)
        for d in DTYPES:
            a, b = binary_inputs(npname, d, d)
            c.add("inplace/%s/%s" % (name, d), "inplace", name, fn, tol, zs, [a, b])
            for s in ["b:1", "i:3", "f:2.5", "c:1.5:-2.0"]:
                c.add("inplace/%s/%s/%s" % (name, d, s), "inplace", name, fn, tol, zs,
                      [scalar_array(npname, d, False), s])
        for da, db in [("float32", "float64"), ("int32", "float64"), ("int8", "int64"), ("uint8", "int8"),
                       ("float16", "int64"), ("int64", "uint64"), ("float64", "complex128"),
                       ("complex64", "float64"), ("bool", "int8"), ("int16", "bool"), ("uint32", "uint64")]:
            a, b = binary_inputs(npname, da, db)
            c.add("inplace/%s/%s-%s" % (name, da, db), "inplace", name, fn, tol, zs, [a, b])
        a, b = binary_inputs(npname, "float64", "float64")
        c.add("inplace/%s/bcast-ok" % name, "inplace", name, fn, tol, zs, [a[:6].reshape(2, 3), b[:3]])
        c.add("inplace/%s/bcast-grow" % name, "inplace", name, fn, tol, zs, [a[:3], b[:6].reshape(2, 3)])
    # A weak Python int out of range, and a float that overflows float32 (inf, not an error).
    fn = inplace_fn("add")
    c.add("inplace/op+=/int8/overflow", "inplace", "op+=", fn, "arith", True, [arr([1, 2], "int8"), "i:300"])
    c.add("inplace/op+=/uint16/negative", "inplace", "op+=", fn, "arith", True, [arr([1, 2], "uint16"), "i:-1"])
    c.add("inplace/op*=/float32/huge", "inplace", "op*=", inplace_fn("multiply"), "arith", True,
          [arr([1, -2, 0], "float32"), "f:1e+300"])


def computed_in(fn, *args):
    """{'prec': dtype} when fn's own result is inexact: an out= target of a wider dtype keeps its error."""
    result, dt = evaluate(lambda: fn(*args))
    return {"prec": dt.name} if dt is not None and dt.kind in "fc" else {}


def out_fn(fn, out_dtype, out_shape, nargs, takes_out=None):
    def run(*args):
        y = np.zeros(out_shape, out_dtype)
        if takes_out or isinstance(fn, np.ufunc):
            fn(*args[:nargs], out=y)
        else:  # np.real is no ufunc: assign with the same_kind rule, as out= does
            np.copyto(y, fn(*args[:nargs]), casting="same_kind")
        return y
    return run


def gen_out(c):
    out_dtypes = ["bool", "int8", "int32", "uint8", "float16", "float32", "float64", "complex128"]
    for name in ["exp", "sqrt", "negative", "absolute", "floor", "sin", "isnan", "real", "invert", "log1p"]:
        fn, tol, zs = UNARY[name]
        for d in ["bool", "int8", "int32", "float32", "float64", "complex64"]:
            x = arr(unary_values(d), d)
            for od in out_dtypes:
                c.add("out/%s/%s/%s" % (name, d, od), "out", "out:" + name, out_fn(fn, od, x.shape, 1), tol, zs,
                      [x], out="%s:%d" % (od, x.size), **computed_in(fn, x))
    for name in ["add", "multiply", "true_divide", "maximum", "less", "power", "left_shift", "arctan2"]:
        fn, tol, zs = BINARY[name]
        for d in ["int8", "int32", "uint16", "float32", "float64", "complex128"]:
            a, b = binary_inputs(name, d, d)
            for od in out_dtypes:
                c.add("out/%s/%s/%s" % (name, d, od), "out", "out:" + name, out_fn(fn, od, a.shape, 2), tol, zs,
                      [a, b], out="%s:%d" % (od, a.size), **computed_in(fn, a, b))
            a, b = a[:3], b[:3]
            c.add("out/%s/%s/bcast-out" % (name, d), "out", "out:" + name, out_fn(fn, d, (2, 3), 2), tol, zs,
                  [a, b], out="%s:2,3" % d)
            c.add("out/%s/%s/bad-shape" % (name, d), "out", "out:" + name, out_fn(fn, d, (2,), 2), tol, zs,
                  [a, b], out="%s:2" % d)
    x = arr(unary_values("float64"), "float64")
    for od in ["float64", "float32", "int32"]:
        c.add("out/round/float64/%s" % od, "out", "out:round",
              out_fn(lambda x, out: np.round(x, 1, out=out), od, x.shape, 1, True), "arith", True, [x],
              out="%s:%d" % (od, x.size), decimals=1)
        c.add("out/clip/float64/%s" % od, "out", "out:clip", out_fn(np.clip, od, x.shape, 3, True), "arith",
              False, [x, "f:-2.0", "i:3"], out="%s:%d" % (od, x.size))


def gen_special(c):
    round_int_values = {d: [0, 1, 5, 14, 15, 16, 25, 35, 45, 55, 94, 95, 104, 115, 124]
                        + ([] if d.startswith("u") else [-1, -5, -15, -25, -35, -95, -124]) for d in INTS}
    for d in DTYPES:
        x = arr(round_int_values[d], d) if d in INTS else arr(unary_values(d), d)
        for decimals in [0, 1, 2, 3, -1, -2]:
            for name in ["round", "around"] if decimals in (0, -1) else ["round"]:
                c.add("special/%s/%s/%d" % (name, d, decimals), "special", name,
                      lambda x, dec=decimals: np.round(x, dec), "arith", True, [x], decimals=decimals)
        x = arr(unary_values(d), d)
        for deg in [0, 1]:
            c.add("special/angle/%s/deg%d" % (d, deg), "special", "angle",
                  lambda x, deg=deg: np.angle(x, deg=bool(deg)), "transc", False, [x], deg=deg)
        if d in COMPLEXES:
            c.add("special/angle/%s/special" % d, "special", "angle", np.angle, "transc", False,
                  [arr(COMPLEX_SPECIAL, d)], deg=0)
        # clip: lo > hi in some elements (NumPy returns hi there), NaN bounds, scalar bounds.
        a, lo = product_pair(values(d), d, values(d), d)
        hi = np.roll(lo, 5)
        c.add("special/clip/%s/arrays" % d, "special", "clip", np.clip, "arith", False, [a, lo, hi])
        for lo_s, hi_s in [("i:1", "i:100"), ("f:-2.5", "f:3.0"), ("b:0", "b:1"), ("i:-1", "f:2.5")]:
            c.add("special/clip/%s/%s,%s" % (d, lo_s, hi_s), "special", "clip", np.clip, "arith", False,
                  [x, lo_s, hi_s])
        # where: same-dtype arrays, weak scalars on either side, broadcasting.
        cond = np.array([i % 3 != 1 for i in range(a.size)])
        c.add("special/where/%s/arrays" % d, "special", "where", np.where, "arith", True, [cond, a, lo])
        c.add("special/where/%s/scalar-b" % d, "special", "where", np.where, "arith", True,
              [cond[:x.size], x, "i:1"])
        c.add("special/where/%s/scalar-a" % d, "special", "where", np.where, "arith", True,
              [cond[:x.size], "f:-0.5", x])
        c.add("special/where/%s/bcast" % d, "special", "where", np.where, "arith", True,
              [cond[:3].reshape(3, 1), a[:4].reshape(1, 4), lo[:4]])
        c.add("special/where/%s/cond" % d, "special", "where", np.where, "arith", True,
              [arr(values(d)[:6], d), arr([1, 2, 3, 4, 5, 6], "int16"), arr([-1.0] * 6, "float32")])
    c.add("special/clip/int8/out-of-range-bounds", "special", "clip", np.clip, "arith", False,
          [arr(INT_VALUES["int8"], "int8"), "i:-1000", "i:1000"])
    c.add("special/where/scalars", "special", "where", np.where, "arith", True,
          [np.array([True, False, True]), "i:1", "f:2.5"])
    c.add("special/where/scalars-int", "special", "where", np.where, "arith", True,
          [np.array([True, False, True]), "i:1", "i:-2"])
    c.add("special/where/bad-shape", "special", "where", np.where, "arith", True,
          [np.array([True, False, True]), np.zeros(2), np.zeros(3)])


BROADCAST_VALID = [((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 1), (1, 3)), ((3,), ()), ((), ()), ((), (2, 0)),
                   ((0,), (1,)), ((0,), (0,)), ((2, 0), (1, 0)), ((4, 1, 3), (2, 1)), ((1,), (5, 4)),
                   ((2, 3, 4), (2, 3, 4)), ((1, 1, 1), (3,)), ((5, 1, 4, 1), (3, 1, 2)), ((0, 1), (1, 7)),
                   ((1, 2, 1, 3), (4, 1, 5, 1)), ((6,), (6, 1))]
BROADCAST_INVALID = [((2, 3), (2,)), ((3,), (4,)), ((2, 3), (3, 2)), ((0,), (2,)), ((2, 0), (3,)),
                     ((4, 1, 3), (2, 2)), ((1, 2, 3), (2, 3, 3))]


def gen_broadcast(outdir):
    w = OracleWriter(outdir, "broadcast")
    for i, (sa, sb) in enumerate(BROADCAST_VALID + BROADCAST_INVALID):
        a = (np.arange(int(np.prod(sa))) * 1.5 - 2).reshape(sa)
        b = (np.arange(int(np.prod(sb)), dtype=np.int32) * 3 - 5).reshape(sb)
        try:
            shape = str(np.broadcast_shapes(sa, sb))
            expect = w.array(a + b)
        except ValueError as e:
            shape, expect = raises_token(e), "-"
        w.row("broadcast/%d/%s+%s" % (i, sa, sb), str(sa), str(sb), shape, w.array(a), w.array(b), expect)
    w.finish()


def main():
    outdir = sys.argv[1]
    w = OracleWriter(outdir, "ops")
    try:
        c = Cases(w)
        for gen in (gen_unary, gen_binary, gen_mixed, gen_scalar, gen_inplace, gen_out, gen_special):
            gen(c)
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)
    gen_broadcast(outdir)


if __name__ == "__main__":
    main()
