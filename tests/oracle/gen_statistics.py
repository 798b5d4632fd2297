#!/usr/bin/env python3
"""NumPy 2 oracle for the statistics of include/ndfuse/statistics.hpp (tests/test_statistics.cpp).

Usage: gen_statistics.py OUTDIR. Writes OUTDIR/statistics/manifest.tsv in gen_composites.py's
format: id, inputs, expected results or RAISES:<nf error>:<NumPy exception>. Each id names a call
the C++ test makes, written here in NumPy.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_composites import case_writer, run_oracle  # noqa: E402

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
           "normal_unbiased"]


# One-input calls tried on an empty and a 0-d array (the C++ test makes the same calls).
EDGE_CALLS = {
    "quantile": lambda a: np.quantile(a, 0.3),
    "percentile": lambda a: np.percentile(a, 30.0),
    "nanquantile": lambda a: np.nanquantile(a, 0.3),
    "nanpercentile": lambda a: np.nanpercentile(a, 30.0),
    "nanmedian": np.nanmedian,
    "histogram": lambda a: np.histogram(a, 4),
    "histogram_edges": lambda a: np.histogram(a, np.array([0.0, 0.5, 1.0])),
    "histogramdd": lambda a: np.histogramdd(a, 3),
    "digitize": lambda a: np.digitize(a, np.array([0.0, 0.5, 1.0])),
    "cov": np.cov,
    "corrcoef": np.corrcoef,
}


def main():
    run_oracle("statistics", write)


def write(w):
    case = case_writer(w)
    rng = np.random.default_rng(4402)
    nan, inf = np.nan, np.inf
    x = rng.standard_normal((5, 8))
    x32 = x.astype(np.float32)
    ints = rng.integers(-20, 20, (4, 6)).astype(np.int32)
    withnan = np.where(rng.random((4, 7)) < 0.3, nan, rng.standard_normal((4, 7)))
    withnan[2] = nan  # an all-NaN row
    qs = np.array([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])

    # Quantiles: every method, scalar (weak) and array q, axes, keepdims, dtypes, NaN, errors.
    for m in METHODS:
        case(f"quantile_{m}", [x, qs], lambda a, q, m=m: np.quantile(a, q, axis=1, method=m))
        case(f"quantile_{m}_ints", [ints], lambda a, m=m: np.quantile(a, 0.35, method=m))
        case(f"nanquantile_{m}", [withnan, qs], lambda a, q, m=m: np.nanquantile(a, q, axis=1, method=m))
    case("quantile_scalar", [x], lambda a: np.quantile(a, 0.3))
    case("quantile_float32_weak", [x32], lambda a: np.quantile(a, 0.3, axis=0))
    case("quantile_float32_strong", [x32, np.array(0.3)], lambda a, q: np.quantile(a, q, axis=0))
    case("quantile_keepdims", [x, qs[:3].copy()], lambda a, q: np.quantile(a, q, axis=0, keepdims=True))
    case("quantile_keepdims_all", [x], lambda a: np.quantile(a, 0.5, keepdims=True))
    case("quantile_2d_q", [x, qs.reshape(2, 3)], lambda a, q: np.quantile(a, q))
    case("quantile_nan", [withnan], lambda a: np.quantile(a, 0.5, axis=1))
    case("quantile_inf", [np.array([1.0, 2.0, inf])], lambda a: np.quantile(a, np.array([0.5, 0.75, 1.0])))
    case("quantile_int_q", [x, np.array([0, 1])], lambda a, q: np.quantile(a, q, axis=1))
    case("quantile_bad_q", [x], lambda a: np.quantile(a, 1.5))
    case("quantile_nan_q", [x], lambda a: np.quantile(a, nan))
    case("quantile_complex", [x + 1j], lambda a: np.quantile(a, 0.5))
    case("quantile_bad_method", [x], lambda a: np.quantile(a, 0.5, method="cubic"))
    case("quantile_axis", [x], lambda a: np.quantile(a, 0.5, axis=2))
    case("quantile_0d", [np.array(3.5)], lambda a: np.quantile(a, 0.5))
    case("percentile", [x, qs * 100], lambda a, p: np.percentile(a, p, axis=0))
    case("percentile_scalar", [ints], lambda a: np.percentile(a, 40))
    case("percentile_bad", [x], lambda a: np.percentile(a, 101))
    case("nanpercentile", [withnan], lambda a: np.nanpercentile(a, 75, axis=1))
    case("nanquantile_ints", [ints], lambda a: np.nanquantile(a, 0.5, axis=0))
    case("nanmedian", [withnan], lambda a: np.nanmedian(a, axis=1))
    case("nanmedian_all", [withnan], np.nanmedian)
    case("nanmedian_axis0_keepdims", [withnan], lambda a: np.nanmedian(a, axis=0, keepdims=True))
    case("nanmedian_float32", [withnan.astype(np.float32)], lambda a: np.nanmedian(a, axis=1))
    case("nanmedian_ints", [ints], lambda a: np.nanmedian(a, axis=1))

    # Histograms.
    data = rng.standard_normal(200)
    weights = rng.random(200)
    case("histogram", [data], np.histogram)
    case("histogram_bins", [data], lambda a: np.histogram(a, bins=7))
    case("histogram_range", [data], lambda a: np.histogram(a, bins=5, range=(-1.0, 1.0)))
    case("histogram_weights", [data, weights], lambda a, wt: np.histogram(a, bins=6, weights=wt))
    case("histogram_density", [data], lambda a: np.histogram(a, bins=6, density=True))
    case("histogram_float32", [data.astype(np.float32)], lambda a: np.histogram(a, bins=4))
    case("histogram_ints", [ints], lambda a: np.histogram(a, bins=5))
    case("histogram_constant", [np.full(5, 2.0)], lambda a: np.histogram(a, bins=4))
    case("histogram_empty", [np.zeros(0)], lambda a: np.histogram(a, bins=3))
    case("histogram_edges", [data, np.array([-3.0, -1.0, 0.0, 0.5, 3.0])], lambda a, e: np.histogram(a, bins=e))
    case("histogram_edges_weights", [data, np.array([-3.0, -1.0, 0.0, 0.5, 3.0]), weights],
         lambda a, e, wt: np.histogram(a, bins=e, weights=wt))
    case("histogram_edges_density", [data, np.array([-2.0, 0.0, 0.5, 2.0])],
         lambda a, e: np.histogram(a, bins=e, density=True))
    case("histogram_edges_decreasing", [data, np.array([1.0, 0.0])], lambda a, e: np.histogram(a, bins=e))
    case("histogram_nan", [np.array([1.0, nan])], np.histogram)
    case("histogram_bad_range", [data], lambda a: np.histogram(a, range=(1.0, 0.0)))
    case("histogram_zero_bins", [data], lambda a: np.histogram(a, bins=0))
    case("histogram_weights_shape", [data, weights[:10].copy()], lambda a, wt: np.histogram(a, weights=wt))
    pts = rng.standard_normal((300, 2))
    case("histogram2d", [pts[:, 0].copy(), pts[:, 1].copy()], lambda a, b: np.histogram2d(a, b, bins=4))
    case("histogram2d_bins", [pts[:, 0].copy(), pts[:, 1].copy()], lambda a, b: np.histogram2d(a, b, bins=[3, 5]))
    case("histogram2d_range_density", [pts[:, 0].copy(), pts[:, 1].copy()],
         lambda a, b: np.histogram2d(a, b, bins=3, range=[[-1, 1], [-2, 2]], density=True))
    case("histogram2d_weights", [pts[:, 0].copy(), pts[:, 1].copy(), weights[:150].repeat(2)],
         lambda a, b, wt: np.histogram2d(a, b, bins=3, weights=wt))
    case("histogram2d_edges", [pts[:, 0].copy(), pts[:, 1].copy(), np.array([-1.0, 0.0, 1.0]),
                               np.array([-2.0, 0.0, 0.5, 2.0])],
         lambda a, b, ex, ey: np.histogram2d(a, b, bins=[ex, ey]))
    case("histogram2d_length", [pts[:, 0].copy(), pts[:10, 1].copy()], lambda a, b: np.histogram2d(a, b))
    p3 = rng.standard_normal((100, 3))
    case("histogramdd", [p3], lambda s: np.histogramdd(s, bins=[2, 3, 4]))
    case("histogramdd_density", [p3], lambda s: np.histogramdd(s, bins=3, density=True))
    case("histogramdd_ints", [rng.integers(0, 5, (40, 2))], lambda s: np.histogramdd(s, bins=4))

    # digitize.
    vals = np.array([-1.0, 0.0, 0.2, 1.0, 1.5, 2.5, 4.0, nan])
    case("digitize", [vals, np.array([0.0, 1.0, 2.5, 4.0])], np.digitize)
    case("digitize_right", [vals, np.array([0.0, 1.0, 2.5, 4.0])], lambda v, b: np.digitize(v, b, right=True))
    case("digitize_decreasing", [vals, np.array([4.0, 2.5, 1.0, 0.0])], np.digitize)
    case("digitize_decreasing_right", [vals, np.array([4.0, 2.5, 1.0, 0.0])],
         lambda v, b: np.digitize(v, b, right=True))
    case("digitize_ints", [ints, np.array([-10, 0, 10])], np.digitize)
    case("digitize_not_monotonic", [vals, np.array([0.0, 2.0, 1.0])], np.digitize)
    case("digitize_complex", [vals + 1j, np.array([0.0, 1.0])], np.digitize)

    # cov and corrcoef.
    obs = rng.standard_normal((3, 10))
    case("cov", [obs], np.cov)
    case("cov_rowvar", [obs.T.copy()], lambda m: np.cov(m, rowvar=False))
    case("cov_y", [obs[0].copy(), obs[1].copy()], np.cov)
    case("cov_bias", [obs], lambda m: np.cov(m, bias=True))
    case("cov_ddof", [obs], lambda m: np.cov(m, ddof=3))
    case("cov_1d", [obs[0].copy()], np.cov)
    case("cov_ints", [ints], np.cov)
    case("cov_complex", [obs + 1j * obs[::-1]], np.cov)
    case("cov_3d", [np.zeros((2, 2, 2))], np.cov)
    case("corrcoef", [obs], np.corrcoef)
    case("corrcoef_y", [obs[0].copy(), obs[2].copy()], np.corrcoef)
    case("corrcoef_rowvar", [obs.T.copy()], lambda m: np.corrcoef(m, rowvar=False))
    case("corrcoef_1d", [obs[0].copy()], np.corrcoef)
    case("corrcoef_complex", [obs + 1j * obs[::-1]], np.corrcoef)

    # Every function on an empty and a 0-d input: NumPy's result, or its error.
    edges = {"empty": np.zeros((0,)), "0d": np.array(0.75)}
    for kind, e in edges.items():
        for name, fn in EDGE_CALLS.items():
            case(f"edge_{name}_{kind}", [e], fn)
    w.finish()


if __name__ == "__main__":
    main()
