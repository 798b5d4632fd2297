#!/usr/bin/env python3
"""NumPy 2 oracle for include/ndfuse/numerical.hpp (tests/test_numerical.cpp): windows, convolve,
correlate, interp, trapezoid, gradient, unwrap and the poly* functions.

Usage: gen_numerical.py OUTDIR. Writes OUTDIR/numerical/manifest.tsv in gen_composites.py's format.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_composites import case_writer, run_oracle  # noqa: E402


# One-input calls tried on an empty and a 0-d array (the C++ test makes the same calls).
EDGE_CALLS = {
    "convolve": lambda a: np.convolve(a, np.array([1.0, 2.0])),
    "correlate": lambda a: np.correlate(a, np.array([1.0, 2.0]), "full"),
    "interp": lambda a: np.interp(a, np.array([0.0, 1.0]), np.array([2.0, 4.0])),
    "trapezoid": np.trapezoid,
    "gradient": lambda a: np.gradient(a, axis=0),
    "unwrap": np.unwrap,
    "polyval": lambda a: np.polyval(np.array([2.0, 1.0]), a),
    "polyval_coefficients": lambda a: np.polyval(a, np.array([1.5, 2.0])),
    "polyadd": lambda a: np.polyadd(a, np.array([1.0, 2.0])),
    "polymul": lambda a: np.polymul(a, np.array([1.0, 2.0])),
    "poly": np.poly,
    "roots": np.roots,
    "vander": np.vander,
}


def main():
    run_oracle("numerical", write)


def write(w):
    case = case_writer(w)
    rng = np.random.default_rng(4403)
    nan, inf = np.nan, np.inf

    for name, fn in [("bartlett", np.bartlett), ("blackman", np.blackman), ("hamming", np.hamming),
                     ("hanning", np.hanning)]:
        for m in [0, 1, 2, 7, 16]:
            case(f"{name}_{m}", [], lambda fn=fn, m=m: fn(m))
    for m, beta in [(1, 5.0), (2, 0.0), (9, 8.6), (16, 14.0), (0, 3.0)]:
        case(f"kaiser_{m}_{beta}", [], lambda m=m, beta=beta: np.kaiser(m, beta))

    a = rng.standard_normal(9)
    v = rng.standard_normal(4)
    ca = a + 1j * rng.standard_normal(9)
    cv = v - 1j * rng.standard_normal(4)
    ia = np.arange(1, 8, dtype=np.int32)
    iv = np.array([2, -1, 3], dtype=np.int32)
    for mode in ["full", "same", "valid"]:
        case(f"convolve_{mode}", [a, v], lambda x, y, mode=mode: np.convolve(x, y, mode))
        case(f"convolve_{mode}_swapped", [v, a], lambda x, y, mode=mode: np.convolve(x, y, mode))
        case(f"correlate_{mode}", [a, v], lambda x, y, mode=mode: np.correlate(x, y, mode))
        case(f"correlate_{mode}_swapped", [v, a], lambda x, y, mode=mode: np.correlate(x, y, mode))
        case(f"correlate_{mode}_complex", [ca, cv], lambda x, y, mode=mode: np.correlate(x, y, mode))
        case(f"convolve_{mode}_ints", [ia, iv], lambda x, y, mode=mode: np.convolve(x, y, mode))
    case("convolve_even_same", [a[:8].copy(), v], lambda x, y: np.convolve(x, y, "same"))
    case("correlate_even_same_swapped", [v, a[:8].copy()], lambda x, y: np.correlate(x, y, "same"))
    case("convolve_empty", [a, np.zeros(0)], np.convolve)
    case("convolve_bad_mode", [a, v], lambda x, y: np.convolve(x, y, "middle"))
    case("convolve_2d", [a.reshape(3, 3), v], np.convolve)
    case("convolve_0d", [np.array(2.0), v], np.convolve)

    xp = np.array([0.0, 1.0, 2.5, 4.0, 4.0, 7.0])
    fp = np.array([1.0, -2.0, 0.5, 3.0, 5.0, inf])
    xs = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 4.0, 5.0, 7.0, 8.0, nan, 3.2])
    case("interp", [xs, xp, fp], np.interp)
    case("interp_left_right", [xs, xp, fp], lambda x, p, f: np.interp(x, p, f, left=-9.0, right=9.0))
    case("interp_2d_x", [xs[:10].reshape(2, 5).copy(), xp, fp], np.interp)
    case("interp_one_point", [xs, xp[:1].copy(), fp[:1].copy()], np.interp)
    case("interp_period", [np.linspace(-400, 400, 17), np.array([10.0, 100.0, 200.0, 300.0]),
                           np.array([1.0, 2.0, 0.0, -1.0])], lambda x, p, f: np.interp(x, p, f, period=360))
    case("interp_complex", [xs[:9].copy(), xp[:4].copy(), np.array([1 + 2j, -1j, 3.0, 2 - 2j])], np.interp)
    case("interp_ints", [np.arange(6), np.array([0, 2, 5]), np.array([10, 20, 50])], np.interp)
    case("interp_length", [xs, xp, fp[:3].copy()], np.interp)
    case("interp_empty", [xs, np.zeros(0), np.zeros(0)], np.interp)
    case("interp_period_zero", [xs, xp, fp], lambda x, p, f: np.interp(x, p, f, period=0))

    y = rng.standard_normal((4, 6))
    case("trapezoid", [y], np.trapezoid)
    case("trapezoid_dx_axis0", [y], lambda a: np.trapezoid(a, dx=0.5, axis=0))
    case("trapezoid_x", [y, np.cumsum(rng.random(6))], lambda a, x: np.trapezoid(a, x))
    case("trapezoid_x_nd", [y, np.cumsum(rng.random((4, 6)), axis=0)], lambda a, x: np.trapezoid(a, x, axis=0))
    case("trapezoid_float32", [y.astype(np.float32)], np.trapezoid)

    f = rng.standard_normal((5, 7))
    case("gradient", [f], np.gradient)
    case("gradient_dx", [f], lambda a: np.gradient(a, 0.5))
    case("gradient_axis1_edge2", [f], lambda a: np.gradient(a, axis=1, edge_order=2))
    case("gradient_dx_edge2", [f], lambda a: np.gradient(a, 0.25, edge_order=2))
    coords = np.cumsum(rng.random(7)) + 1
    case("gradient_coords", [f, coords], lambda a, c: np.gradient(a, c, axis=1))
    case("gradient_coords_edge2", [f, coords], lambda a, c: np.gradient(a, c, axis=1, edge_order=2))
    case("gradient_uniform_coords", [f.astype(np.float32), np.arange(7.0) * 0.5],
         lambda a, c: np.gradient(a, c, axis=1))
    case("gradient_ints", [np.arange(12).reshape(3, 4) ** 2], np.gradient)
    case("gradient_float32", [f.astype(np.float32)], lambda a: np.gradient(a, axis=0))
    case("gradient_short", [np.arange(2.0)], lambda a: np.gradient(a, edge_order=2))
    case("gradient_edge3", [f], lambda a: np.gradient(a, edge_order=3))
    case("gradient_coords_length", [f, coords[:5].copy()], lambda a, c: np.gradient(a, c, axis=1))

    phase = np.cumsum(rng.standard_normal(20) * 2.5)
    wrapped = (phase + np.pi) % (2 * np.pi) - np.pi
    case("unwrap", [wrapped], np.unwrap)
    case("unwrap_2d", [np.stack([wrapped, wrapped[::-1]])], lambda p: np.unwrap(p, axis=1))
    case("unwrap_discont", [wrapped], lambda p: np.unwrap(p, discont=4.0))
    case("unwrap_period", [np.array([0.0, 5, 10, 1, 6, 11, 2])], lambda p: np.unwrap(p, period=12.0))
    case("unwrap_float32", [wrapped.astype(np.float32)], np.unwrap)
    case("unwrap_ints", [np.array([0, 7, 14, 1, 8])], np.unwrap)

    p = np.array([2.0, -3.0, 0.5, 4.0])
    xv = rng.standard_normal((3, 4))
    case("polyval", [p, xv], np.polyval)
    case("polyval_ints", [np.array([1, 2, 3]), np.arange(5)], np.polyval)
    case("polyval_float32_x", [p, xv.astype(np.float32)], np.polyval)
    case("polyval_complex", [np.array([1 + 1j, 2.0]), xv], np.polyval)
    case("polyadd", [p, np.array([1.0, 2.0])], np.polyadd)
    case("polyadd_longer", [np.array([1, 2]), p], np.polyadd)
    case("polysub", [p, np.array([1.0, 2.0])], np.polysub)
    case("polysub_longer", [np.array([1.0]), p], np.polysub)
    case("polymul", [p, np.array([0.0, 1.0, -2.0])], np.polymul)
    case("polymul_ints", [np.array([1, 2]), np.array([3, 4, 5])], np.polymul)
    case("poly", [np.array([1.0, -2.0, 3.0])], np.poly)
    case("poly_complex_pairs", [np.array([1 + 2j, 1 - 2j, 0.5])], np.poly)
    case("poly_complex", [np.array([1 + 2j, 3.0])], np.poly)
    case("poly_ints", [np.array([1, 2, 3])], np.poly)
    case("poly_empty", [np.zeros(0)], np.poly)
    case("poly_matrix", [np.array([[1.0, 2.0], [3.0, 4.0]])], np.poly)
    case("poly_bad", [np.zeros((2, 3))], np.poly)
    # roots' order is LAPACK's (ndfuse's GPU solver may order them otherwise): sorted, as complex.
    for name, coeffs in [("roots", [1.0, -6.0, 11.0, -6.0, 3.0]), ("roots_complex", [1.0, 0.0, 4.0]),
                         ("roots_trailing", [0.0, 2.0, 0.0, 8.0, 0.0, 0.0]), ("roots_ints", [1, 0, 1])]:
        case(name, [np.array(coeffs)], lambda c: np.sort_complex(np.roots(c).astype(complex)))
    case("roots_zero", [np.zeros(3)], np.roots)
    case("roots_2d", [np.ones((2, 2))], np.roots)
    xs2 = np.linspace(-2, 3, 15)
    ys2 = 0.5 * xs2 ** 3 - xs2 + 2 + rng.standard_normal(15) * 0.1
    case("polyfit", [xs2, ys2], lambda x, y: np.polyfit(x, y, 3))
    case("polyfit_2d", [xs2, np.stack([ys2, -ys2], axis=1)], lambda x, y: np.polyfit(x, y, 2))
    case("polyfit_weights", [xs2, ys2, rng.random(15) + 0.5], lambda x, y, wt: np.polyfit(x, y, 2, w=wt))
    case("polyfit_float32", [xs2.astype(np.float32), ys2.astype(np.float32)], lambda x, y: np.polyfit(x, y, 1))
    case("polyfit_length", [xs2, ys2[:5].copy()], lambda x, y: np.polyfit(x, y, 2))
    case("polyfit_negative", [xs2, ys2], lambda x, y: np.polyfit(x, y, -1))
    case("vander", [np.array([1.0, 2.0, 3.0, 5.0])], np.vander)
    case("vander_n", [np.array([1.5, -2.0, 3.0])], lambda x: np.vander(x, 5))
    case("vander_increasing", [np.array([1, 2, 3], dtype=np.int32)], lambda x: np.vander(x, increasing=True))
    case("vander_zero", [np.array([1.0, 2.0])], lambda x: np.vander(x, 0))
    case("vander_float32", [np.array([1.5, 2.5], dtype=np.float32)], lambda x: np.vander(x, 3))
    case("vander_2d", [np.ones((2, 2))], np.vander)

    # Every one-input call on an empty and a 0-d input: NumPy's result, or its error.
    for kind, e in {"empty": np.zeros((0,)), "0d": np.array(0.75)}.items():
        for name, fn in EDGE_CALLS.items():
            case(f"edge_{name}_{kind}", [e], fn)
    w.finish()


if __name__ == "__main__":
    main()
