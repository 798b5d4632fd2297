#!/usr/bin/env python3
"""NumPy 2 oracle for ndfuse's reductions, scans and norms (tests/test_reduce.cpp).

Usage: gen_reduce.py OUTDIR. Writes OUTDIR/reduce/manifest.tsv plus the .npy files it names (under
arrays/, deduplicated by content), atomically (a temp dir renamed into place).

reduce/manifest.tsv, one case per line, tab-separated, 6 fields:
  id      unique, readable: group/func/dtype/shape/variant, e.g. grid/sum/int8/2x3x4/ax0,2/kd
  group   grid | axis | empty | nan | overflow | dtype | badaxis | out | average | scan | norm |
          accuracy | bigsum (one TEST_CASE each)
  func    the ndfuse spelling: sum, prod, mean, var, std, min, max, amin, amax, argmin, argmax, any,
          all, count_nonzero, ptp, average, nansum, nanprod, nanmean, nanvar, nanstd, nanmin, nanmax,
          nanargmin, nanargmax, cumsum, cumprod, norm (nf::linalg::norm)
  params  k=v pairs joined by ';', or '-' for none (then the function is called with the input only,
          every argument defaulted):
            axis=none            nf::none
            axis=1 / axis=-1     one axis (an int)
            axis=0,2 / axis=0,   several axes (a list; "0," a list of one)
            axis=()              the empty list: nothing reduced
            keepdims=0|1         given whenever axis is (the call is positional)
            dtype=<name>         dtype= (sum, prod, mean, var, std, nan forms, cumsum, cumprod)
            ddof=<float>         var, std, nanvar, nanstd
            weights=arrays/x.npy average's weights
            ord=None|fro|inf|-inf|<float>   norm's ord (None: the default-constructed norm_order)
            out=<dtype>          the out= form, into nf::zeros(<expected shape>, <dtype>)
            rtol=<float>;scale=arrays/s.npy   inexact result: element i passes when
                                 |got - expected| <= rtol * (|expected| + scale[i]) (complex: the
                                 modulus), with NaN and inf compared exactly (per part for complex).
                                 Without rtol the comparison is exact (ints, bools, indices, min/max).
          bigsum only: n=<elements>;ref=<float64 sum>;numpy_sum=<NumPy's float32 sum>;
            numpy_err=<its relative error>;values=arrays/x.npy (the first 1000 inputs, float32)
  input   arrays/xxx.npy (bigsum: '-', the test builds its input from nf::arange)
  expect  arrays/xxx.npy, or RAISES:<ndfuse exception>:<NumPy exception type> (bigsum: '-')

Tolerances (see rtol_for): rtol 1e-2 for float16 results (NumPy accumulates halves in float32 along a
contiguous axis and rounds to half at every step elsewhere; ndfuse may use float32 throughout), 1e-5 for
float32/complex64, 1e-12 for float64/complex128; the lowest of the result's and the out= target's.
scale = sqrt(n) * (the same reduction of |x| in float64), n the number of elements reduced into one
output: a sum's error is relative to the sum of magnitudes, not to the result, since cancellation
makes the result small. For var/std the scale is the float64 variance/std itself, which a two-pass
algorithm meets and the one-pass E[x^2] - E[x]^2 does not (see the accuracy group).

Known difference encoded here, not computed by NumPy: nanargmin/nanargmax of an all-NaN slice give -1
in ndfuse (NumPy raises ValueError "All-NaN slice encountered"); see nanarg().
NumPy quirks deliberately left out: axis=0 on a 0-d input (NumPy accepts it), var with a complex
dtype= (NumPy returns a complex variance), sum of complex with a real dtype= (drops the imaginary part),
out= targets the result does not cast to with same_kind (NumPy casts a reduction into out= unsafely,
ndfuse's out= is array::assign with same_kind), argmin/argmax with a tuple axis (NumPy: TypeError).
"""
import os
import shutil
import sys
import warnings
from fractions import Fraction

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The NumPy >= 2.3 check runs on import; the writer and dtype lists are shared with the other oracles.
from gen_ops import COMPLEXES, DTYPES, FLOATS, OracleWriter, inf, nan  # noqa: E402

SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INEXACT = FLOATS + COMPLEXES


# NumPy ValueError messages that mean a bad shape or axis (ndfuse: shape_error). Any other ValueError
# stops the generator: it means a case asks for something this suite does not mean to test.
SHAPE_MESSAGES = ("zero-size array", "empty sequence", "out of bounds", "duplicate value", "Duplicate axes", "repeated axis",
                  "Improper number of dimensions")


def raises_token(e):
    """The manifest token for a NumPy exception: what ndfuse must throw instead."""
    if isinstance(e, TypeError):
        return "RAISES:dtype_error:" + type(e).__name__
    if isinstance(e, ValueError) and any(m in str(e) for m in SHAPE_MESSAGES):
        return "RAISES:shape_error:" + type(e).__name__  # AxisError is a ValueError
    raise e


# --- input values ------------------------------------------------------------------------------------
# Seeded; small values so that float sums are exact (multiples of 0.5 well inside float16's 11 bits)
# and products stay in range, except in the overflow and accuracy groups.
RNG = np.random.default_rng(20250611)
_inputs = {}


def make_values(d, shape, kind):
    """kind: sum (general), prod (magnitudes near 1), sparse (mostly zeros: any/all/count_nonzero)."""
    n = int(np.prod(shape))
    if d == "bool":
        v = RNG.random(n) < (0.3 if kind == "sparse" else 0.6)
    elif kind == "prod":
        if d in SIGNED:
            v = RNG.choice([1, -1, 2, -2, 3, 1, -1], n)
        elif d in UNSIGNED:
            v = RNG.choice([1, 2, 3, 1], n)
        elif d in FLOATS:
            v = RNG.choice([1.0, -1.0, 2.0, -2.0, 0.5, -0.5], n, p=[0.35, 0.35, 0.075, 0.075, 0.075, 0.075])
            # Every partial product of a float16 slice must stay in range in any order: at most 15 factors
            # of 2 and 14 of 0.5 (smallest normal half is 2**-14).
            assert d != "float16" or ((np.abs(v) == 2).sum() <= 15 and (np.abs(v) == 0.5).sum() <= 14)
        else:
            v = RNG.choice(np.array([1, -1, 1j, -1j, 0.5 + 0.5j, 1 + 1j, -1 + 0.5j, 0.5 - 1j]), n)
    else:
        if d in SIGNED:
            v = RNG.integers(-9, 10, n)
        elif d in UNSIGNED:
            v = RNG.integers(0, 19, n)
        elif d in FLOATS:
            v = RNG.integers(-8, 9, n) * 0.5
        else:
            v = (RNG.integers(-8, 9, n) + 1j * RNG.integers(-8, 9, n)) * 0.5
        if kind == "sparse":
            v = v * (RNG.random(n) < 0.35)
    return np.asarray(v).astype(d).reshape(shape)


def inputs(d, shape, kind="sum"):
    key = (d, shape, kind)
    if key not in _inputs:
        _inputs[key] = make_values(d, shape, kind)
    return _inputs[key]


def value_kind(func):
    if func in ("prod", "nanprod", "cumprod"):
        return "prod"
    if func in ("any", "all", "count_nonzero"):
        return "sparse"
    return "sum"


def weights_for(a_dtype, shape):
    """Positive weights (their sum never 0): a's dtype, int64 for bool a."""
    n = int(np.prod(shape))
    if a_dtype == "bool":
        return RNG.integers(1, 5, n).astype("int64").reshape(shape)
    if a_dtype in FLOATS:
        v = RNG.integers(1, 9, n) * 0.5
    elif a_dtype in COMPLEXES:
        v = RNG.integers(1, 9, n) * 0.5 + 1j * RNG.integers(-2, 3, n) * 0.5
    else:
        v = RNG.integers(1, 5, n)
    return np.asarray(v).astype(a_dtype).reshape(shape)


# --- the functions, as NumPy computes them --------------------------------------------------------------
def nanarg(fn):
    """np.nanargmin/nanargmax, except that an all-NaN slice gives -1 instead of raising ValueError:
    ndfuse's documented difference (include/ndfuse/reduce.hpp), encoded here by hand."""

    def run(x, axis=None, keepdims=False):
        if (x.dtype.kind not in "fc" or x.size == 0 or
                (axis is not None and not -x.ndim <= axis < x.ndim) or (axis is not None and x.shape[axis] == 0)):
            return fn(x, axis=axis, keepdims=keepdims)  # no NaN possible, empty or a bad axis: NumPy's answer
        nanmask = np.isnan(x)
        if axis is None:
            if nanmask.all():
                return np.full((1,) * x.ndim if keepdims else (), -1, np.int64)
            return fn(x, axis=None, keepdims=keepdims)
        allnan = nanmask.all(axis=axis, keepdims=True)
        res = np.asarray(fn(np.where(allnan, 0, x), axis=axis, keepdims=True))
        res[allnan] = -1
        return res if keepdims else np.squeeze(res, axis=axis)

    return run


def average(x, p):
    """np.average. Without weights it is np.mean, which it calls; NumPy 2.x then divides a.size by the
    result size for its unused `returned` count, a ZeroDivisionError for an empty result (shape (3, 0)
    reduced along axis 0). That is no semantics to follow: the mean's empty result is the answer."""
    try:
        return np.average(x, **kw(p, "axis", "keepdims", "weights"))
    except ZeroDivisionError:
        assert "weights" not in p
        return np.mean(x, **kw(p, "axis", "keepdims"))


def kw(p, *names):
    return {k: p[k] for k in names if k in p}


# name -> f(x, p): p holds axis (None, int or tuple), keepdims, dtype, ddof, weights, ord
NUMPY = {
    "sum": lambda x, p: np.sum(x, **kw(p, "axis", "keepdims", "dtype", "out")),
    "prod": lambda x, p: np.prod(x, **kw(p, "axis", "keepdims", "dtype", "out")),
    "mean": lambda x, p: np.mean(x, **kw(p, "axis", "keepdims", "dtype", "out")),
    "nansum": lambda x, p: np.nansum(x, **kw(p, "axis", "keepdims", "dtype", "out")),
    "nanprod": lambda x, p: np.nanprod(x, **kw(p, "axis", "keepdims", "dtype", "out")),
    "nanmean": lambda x, p: np.nanmean(x, **kw(p, "axis", "keepdims", "dtype", "out")),
    "var": lambda x, p: np.var(x, **kw(p, "axis", "keepdims", "dtype", "ddof", "out")),
    "std": lambda x, p: np.std(x, **kw(p, "axis", "keepdims", "dtype", "ddof", "out")),
    "nanvar": lambda x, p: np.nanvar(x, **kw(p, "axis", "keepdims", "dtype", "ddof")),
    "nanstd": lambda x, p: np.nanstd(x, **kw(p, "axis", "keepdims", "dtype", "ddof")),
    "min": lambda x, p: np.min(x, **kw(p, "axis", "keepdims", "out")),
    "max": lambda x, p: np.max(x, **kw(p, "axis", "keepdims", "out")),
    "amin": lambda x, p: np.amin(x, **kw(p, "axis", "keepdims", "out")),
    "amax": lambda x, p: np.amax(x, **kw(p, "axis", "keepdims", "out")),
    "nanmin": lambda x, p: np.nanmin(x, **kw(p, "axis", "keepdims", "out")),
    "nanmax": lambda x, p: np.nanmax(x, **kw(p, "axis", "keepdims", "out")),
    "ptp": lambda x, p: np.ptp(x, **kw(p, "axis", "keepdims", "out")),
    "any": lambda x, p: np.any(x, **kw(p, "axis", "keepdims", "out")),
    "all": lambda x, p: np.all(x, **kw(p, "axis", "keepdims", "out")),
    "count_nonzero": lambda x, p: np.count_nonzero(x, **kw(p, "axis", "keepdims")),
    "argmin": lambda x, p: np.argmin(x, **kw(p, "axis", "keepdims", "out")),
    "argmax": lambda x, p: np.argmax(x, **kw(p, "axis", "keepdims", "out")),
    "nanargmin": lambda x, p: nanarg(np.nanargmin)(x, **kw(p, "axis", "keepdims")),
    "nanargmax": lambda x, p: nanarg(np.nanargmax)(x, **kw(p, "axis", "keepdims")),
    "average": lambda x, p: average(x, p),
    "cumsum": lambda x, p: np.cumsum(x, **kw(p, "axis", "dtype")),
    "cumprod": lambda x, p: np.cumprod(x, **kw(p, "axis", "dtype")),
    "norm": lambda x, p: np.linalg.norm(x, **kw(p, "ord", "axis", "keepdims")),
}
REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all",
              "count_nonzero", "ptp", "average", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
              "nanmin", "nanmax", "nanargmin", "nanargmax"]
DDOF_FUNCS = ("var", "std", "nanvar", "nanstd")
ARG_FUNCS = ("argmin", "argmax", "nanargmin", "nanargmax")  # axis: none or one int
DTYPE_FUNCS = ("sum", "prod", "mean", "nansum", "nanprod", "nanmean", "var", "std", "nanvar", "nanstd",
               "cumsum", "cumprod")
# A float result of these is one of the inputs (or one rounding of a difference): compared exactly.
EXACT_FUNCS = ("min", "max", "amin", "amax", "nanmin", "nanmax", "ptp", "argmin", "argmax", "nanargmin",
               "nanargmax", "any", "all", "count_nonzero")

RTOL = {0: 1e-2, 1: 1e-5, 2: 1e-12}


def precision_level(d):
    d = np.dtype(d).name
    return 0 if d == "float16" else 1 if d in ("float32", "complex64") else 2


def rtol_for(result_dtype, out_dtype=None):
    level = precision_level(result_dtype)
    if out_dtype is not None:
        level = min(level, precision_level(out_dtype))
    return RTOL[level]


def scale_for(func, x, p, expected):
    """sqrt(n) times the float64 reduction of |x| (see the docstring); 0 where not finite."""
    x64 = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
    ax = np.abs(x64)
    a = {k: p[k] for k in ("axis", "keepdims") if k in p}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if func in ("sum", "nansum"):
            s = np.nansum(ax, **a)
        elif func in ("mean", "nanmean") or (func == "average" and "weights" not in p):
            s = np.nanmean(ax, **a)
        elif func in ("prod", "nanprod"):
            s = np.nanprod(ax, **a)
        elif func in ("var", "nanvar", "std", "nanstd"):
            s = np.nanvar(x64, ddof=p.get("ddof", 0), **a)
            if func.endswith("std"):
                s = np.sqrt(s)
        elif func == "average":
            s = np.average(ax, weights=np.abs(p["weights"].astype(np.complex128)), **a)
        elif func == "cumsum":
            s = np.cumsum(np.where(np.isnan(ax), 0, ax), axis=p.get("axis"))
        elif func == "cumprod":
            s = np.cumprod(np.where(np.isnan(ax), 1, ax), axis=p.get("axis"))
        elif func == "norm":
            s = np.linalg.norm(x64, **kw(p, "ord", "axis", "keepdims"))
        else:
            raise AssertionError(func)
        s = np.asarray(s, dtype=np.float64)
    if func in ("cumsum", "cumprod"):
        n = x.size if p.get("axis") is None else x.shape[p["axis"]]
    else:
        n = x.size // max(expected.size, 1)
    s = np.sqrt(max(n, 1)) * s
    s = np.where(np.isfinite(s), s, 0.0)
    assert s.shape == expected.shape, (func, s.shape, expected.shape)
    return s


def fmt_axis(axis):
    if axis is None:
        return "none"
    if isinstance(axis, tuple):
        if len(axis) == 1:
            return "%d," % axis[0]  # a one-axis tuple: a list of one in ndfuse
        return "()" if not axis else ",".join(str(a) for a in axis)
    return str(axis)


def fmt_shape(shape):
    return "x".join(str(s) for s in shape) if shape else "0d"


def fmt_ord(o):
    if o is None:
        return "None"
    if isinstance(o, str):
        return o
    return {inf: "inf", -inf: "-inf"}.get(o, repr(float(o)))


class Cases:
    def __init__(self, writer):
        self.w = writer

    def add(self, group, func, x, variant="", axis="default", keepdims=False, dtype=None, ddof=None,
            weights=None, ord="default", out=None, cid=None, view=None):
        """One case: computes NumPy's answer and writes the row. axis="default" leaves axis, keepdims
        (and everything else that is not given) out, so ndfuse is called with its defaults."""
        p, params = {}, []
        if axis != "default":
            p["axis"] = axis
            params.append("axis=" + fmt_axis(axis))
            if func not in ("cumsum", "cumprod"):
                p["keepdims"] = keepdims
                params.append("keepdims=%d" % keepdims)
        if dtype is not None:
            p["dtype"] = np.dtype(dtype)
            params.append("dtype=" + dtype)
        if ddof is not None and (ddof != 0 or len(params) > 0):  # ddof=0 alone: call var(x) with defaults
            p["ddof"] = ddof
            params.append("ddof=%r" % float(ddof))
        if weights is not None:
            p["weights"] = weights
            params.append("weights=" + self.w.array(weights))
        if ord != "default":
            p["ord"] = ord
            params.append("ord=" + fmt_ord(ord))
        if out is not None:
            params.append("out=" + out)
        if view is not None:
            params.append("view=" + view)
        if cid is None:
            cid = "%s/%s/%s/%s" % (group, func, x.dtype.name, fmt_shape(x.shape))
            if axis != "default":
                cid += "/ax" + fmt_axis(axis) + ("/kd" if keepdims else "")
            if variant:
                cid += "/" + variant
            if view is not None:
                cid += "/view-" + view
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if out is not None:
                    # NumPy needs the out= target's shape: the result's, computed without out= first.
                    shape = np.asarray(NUMPY[func](x, p)).shape
                    p["out"] = np.zeros(shape, out)
                    NUMPY[func](x, p)
                    result = p.pop("out")
                else:
                    result = NUMPY[func](x, p)
                expected = np.asarray(result)
                if isinstance(result, int) and not isinstance(result, (bool, np.generic)):
                    expected = np.asarray(result, np.int64)  # count_nonzero may answer a Python int
                assert expected.dtype.name in DTYPES, (cid, expected.dtype)
                expect = self.w.array(expected)
            except (TypeError, ValueError) as e:
                expected, expect = None, raises_token(e)
        if expected is not None and expected.dtype.kind in "fc" and func not in EXACT_FUNCS:
            params.append("rtol=%r" % rtol_for(expected.dtype, out))
            params.append("scale=" + self.w.array(scale_for(func, x, p, expected)))
        # view=T: ndfuse reads the stored x.T through its transpose (a strided operand).
        stored = np.ascontiguousarray(x.T) if view == "T" else x
        self.w.row(cid, group, func, ";".join(params) or "-", self.w.array(stored), expect)


# --- groups --------------------------------------------------------------------------------------------
def func_variants(func):
    """(func, ddof) pairs: var and std both ways."""
    if func in DDOF_FUNCS:
        return [(func, 0), (func, 1)]
    return [(func, None)]


# (shape, [(axis, keepdims)]); "default" means no arguments at all.
GRID_PATTERNS = [
    ((), [("default", False), (None, True)]),
    ((7,), [("default", False), (0, True), (-1, False)]),
    ((5, 6), [("default", False), (0, False), (1, True), (-1, False), ((0, 1), False)]),
    ((2, 3, 4), [(None, True), (1, False), (-1, True), ((0, 2), False), ((2, 0), True)]),
]


def allowed_axis(func, axis):
    return not (func in ARG_FUNCS and isinstance(axis, tuple))


def gen_grid(c):
    """Every reduction x every dtype x the common axis patterns, 0-d to 3-d."""
    for func in REDUCTIONS:
        for f, ddof in func_variants(func):
            for d in DTYPES:
                for shape, patterns in GRID_PATTERNS:
                    x = inputs(d, shape, value_kind(f))
                    for axis, kd in patterns:
                        if allowed_axis(f, axis):
                            c.add("grid", f, x, "ddof%d" % ddof if ddof is not None else "", axis, kd, ddof=ddof)


AXIS_PATTERNS = [
    ((7,), [None, 0, -1, (0,), ()]),
    ((5, 6), [None, 0, 1, -1, -2, (0, 1), (1, 0), (-1,), ()]),
    ((2, 3, 4), [None, 0, 1, 2, -1, -3, (0, 1), (0, 2), (1, 2), (0, -1), (2, 1, 0), (-3, -1), ()]),
]


def gen_axis(c):
    """Every axis form, with and without keepdims: on float64 and int32 for every reduction, on complex64
    for a few, on bool and float32 for the logical ones."""
    funcs = ["sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "argmin", "argmax", "any", "all",
             "count_nonzero", "ptp", "average", "nansum", "nanmean", "nanvar", "nanmin", "nanmax", "nanargmax"]
    for func in funcs:
        if func in ("any", "all"):
            dtypes = ["bool", "float32"]
        elif func in ("sum", "mean", "var", "max", "argmax"):
            dtypes = ["float64", "int32", "complex64"]
        else:
            dtypes = ["float64", "int32"]
        for d in dtypes:
            for shape, axes in AXIS_PATTERNS:
                x = inputs(d, shape, value_kind(func))
                for axis in axes:
                    if allowed_axis(func, axis):
                        for kd in (False, True):
                            c.add("axis", func, x, "", axis, kd, ddof=1 if func == "std" else None)
    # A fractional ddof (NumPy allows any float)
    c.add("axis", "var", inputs("float64", (5, 6)), "ddof0.5", 1, False, ddof=0.5)


EMPTY_PATTERNS = [
    ((0,), [("default", False), (0, True)]),
    ((3, 0), [(None, False), (0, False), (1, False), (-1, True), ((0, 1), True)]),
    ((2, 0, 3), [(1, False), (2, False), ((0, 2), False), ((0, 2), True)]),
]


def gen_empty(c):
    """Zero-length axes: identities (0, 1, NaN, True/False), shape_error for min/max/arg* of nothing, and
    empty results when a non-empty axis is reduced."""
    for func in REDUCTIONS:
        for f, ddof in func_variants(func):
            for d in ["bool", "int8", "uint64", "float16", "float64", "complex64"]:
                for shape, patterns in EMPTY_PATTERNS:
                    x = np.zeros(shape, d)
                    for axis, kd in patterns:
                        if allowed_axis(f, axis):
                            c.add("empty", f, x, "ddof%d" % ddof if ddof is not None else "", axis, kd, ddof=ddof)
    # var with ddof >= n: NumPy divides by max(n - ddof, 0): inf or NaN
    c.add("empty", "var", np.array([3.0]), "ddof1", 0, False, ddof=1)
    c.add("empty", "std", np.array([3.0, 1.0]), "ddof2", None, False, ddof=2)
    c.add("empty", "nanvar", np.array([3.0, nan, nan]), "ddof1", None, False, ddof=1)


def nan_arrays(d):
    """Arrays with NaN and inf, including all-NaN slices. Complex: NaN is nan+nanj only (complex
    maximum and products pick among different NaN payloads in an order-dependent way)."""
    cplx = d in COMPLEXES
    n_ = complex(nan, nan) if cplx else nan
    a = (RNG.integers(-8, 9, (4, 5)) * 0.5).astype(np.complex128 if cplx else np.float64)
    if cplx:
        a = a + 0.5j * RNG.integers(-8, 9, (4, 5))
    a[0, 1] = a[2, 3] = a[0, 4] = a[2, 4] = n_
    a[3, :] = n_  # an all-NaN row
    if not cplx:
        a[1, 4], a[2, 0], a[1, 1] = inf, -inf, inf
    b = np.array([1, n_, 3, -2, n_, 2, 0.5]) if cplx else np.array([1, nan, 3, -inf, nan, 2, 0.5])
    allnan = np.full((6,), n_)
    cube = (RNG.integers(-8, 9, (2, 3, 4)) * 0.5).astype(a.dtype)
    cube[RNG.random((2, 3, 4)) < 0.25] = n_
    cube[1, 2, :] = n_
    cube[0, :, 3] = n_
    out = [("mixed", a.astype(d), [None, 0, 1, -1, (0, 1)]), ("vec", b.astype(d), [None, 0]),
           ("allnan", allnan.astype(d), [None, 0]), ("cube", cube.astype(d), [None, 0, 2, (0, 1), (1, 2)]),
           ("scalar", np.array(n_).astype(d), [None])]
    if not cplx:
        e = np.array([[inf, 1, -inf, 2], [inf, inf, 3, 4], [-inf, -inf, 0, 1]])
        out.append(("inf", e.astype(d), [None, 0, 1]))
    return out


def gen_nan(c):
    """NaN propagation (plain forms) and NaN skipping (nan forms) on float and complex inputs."""
    for d in FLOATS + ["complex64"]:
        for name, x, axes in nan_arrays(d):
            for func in REDUCTIONS + ["cumsum", "cumprod"]:
                for f, ddof in func_variants(func):
                    for axis in axes:
                        if not allowed_axis(f, axis):
                            continue
                        v = name + ("/ddof%d" % ddof if ddof is not None else "")
                        if f in ("cumsum", "cumprod"):
                            if axis is None or not isinstance(axis, tuple):
                                c.add("nan", f, x, v, axis)
                        else:
                            for kd in (False, True) if axis == 0 else (False,):
                                c.add("nan", f, x, v, axis, kd, ddof=ddof)


def gen_overflow(c):
    """Integer wraparound where NumPy wraps, widening where NumPy widens (exact comparisons)."""
    a = lambda v, d: np.array(v, dtype=d)
    i8 = a([100, 100, 100, -50, 27, 120, 90, 1], "int8")
    c.add("overflow", "sum", i8, "wrap", 0, False, dtype="int8")
    c.add("overflow", "sum", i8, "widen")
    c.add("overflow", "sum", i8.reshape(2, 4), "wrap-axis1", 1, False, dtype="int8")
    c.add("overflow", "sum", i8.reshape(2, 4), "wrap-none", None, True, dtype="int8")
    u8 = a([200, 100, 255, 1, 7], "uint8")
    c.add("overflow", "sum", u8, "wrap", None, False, dtype="uint8")
    c.add("overflow", "sum", u8, "widen")
    c.add("overflow", "sum", a([2**62, 2**62, 2**62, 5], "int64"), "wrap")
    c.add("overflow", "sum", a([-2**63, -1], "int64"), "wrap-neg")
    c.add("overflow", "sum", a([2**64 - 1, 2, 2**63], "uint64"), "wrap")
    c.add("overflow", "sum", a([2**31 - 1] * 5, "int32"), "widen")
    c.add("overflow", "sum", a([2**32 - 1] * 5, "uint32"), "widen")
    c.add("overflow", "sum", a([True] * 300, "bool"), "count")
    c.add("overflow", "sum", a([True, True, False], "bool"), "bool-dtype", 0, False, dtype="bool")  # logical or
    c.add("overflow", "prod", a([127, 127, 127, 127, -128], "int8"), "widen")
    c.add("overflow", "prod", a([127, 3, -2], "int8"), "wrap", None, False, dtype="int8")
    c.add("overflow", "prod", a([3**30, 3**30, 7], "int64"), "wrap")
    c.add("overflow", "prod", a([2**32 - 1, 2**32 - 1, 3], "uint64"), "wrap")
    c.add("overflow", "cumsum", i8, "widen")
    c.add("overflow", "cumsum", i8, "wrap", 0, dtype="int8")
    c.add("overflow", "cumsum", a([2**62, 2**62, 2**62, -7], "int64"), "wrap")
    c.add("overflow", "cumprod", a([3**30, 3**30, 7], "int64"), "wrap")
    c.add("overflow", "cumprod", a([100, 3, -2], "int16"), "wrap", None, dtype="int16")
    c.add("overflow", "ptp", a([-128, 127, 0], "int8"), "wrap")
    c.add("overflow", "ptp", a([[-32768, 32767], [0, 1]], "int16"), "wrap-axis1", 1, False)
    c.add("overflow", "ptp", a([0, 255, 3], "uint8"), "full")
    c.add("overflow", "ptp", a([2**63 - 1, -2**63], "int64"), "wrap")
    # A mean of int64 sums in float64 (NumPy's dtype='f8' for ints), never in a wrapping int64.
    c.add("overflow", "mean", a([2**62] * 4, "int64"), "f8-acc")
    c.add("overflow", "mean", a([2**64 - 1, 2**64 - 1], "uint64"), "f8-acc")
    c.add("overflow", "var", a([2**62, -2**62, 2**62, 0], "int64"), "f8-acc")
    c.add("overflow", "average", a([2**62] * 4, "int64"), "f8-acc")
    for d in SIGNED + UNSIGNED:
        info = np.iinfo(d)
        x = a([1, info.max, 0, info.min, info.max - 1, 2], d)
        for func in ("min", "max", "argmin", "argmax", "nanmin", "nanmax", "nanargmin", "nanargmax"):
            c.add("overflow", func, x, "extremes")
        c.add("overflow", "sum", x, "extremes")
    # float16 overflows to inf; summed into float32 it does not.
    h = a([60000, 60000, -60000, 1000], "float16")
    c.add("overflow", "sum", h[:2], "inf")
    c.add("overflow", "sum", h, "f32-acc", None, False, dtype="float32")
    c.add("overflow", "prod", a([300, 300], "float16"), "inf")
    c.add("overflow", "sum", a([3e38, 3e38, -3e38], "float32"), "f64-acc", 0, False, dtype="float64")
    c.add("overflow", "max", a([1.0, -inf, inf, 2.0], "float64"), "inf")
    c.add("overflow", "min", a([1.0, -inf, inf, 2.0], "float32"), "inf")


def gen_dtype(c):
    """dtype= sets the accumulator and the result dtype."""
    cases = [("sum", "int8", "int16"), ("sum", "int8", "int8"), ("sum", "uint8", "uint8"), ("sum", "int32", "float64"),
             ("sum", "float32", "float64"), ("sum", "float16", "float32"), ("sum", "float64", "float32"),
             ("sum", "float64", "int32"), ("sum", "bool", "int8"), ("sum", "int16", "complex128"),
             ("sum", "uint16", "int64"), ("prod", "int8", "int16"), ("prod", "float32", "float64"),
             ("prod", "int16", "int16"), ("mean", "int32", "float32"), ("mean", "float16", "float32"),
             ("mean", "float64", "float32"), ("mean", "float32", "float64"), ("mean", "uint8", "float16"),
             ("mean", "complex64", "complex128"), ("var", "int16", "float32"), ("var", "float16", "float64"),
             ("var", "float64", "float32"), ("std", "int32", "float32"), ("std", "float32", "float64"),
             ("nansum", "float32", "float64"), ("nansum", "int8", "int8"), ("nanprod", "float16", "float32"),
             ("nanmean", "float16", "float32"), ("nanmean", "float32", "float64"), ("nanvar", "float32", "float64"),
             ("nanstd", "float16", "float32"), ("cumsum", "int8", "int8"), ("cumsum", "float16", "float32"),
             ("cumsum", "uint8", "uint16"), ("cumprod", "int32", "float64"), ("cumprod", "int8", "int8")]
    for func, d, acc in cases:
        x = inputs(d, (5, 6), value_kind(func))
        if func in ("cumsum", "cumprod"):
            c.add("dtype", func, x, "to-" + acc, None, dtype=acc)
            c.add("dtype", func, x, "to-" + acc, 1, dtype=acc)
        else:
            c.add("dtype", func, x, "to-" + acc, None, False, dtype=acc)
            c.add("dtype", func, x, "to-" + acc, 1, True, dtype=acc)
    # Wide int8 sums that wrap in int8 but not in the default int64.
    big8 = RNG.integers(-128, 128, (40, 30)).astype("int8")
    c.add("dtype", "sum", big8, "wrap", 0, False, dtype="int8")
    c.add("dtype", "sum", big8, "wrap", 1, False, dtype="int8")
    c.add("dtype", "sum", big8, "wrap", None, False, dtype="int8")
    c.add("dtype", "sum", big8, "widen", None, False)
    # float16 values that float16 cannot sum exactly, summed in float32.
    h = RNG.random(2000).astype("float16")
    c.add("dtype", "sum", h, "f32", None, False, dtype="float32")
    c.add("dtype", "sum", h.reshape(40, 50), "f32", 1, False, dtype="float32")
    c.add("dtype", "mean", h, "f32", None, False, dtype="float32")


def gen_badaxis(c):
    """Axes out of range or repeated: NumPy's AxisError/ValueError, ndfuse's shape_error."""
    x = inputs("float64", (2, 3))
    for func in REDUCTIONS + ["amin", "amax"]:
        for axis in [2, -3, (0, 2), (0, 0), (1, -1), (-3, 0)]:
            if allowed_axis(func, axis):
                c.add("badaxis", func, x, "", axis, False, ddof=0 if func in DDOF_FUNCS else None)
    for func in ("cumsum", "cumprod"):
        for axis in (2, -3):
            c.add("badaxis", func, x, "", axis)
    c.add("badaxis", "sum", inputs("int32", ()), "", 1, False)
    c.add("badaxis", "sum", inputs("int32", (7,)), "", (0, -1), False)
    for axis in [2, (0, 0), (0, 1, 1), (0, 2)]:
        c.add("badaxis", "norm", x, "", axis, False)
    c.add("badaxis", "norm", inputs("float64", (2, 3, 4)), "ord1-3d", None, False, ord=1)
    c.add("badaxis", "norm", inputs("float64", ()), "ord1-0d", None, False, ord=1)


def gen_out(c):
    """The out= forms: the reduction runs in its own dtype and the result is cast into an existing
    array. Only out dtypes the result casts to with same_kind: NumPy's reductions cast into out=
    with 'unsafe' (float into int truncates, complex into float drops the imaginary part), while
    ndfuse's out= is array::assign, same_kind; those cases are left out rather than guessed."""
    plan = [("sum", ["float64", "float32", "int64", "int32", "int8", "complex128"]),
            ("prod", ["float64", "float32", "int64", "int8"]),
            ("mean", ["float64", "float32", "complex128"]),
            ("var", ["float64", "float32"]), ("std", ["float64", "float32"]),
            ("nansum", ["float64", "float32"]), ("nanprod", ["float64"]), ("nanmean", ["float64", "float32"]),
            ("min", ["float64", "float32", "int32", "int8"]), ("max", ["float64", "float32", "int32"]),
            ("nanmin", ["float64", "float32"]), ("nanmax", ["float64"]),
            ("any", ["bool", "int32", "float64"]), ("all", ["bool", "int8", "float32"]),
            ("argmax", ["int64"]), ("argmin", ["int64"])]
    for func, outs in plan:
        for d in ["float64", "int32"]:
            x = inputs(d, (5, 6), value_kind(func))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                natural = np.asarray(NUMPY[func](x, {})).dtype
            for od in outs:
                if not np.can_cast(natural, od, "same_kind"):
                    continue
                for axis, kd in [(1, False), (0, True), (None, False)]:
                    c.add("out", func, x, "out-" + od, axis, kd, out=od)


def gen_average(c):
    """average with weights: full-shape weights for any axes, 1-D weights along one axis."""
    for d in DTYPES:
        for shape, axes in [((7,), [None, 0, -1]), ((5, 6), [None, 1, 0, -1, (0, 1)]),
                            ((2, 3, 4), [None, (0, 2), -1, 1])]:
            x = inputs(d, shape)
            w = weights_for(d, shape)
            for axis in axes:
                for kd in (False, True) if axis in (None, 1) else (False,):
                    c.add("average", "average", x, "w-full", axis, kd, weights=w)
                if isinstance(axis, int):
                    w1 = weights_for(d, (shape[axis],))
                    c.add("average", "average", x, "w-1d", axis, False, weights=w1)
        x0 = inputs(d, ())
        c.add("average", "average", x0, "w-0d", None, False, weights=weights_for(d, ()))
    for da, dw in [("int32", "float32"), ("float32", "float64"), ("float16", "int8"), ("int8", "uint8"),
                   ("float32", "complex64"), ("bool", "float16")]:
        x = inputs(da, (5, 6))
        w = weights_for(dw, (5, 6)) if dw != "bool" else None
        c.add("average", "average", x, "w-" + dw, 1, False, weights=w)
        c.add("average", "average", x, "w-" + dw, None, False, weights=w)


def gen_scan(c):
    patterns = [((), [None]), ((7,), [None, 0, -1]), ((0,), [None, 0]), ((5, 6), [None, 0, 1, -1, -2]),
                ((3, 0), [None, 0, 1]), ((2, 3, 4), [None, 0, 1, 2, -2])]
    for func in ("cumsum", "cumprod"):
        for d in DTYPES:
            for shape, axes in patterns:
                x = inputs(d, shape, value_kind(func)) if 0 not in shape else np.zeros(shape, d)
                c.add("scan", func, x, "default", cid="scan/%s/%s/%s/default" % (func, d, fmt_shape(shape)))
                for axis in axes:
                    c.add("scan", func, x, "", axis)


VECTOR_ORDS = [None, 1, 2, inf, -inf, 0, 3, 0.5]
MATRIX_ORDS = [None, "fro", 1, -1, inf, -inf]


def gen_norm(c):
    for d in DTYPES:
        for shape, axes in [((7,), [None]), ((5, 6), [-1, 0]), ((2, 3, 4), [1])]:
            x = inputs(d, shape)
            for o in VECTOR_ORDS:
                for axis in axes:
                    for kd in (False, True) if axis == -1 else (False,):
                        c.add("norm", "norm", x, "ord" + fmt_ord(o), axis, kd, ord=o)
        for shape, axes in [((5, 6), [None, (1, 0)]), ((2, 3, 4), [(1, 2), (2, 0)])]:
            x = inputs(d, shape)
            for o in MATRIX_ORDS:
                for axis in axes:
                    for kd in (False, True) if axis == (1, 2) else (False,):
                        c.add("norm", "norm", x, "ord" + fmt_ord(o), axis, kd, ord=o)
        # Defaults: ord None, axis None flattens any ndim (the 2-norm of all elements).
        for shape in [(), (7,), (5, 6), (2, 3, 4)]:
            c.add("norm", "norm", inputs(d, shape), "defaults")
        c.add("norm", "norm", inputs(d, (2, 3, 4)), "ordNone-flat-kd", None, True, ord=None)
    for o in VECTOR_ORDS:
        c.add("norm", "norm", np.zeros((0,)), "empty-ord" + fmt_ord(o), None, False, ord=o)
    for o in MATRIX_ORDS:
        c.add("norm", "norm", np.zeros((3, 0)), "empty-ord" + fmt_ord(o), None, False, ord=o)
    for o in VECTOR_ORDS:
        nx = np.array([1.0, nan, -2.0]) if o is None or o != 0 else np.array([1.0, nan, 0.0])
        c.add("norm", "norm", nx, "nan-ord" + fmt_ord(o), 0, False, ord=o)
        c.add("norm", "norm", np.array([1.0, -inf, 3.0]), "inf-ord" + fmt_ord(o), 0, False, ord=o)


def gen_accuracy(c):
    """Inexact values with cancellation: sums of N(0,1), and var/std around a large mean (a one-pass
    E[x^2] - E[x]^2 fails these)."""
    for d in ["float32", "float64", "complex64"]:
        for label, offset in [("centered", 0.0), ("offset", 1000.0)]:
            for shape, axes in [((10000,), [None]), ((100, 200), [0, 1, None])]:
                v = RNG.standard_normal(shape) + offset
                if d == "complex64":
                    v = v + 1j * (RNG.standard_normal(shape) - offset)
                x = v.astype(d)
                for axis in axes:
                    for func in ["sum", "mean", "var", "std", "nansum", "nanmean", "nanvar", "average"]:
                        ddof = 1 if func in DDOF_FUNCS else None
                        c.add("accuracy", func, x, label, axis, False, ddof=ddof)
                    if axis is not None:
                        c.add("accuracy", "cumsum", x, label, axis)
                        c.add("accuracy", "norm", x, label, axis, False, ord=None)
                        c.add("accuracy", "norm", x, label + "-ord3", axis, False, ord=3)
                    c.add("accuracy", "average", x, label + "-w", axis, False,
                          weights=RNG.random(shape).astype(d) + 0.5)
        x = (1 + 0.01 * RNG.standard_normal(1000)).astype(d)
        c.add("accuracy", "prod", x, "near1", None, False)
        c.add("accuracy", "cumprod", x, "near1", 0)


# Shapes that put each strategy (full, inner, outer) in each fold layout that ndfuse chooses from
# the sizes (kernel_reduction::units and per_thread): units of 16 bytes of the accumulator when the
# reduced extent divides into them, else element by element; one thread per output when the fold
# is short (under 16 units along a row, under 8 down a column), else the lanes of a block share
# each output, and with few outputs several blocks share each one (partials, then a last block).
LAYOUT_PATTERNS = [
    ((12,), [None]),            # full, one thread
    ((13,), [None]),            # full, one thread, odd
    ((4096,), [None]),          # full, split over blocks
    ((4099,), [None]),          # full, split, odd
    ((300, 4), [1, None]),      # rows of four: units (float32) in one thread each
    ((300, 6), [1]),            # rows of six: elements, one thread each
    ((40, 64), [1]),            # a block's lanes per row, units
    ((40, 67), [1]),            # lanes per row, elements
    ((3, 5000), [1, -1]),       # few long rows: split, partials
    ((5, 300), [0]),            # short columns: one thread each
    ((67, 40), [0]),            # columns: lanes down each column
    ((3000, 3), [0]),           # few long columns: split
    ((3000, 8), [0]),           # few long columns in output units (float32 4, float64 2): split, partials
    ((67, 41), [0]),            # columns of a width no output unit divides: elements, lanes per column
    ((4, 6, 8), [(0, 2), 1]),   # strided kept and reduced dims
]


def gen_layout(c):
    """Each fold layout in each strategy, on the dtypes whose units differ in width (float16: 8 per
    unit in float32, float32: 4, float64: 2, complex128: no units; int32 sums: int64, 2; bool: any)."""
    funcs = {"sum": ["float16", "float32", "float64", "complex128", "int32"], "prod": ["float64"],
             "max": ["float32", "int32"], "argmin": ["float32"], "mean": ["float32"], "var": ["float64"],
             "nanmax": ["float32"], "any": ["bool"], "count_nonzero": ["float64"]}
    for func, dtypes in funcs.items():
        for d in dtypes:
            for shape, axes in LAYOUT_PATTERNS:
                x = inputs(d, shape, value_kind(func))
                for axis in axes:
                    if allowed_axis(func, axis) and not (func == "argmin" and isinstance(axis, tuple)):
                        c.add("layout", func, x, "", axis, False)
    # Columns in output units (kernel_reduction::output_units) read one by one, in the same order:
    # a view one element into its buffer (not aligned for a wide load) and a transpose (the kept dim
    # not contiguous); var's second pass reads the mean broadcast down the columns beside x.
    for func, dtypes in {"sum": ["float32", "float64", "float16"], "var": ["float32"], "max": ["float32"]}.items():
        for d in dtypes:
            for shape in [(67, 40), (3000, 8)]:
                for view in ["offset", "T"]:
                    c.add("layout", func, inputs(d, shape, value_kind(func)), "", 0, False, view=view)


# Long folds in units take the staged layout (kernel_reduction::staged: chunks of 1024 units, copied
# into shared memory by the bulk copy engine on sm_90 where every input is flat, else loaded in the
# same order): full folds and rows with and without units after the last chunk; full folds with
# elements after the last unit (kernel_reduction::tail); few rows split over blocks; more rows than
# two blocks per SM; two inputs in one stage (average with weights); views one element into their
# buffers (view=offset: copied from the 16-byte boundary before, then read `shift` bytes in); and a
# transposed operand (view=T), which the copies cannot take.
STAGED_PATTERNS = [
    ((20000,), [None]),       # full: float32 5000 units (4 chunks + 904), float64 10000 (9 + 784)
    ((8192,), [None]),        # whole chunks only (float32 2, float64 4)
    ((20003,), [None]),       # full with a tail after the last unit (float32 3, float64 1, float16 3)
    ((3, 20000), [1, None]),  # few long rows: split over blocks, partials
]


def gen_staged(c):
    funcs = {"sum": ["float16", "float32", "float64", "int32", "uint8"], "mean": ["float32"],
             "var": ["float64"], "max": ["float32"], "nanmin": ["float64"], "count_nonzero": ["float64"]}
    for func, dtypes in funcs.items():
        for d in dtypes:
            for shape, axes in STAGED_PATTERNS:
                x = inputs(d, shape, value_kind(func))
                for axis in axes:
                    c.add("staged", func, x, "", axis, False)
    c.add("staged", "norm", inputs("float64", (20000,)), "", "default")
    for d in ["float32", "float64"]:
        for shape, axis in [((20000,), None), ((3, 20000), 1)]:
            x = inputs(d, shape)
            c.add("staged", "average", x, "w", axis, False, weights=RNG.random(shape).astype(d) + 0.5)
    rows = inputs("float32", (270, 8200))  # 2050 units a row, more rows than two blocks per SM
    c.add("staged", "sum", rows, "", 1, False)
    c.add("staged", "max", rows, "", 1, False)
    for d in ["float32", "float64"]:
        for shape, axis in [((20000,), None), ((3, 20000), 1), ((270, 8200), 1)]:
            c.add("staged", "sum", inputs(d, shape), "", axis, False, view="offset")
        c.add("staged", "sum", inputs(d, (3, 20000)), "", 1, False, view="T")
        c.add("staged", "sum", inputs(d, (20000, 3)), "", None, False, view="T")
    # Shifts of 2 and 1 bytes (float16 and uint8 one element into their buffers): units of 8 and 16.
    for d in ["float16", "uint8"]:
        c.add("staged", "sum", inputs(d, (3, 40000)), "", 1, False, view="offset")
    # A full fold of a shifted view with a tail, as x[1:] of an even-length x: every dtype's shift.
    for d in ["float16", "float32", "float64", "int32", "uint8"]:
        c.add("staged", "sum", inputs(d, (20001,)), "", None, False, view="offset")
    x = inputs("float64", (20001,))
    c.add("staged", "average", x, "w", None, False, weights=RNG.random(x.shape) + 0.5, view="offset")
    x = inputs("float64", (3, 20000))
    c.add("staged", "average", x, "w", 1, False, weights=RNG.random(x.shape) + 0.5, view="offset")


def gen_bigsum(w):
    """float32 sum of 10**8 elements against the exact sum of those float32 values. The input is
    (arange(n) % 1000).astype(float32) * 0.001 + 0.1 with NEP 50 weak scalars (float32 ops), built
    in ndfuse without host data; only its first 1000 values (one period) and the reference are stored."""
    n, period = 10**8, 1000
    xk = (np.arange(period, dtype=np.int64) % period).astype(np.float32) * 0.001 + 0.1
    assert xk.dtype == np.float32
    ref = float(sum(Fraction(float(v)) for v in xk) * (n // period))  # exact, then rounded once
    full = np.tile(xk, n // period)  # 400 MB: NumPy's own float32 sum, for comparison
    numpy_sum = float(np.sum(full))
    del full
    numpy_err = abs(numpy_sum - ref) / ref
    print("bigsum: float32 sum of %d elements: reference %r, NumPy float32 %r, relative error %.3g"
          % (n, ref, numpy_sum, numpy_err))
    params = "n=%d;ref=%r;numpy_sum=%r;numpy_err=%r;values=%s" % (n, ref, numpy_sum, numpy_err, w.array(xk))
    w.row("bigsum/sum/float32/1e8", "bigsum", "sum", params, "-", "-")


def main():
    outdir = sys.argv[1]
    w = OracleWriter(outdir, "reduce")
    try:
        c = Cases(w)
        for gen in (gen_grid, gen_axis, gen_empty, gen_nan, gen_overflow, gen_dtype, gen_badaxis, gen_out,
                    gen_average, gen_scan, gen_norm, gen_accuracy, gen_layout, gen_staged):
            gen(c)
        gen_bigsum(w)
        w.finish()
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


if __name__ == "__main__":
    main()
