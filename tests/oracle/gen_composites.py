#!/usr/bin/env python3
"""NumPy 2 oracle for the composite functions (tests/test_composites.cpp, include/ndfuse/composites.hpp).

Usage: gen_composites.py OUTDIR. Writes OUTDIR/composites/manifest.tsv, tab-separated:
  id  inputs  expected
inputs: array files joined by ','; expected: array files joined by ',' (a function of several
results: one each; a Python bool or int: a 0-d array), or RAISES:<nf error>:<NumPy exception> where
NumPy raises. Each id names a call the C++ test makes, written here in NumPy: the id's prefix is the
function, the rest names the inputs.
"""
import os
import shutil
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_ops import OracleWriter  # noqa: E402

# What ndfuse throws where NumPy raises: an axis out of range and shapes that do not fit together are
# shape_error, another ValueError value_error, a TypeError (a dtype no loop takes) dtype_error, an
# IndexError index_error.
def error_kind(e):
    if isinstance(e, np.exceptions.AxisError):
        return "shape_error"
    if isinstance(e, IndexError):
        return "index_error"
    if isinstance(e, ValueError):
        shapes = ("must match", "broadcast", "equal division", "zero-size array")
        return "shape_error" if any(t in str(e) for t in shapes) else "value_error"
    if isinstance(e, TypeError):
        return "dtype_error"
    raise e


def case_writer(w):
    """case(id, inputs, fn): one manifest row, fn's results or the nf error for NumPy's exception."""
    def case(case_id, inputs, fn):
        names = ",".join(w.array(a) for a in inputs) or "-"
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = fn(*inputs)
        except (ValueError, TypeError, IndexError) as e:
            w.row(case_id, names, f"RAISES:{error_kind(e)}:{type(e).__name__}")
            return
        def flat(o):  # nested results (histogramdd's hist and list of edges) one after another
            return [e for x in o for e in flat(x)] if isinstance(o, (tuple, list)) else [o]
        outs = flat(out)
        w.row(case_id, names, ",".join(w.array(np.asarray(o)) for o in outs))
    return case


def run_oracle(name, write):
    """Writes OUTDIR/<name>/ (OUTDIR: the first argument) through write(w), leaving no temporary files."""
    w = OracleWriter(sys.argv[1], name)
    try:
        write(w)
    finally:
        shutil.rmtree(w.root, ignore_errors=True)


def main():
    run_oracle("composites", write)


def write(w):
    rng = np.random.default_rng(44)
    inf, nan = np.inf, np.nan

    case = case_writer(w)

    f64 = rng.standard_normal((4, 5))
    f32 = rng.standard_normal((3, 4)).astype(np.float32)
    near = f64 + rng.standard_normal((4, 5)) * 1e-6
    special = np.array([0.0, -0.0, 1.0, -1.0, inf, -inf, nan, 1e-300, 1e300])
    ints = np.arange(-6, 6, dtype=np.int32).reshape(3, 4)
    empty = np.zeros((0, 3))
    zero_d = np.array(2.5)
    cplx = (rng.standard_normal(6) + 1j * np.array([0, 1, 0, -2, 0, 0])).astype(np.complex128)

    # Comparisons.
    case("isclose_near", [f64, near], np.isclose)
    case("isclose_special", [special, special[::-1].copy()], np.isclose)
    case("isclose_equal_nan", [special, special], lambda a, b: np.isclose(a, b, equal_nan=True))
    case("isclose_ints", [ints, ints + 1], lambda a, b: np.isclose(a, b, rtol=0.5, atol=0.0))
    case("isclose_float32", [f32, f32 * np.float32(1 + 1e-6)], np.isclose)
    case("isclose_empty", [empty, empty], np.isclose)
    case("allclose_near", [f64, near], np.allclose)
    case("allclose_far", [f64, near + 1e-3], np.allclose)
    case("allclose_nan", [special, special], lambda a, b: np.allclose(a, b, equal_nan=True))
    case("array_equal_same", [f64, f64.copy()], np.array_equal)
    case("array_equal_shape", [f64, f64[:, :4].copy()], np.array_equal)
    case("array_equal_nan", [special, special], lambda a, b: np.array_equal(a, b, equal_nan=True))
    case("array_equal_nan_off", [special, special], np.array_equal)
    case("array_equiv_broadcast", [f64, np.tile(f64[:1], (4, 1))[:1].copy()], np.array_equiv)
    case("array_equiv_rows", [np.tile(f64[:1], (4, 1)), f64[:1].copy()], np.array_equiv)
    case("array_equiv_shapes", [f64, f64[:, :2].copy()], np.array_equiv)
    case("isposinf", [special], np.isposinf)
    case("isneginf", [special], np.isneginf)
    case("isposinf_complex", [cplx], np.isposinf)
    case("iscomplex", [cplx], np.iscomplex)
    case("iscomplex_real", [f64], np.iscomplex)
    case("isreal", [cplx], np.isreal)
    case("isreal_real", [ints], np.isreal)
    case("iscomplexobj", [cplx], np.iscomplexobj)
    case("isrealobj", [cplx], np.isrealobj)

    # Elementwise.
    degrees = np.linspace(-720, 720, 97)
    for name, fn in [("deg2rad", np.deg2rad), ("radians", np.radians), ("rad2deg", np.rad2deg),
                     ("degrees", np.degrees)]:
        for dt in ["float64", "float32", "float16", "int8", "int16", "int32", "uint8", "bool"]:
            x = (degrees / (1 if name in ("deg2rad", "radians") else 50)).astype(dt)
            case(f"{name}_{dt}", [x], fn)
        case(f"{name}_0d", [zero_d], fn)
        case(f"{name}_empty", [empty], fn)
        case(f"{name}_complex", [cplx], fn)
    for dt in ["float64", "float32", "float16", "int8", "int16", "int64", "bool"]:
        case(f"fabs_{dt}", [(special[:4] * 3).astype(dt) if dt != "bool" else special[:4] != 0], np.fabs)
    case("fabs_complex", [cplx], np.fabs)
    case("sinc_float64", [np.linspace(-3, 3, 61)], np.sinc)
    case("sinc_float32", [np.linspace(-3, 3, 61).astype(np.float32)], np.sinc)
    case("sinc_ints", [np.arange(-3, 4)], np.sinc)
    case("sinc_0d", [np.array(0.0)], np.sinc)

    case("fix", [special], np.fix)
    case("fix_float32", [np.linspace(-3, 3, 25).astype(np.float32)], np.fix)
    case("fix_ints", [ints], np.fix)
    case("heaviside", [special, np.array(0.5)], np.heaviside)
    case("heaviside_ints", [ints, np.array(7)], np.heaviside)
    case("heaviside_float32", [f32, np.array(0.5, np.float32)], np.heaviside)
    case("heaviside_complex", [cplx, np.array(0.5)], np.heaviside)

    # Several results, mixed loops, and NumPy's Python-level elementwise functions.
    for dt in ["float64", "float32", "float16"]:
        tiny = {"float64": 5e-324, "float32": 1e-40, "float16": 6e-8}[dt]  # a subnormal of each
        with np.errstate(over="ignore"):  # 1e300 overflows float32 and float16 to inf, as wanted
            case(f"frexp_{dt}", [np.concatenate([special, [3.0, -0.375, tiny]]).astype(dt)], np.frexp)
        with np.errstate(over="ignore"):
            case(f"modf_{dt}", [np.concatenate([special, [2.5, -2.5, 1e16, -0.75]]).astype(dt)], np.modf)
    case("frexp_ints", [ints], np.frexp)
    case("frexp_complex", [cplx], np.frexp)
    case("frexp_0d", [zero_d], np.frexp)
    case("modf_int8", [ints.astype(np.int8)], np.modf)
    case("modf_empty", [empty], np.modf)
    case("divmod", [f64 * 10, f64 + 2], np.divmod)
    case("divmod_ints", [ints, np.array([3, -3, 5, 0], np.int32)], np.divmod)
    case("divmod_complex", [cplx, cplx], np.divmod)
    exps = np.array([-3, 0, 1, 10, 1100, -1100, 2000, -2000], np.int64)
    case("ldexp", [np.resize(special, 8), exps], np.ldexp)
    case("ldexp_float32", [np.full(8, 1.5, np.float32), exps.astype(np.int32)], np.ldexp)
    case("ldexp_float16", [np.full(8, -1.5, np.float16), exps], np.ldexp)
    case("ldexp_int8", [np.arange(8, dtype=np.int8), np.arange(8, dtype=np.int16)], np.ldexp)
    case("ldexp_subnormal", [np.array([5e-324, 1e-310, 1.5, 3.0])], lambda a: np.ldexp(a, np.array([1, -3, -1075, 1023])))
    case("ldexp_float_exponent", [f64, f64], np.ldexp)
    case("ldexp_uint64", [f64, np.ones((4, 5), np.uint64)], np.ldexp)
    case("ldexp_complex", [cplx, np.ones(6, np.int64)], np.ldexp)
    case("float_power", [np.abs(f64) + 0.5, ints[:, :1].astype(np.float64).repeat(5, 1)[:3].sum(0)], np.float_power)
    case("float_power_ints", [ints, np.array(2)], np.float_power)
    case("float_power_complex", [cplx, np.array(2.0)], np.float_power)
    case("nan_to_num", [special], np.nan_to_num)
    case("nan_to_num_values", [special], lambda a: np.nan_to_num(a, nan=-1.0, posinf=9.0, neginf=-9.0))
    with np.errstate(over="ignore"):  # 1e300 becomes inf in the narrower floats, as wanted
        case("nan_to_num_float32", [special.astype(np.float32)], np.nan_to_num)
        case("nan_to_num_float16", [special.astype(np.float16)], np.nan_to_num)
    case("nan_to_num_ints", [ints], np.nan_to_num)
    case("nan_to_num_complex", [np.array([complex(nan, inf), complex(-inf, 2), complex(1, nan), 3 - 4j])],
         np.nan_to_num)
    case("nan_to_num_complex64", [np.array([complex(nan, -inf), complex(inf, 0)], np.complex64)],
         lambda a: np.nan_to_num(a, nan=5.0))
    for dt in ["float64", "float32", "float16"]:
        case(f"i0_{dt}", [np.concatenate([np.linspace(-12, 12, 49), [0.0, 8.0, 30.0, 700.0]]).astype(dt)], np.i0)
    case("i0_ints", [ints], np.i0)
    case("i0_complex", [cplx], np.i0)
    case("i0_0d", [zero_d], np.i0)

    for kind, e in {"empty": np.zeros((0,)), "0d": np.array(-2.5)}.items():
        for name, fn in [("frexp", np.frexp), ("modf", np.modf), ("nan_to_num", np.nan_to_num), ("i0", np.i0),
                         ("ldexp", lambda a: np.ldexp(a, np.array(3))),
                         ("float_power", lambda a: np.float_power(a, np.array(2.0))),
                         ("divmod", lambda a: np.divmod(a, np.array(0.75)))]:
            case(f"edge_{name}_{kind}", [e], fn)

    # NaN-skipping scans, select, index conversions, logspace.
    withnan = np.where(rng.random((3, 4)) < 0.3, nan, rng.standard_normal((3, 4)))
    case("nancumsum", [withnan], np.nancumsum)
    case("nancumsum_axis1", [withnan], lambda a: np.nancumsum(a, axis=1))
    case("nancumprod_axis0", [withnan], lambda a: np.nancumprod(a, axis=0))
    case("nancumsum_ints", [ints], np.nancumsum)
    case("select", [f64 < -0.5, f64 > 0.5, f64 * 10, f64 * 100], lambda c1, c2, a, b: np.select([c1, c2], [a, b], 7))
    case("select_ints", [ints < 0, ints, ints * 2], lambda c, a, b: np.select([c, ~c], [a, b]))
    case("select_not_bool", [ints, ints], lambda c, a: np.select([c], [a]))
    case("unravel_index", [np.array([0, 5, 11, 23])], lambda i: np.unravel_index(i, (2, 3, 4)))
    case("unravel_index_0d", [np.array(7)], lambda i: np.unravel_index(i, (3, 4)))
    case("unravel_index_bounds", [np.array([0, 24])], lambda i: np.unravel_index(i, (2, 3, 4)))
    case("unravel_index_float", [np.array([1.0])], lambda i: np.unravel_index(i, (2, 3)))
    case("ravel_multi_index", [np.array([0, 1, 1]), np.array([2, 0, 1]), np.array([3, 0, 2])],
         lambda a, b, c: np.ravel_multi_index((a, b, c), (2, 3, 4)))
    case("ravel_multi_index_bounds", [np.array([0, 2]), np.array([0, 0])], lambda a, b: np.ravel_multi_index((a, b), (2, 3)))
    case("logspace", [], lambda: np.logspace(0, 3, 7))
    case("logspace_base2", [], lambda: np.logspace(-1, 4, 6, endpoint=False, base=2.0))

    # Medians.
    odd = rng.standard_normal((5, 7))
    case("median", [odd], np.median)
    case("median_axis0", [odd], lambda a: np.median(a, axis=0))
    case("median_axis1_keepdims", [odd], lambda a: np.median(a, axis=1, keepdims=True))
    case("median_keepdims", [odd], lambda a: np.median(a, keepdims=True))
    case("median_ints", [ints], lambda a: np.median(a, axis=1))
    case("median_float32", [f32], lambda a: np.median(a, axis=0))
    case("median_nan", [withnan], lambda a: np.median(a, axis=1))
    case("median_empty", [np.zeros((3, 0))], lambda a: np.median(a, axis=1))
    case("median_complex", [cplx], np.median)

    # Sets.
    a_set = np.array([5, 1, 3, 3, 9, -2, 7])
    b_set = np.array([3, 4, 5, 5, 10, -2])
    case("isin", [a_set, b_set], np.isin)
    case("isin_invert", [a_set.reshape(1, 7), b_set], lambda a, b: np.isin(a, b, invert=True))
    case("isin_nan", [special, np.array([nan, 1.0, inf])], np.isin)
    case("isin_empty", [a_set, np.zeros(0, np.int64)], np.isin)
    case("union1d", [a_set, b_set.reshape(2, 3)], np.union1d)
    case("intersect1d", [a_set, b_set], np.intersect1d)
    case("intersect1d_empty", [a_set, np.array([100, 200])], np.intersect1d)
    case("setdiff1d", [a_set, b_set], np.setdiff1d)
    case("setxor1d", [a_set, b_set], np.setxor1d)
    case("setxor1d_floats", [f64.ravel()[:6].copy(), f64.ravel()[3:9].copy()], np.setxor1d)

    # The array API's names.
    case("concat", [f64, f64[:2].copy()], lambda a, b: np.concat([a, b]))
    case("concat_axis1", [f64, f64[:, :2].copy()], lambda a, b: np.concat([a, b], axis=1))
    x3 = rng.standard_normal((2, 3, 4))
    case("permute_dims", [x3], lambda a: np.permute_dims(a, (2, 0, 1)))
    case("matrix_transpose", [x3], np.matrix_transpose)
    case("matrix_transpose_1d", [degrees], np.matrix_transpose)
    case("linalg_matrix_transpose", [x3], np.linalg.matrix_transpose)
    case("linalg_matmul", [f64, f64.T.copy()], np.linalg.matmul)
    case("cumulative_sum", [degrees], np.cumulative_sum)
    case("cumulative_sum_initial", [x3], lambda a: np.cumulative_sum(a, axis=1, include_initial=True))
    case("cumulative_sum_no_axis", [x3], np.cumulative_sum)
    case("cumulative_sum_int8", [np.arange(5, dtype=np.int8)], np.cumulative_sum)
    case("cumulative_prod", [np.arange(1, 8.0)], np.cumulative_prod)
    case("cumulative_prod_initial", [ints], lambda a: np.cumulative_prod(a, axis=0, include_initial=True))
    case("cumulative_sum_0d", [zero_d], np.cumulative_sum)
    case("ndim", [x3], lambda a: np.int64(np.ndim(a)))
    case("size", [x3], lambda a: np.int64(np.size(a)))
    case("shape", [x3], lambda a: np.array(np.shape(a), dtype=np.int64))

    # Differences and joins.
    case("diff", [f64], np.diff)
    case("diff_n2_axis0", [f64], lambda a: np.diff(a, n=2, axis=0))
    case("diff_bool", [special > 0], np.diff)
    case("diff_ints", [ints], lambda a: np.diff(a, n=3))
    case("diff_n0", [f64], lambda a: np.diff(a, n=0))
    case("diff_too_far", [f64[:, :2].copy()], lambda a: np.diff(a, n=4))
    case("diff_negative", [f64], lambda a: np.diff(a, n=-1))
    case("diff_0d", [zero_d], np.diff)
    case("diff_axis", [f64], lambda a: np.diff(a, axis=2))
    case("ediff1d", [f64], np.ediff1d)
    case("ediff1d_ends", [f64, np.array([7.0, 8.0]), np.array(-1.0)],
         lambda a, e, b: np.ediff1d(a, to_end=e, to_begin=b))
    case("ediff1d_unsafe", [ints, np.array([0.5])], lambda a, e: np.ediff1d(a, to_end=e))
    case("ediff1d_empty", [np.zeros(0)], np.ediff1d)
    case("append", [f64, ints], np.append)
    case("append_axis0", [f64, f64[:1].copy()], lambda a, b: np.append(a, b, axis=0))
    case("append_axis_mismatch", [f64, f64[:, :1].copy()], lambda a, b: np.append(a, b, axis=0))
    x4 = np.arange(24.0).reshape(2, 3, 4)
    case("hsplit", [x4], lambda a: np.hsplit(a, 3))
    case("hsplit_1d", [np.arange(6.0)], lambda a: np.hsplit(a, [1, 4]))
    case("vsplit", [x4], lambda a: np.vsplit(a, 2))
    case("vsplit_1d", [np.arange(6.0)], lambda a: np.vsplit(a, 2))
    case("dsplit", [x4], lambda a: np.dsplit(a, [1, 3]))
    case("dsplit_2d", [f64], lambda a: np.dsplit(a, 2))
    case("hsplit_uneven", [x4], lambda a: np.hsplit(a, 2))

    # Triangles.
    case("tri", [], lambda: np.tri(4))
    case("tri_rect", [], lambda: np.tri(3, 5, 1, dtype=np.int32))
    case("tri_neg_k", [], lambda: np.tri(4, 3, -1))
    case("tril_indices", [], lambda: np.tril_indices(4))
    case("tril_indices_k", [], lambda: np.tril_indices(4, 1, 6))
    case("triu_indices", [], lambda: np.triu_indices(4))
    case("triu_indices_k", [], lambda: np.triu_indices(3, -1, 5))
    case("diag_indices", [], lambda: np.diag_indices(4))
    case("diag_indices_3", [], lambda: np.diag_indices(3, 3))

    # Cross products.
    v3 = rng.standard_normal((5, 3))
    w3 = rng.standard_normal((5, 3))
    case("cross", [v3, w3], np.cross)
    case("cross_broadcast", [v3, w3[:1].copy()], np.cross)
    case("cross_axis0", [v3.T.copy(), w3.T.copy()], lambda a, b: np.cross(a, b, axis=0))
    case("cross_ints", [np.arange(6).reshape(2, 3), np.arange(6, 12).reshape(2, 3)], np.cross)
    if tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 5):
        # NumPy 2.5 refuses 2-element vectors, as ndfuse does; earlier versions computed them with
        # a deprecation warning, so these cases are NumPy 2.5's only.
        case("cross_2d", [v3[:, :2].copy(), w3[:, :2].copy()], np.cross)
        case("cross_2_3", [v3[:, :2].copy(), w3], np.cross)
        case("cross_3_2", [v3, w3[:, :2].copy()], np.cross)
    case("cross_4", [rng.standard_normal((2, 4)), rng.standard_normal((2, 4))], np.cross)
    case("linalg_cross", [v3, w3], np.linalg.cross)
    case("linalg_cross_2d", [v3[:, :2].copy(), w3[:, :2].copy()], np.linalg.cross)
    w.finish()


if __name__ == "__main__":
    main()
