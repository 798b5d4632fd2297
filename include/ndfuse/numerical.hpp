// Numerical functions NumPy writes in Python: window functions, convolution and correlation,
// interpolation, calculus (trapezoid, gradient, unwrap) and the polynomial functions. Built from
// fusing ops in NumPy's order of operations, so they round as NumPy's do; sums that NumPy hands to
// its BLAS dot or pairwise summation round in ndfuse's own order.
#pragma once
#include <cstdint>
#include <numbers>
#include <optional>
#include <string_view>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse {

// Windows of M points (float64; empty for M < 1, [1] for M == 1).
array bartlett(std::int64_t M);
array blackman(std::int64_t M);
array hamming(std::int64_t M);
array hanning(std::int64_t M);
array kaiser(std::int64_t M, double beta);

// Discrete, linear convolution and cross-correlation of two 1-D arrays; mode "full" (n + m - 1
// values), "same" (max(n, m)) or "valid" (max - min + 1). correlate conjugates v, as NumPy 2's:
// c[k] = sum_n a[n + k] conj(v[n]). Empty inputs and other modes throw value_error.
array convolve(const array& a, const array& v, std::string_view mode = "full");
array correlate(const array& a, const array& v, std::string_view mode = "valid");

// The piecewise-linear interpolant of (xp, fp) at x (xp increasing; float64, or complex128 for
// complex fp). x below xp[0] gives left (fp[0] by default), above xp[-1] right (fp[-1]); with a
// period, x and xp are taken modulo it and left/right are unused. The real and imaginary parts of
// a complex fp interpolate apart and are joined as re + 1j * im.
array interp(const array& x, const array& xp, const array& fp, std::optional<double> left = std::nullopt,
             std::optional<double> right = std::nullopt, std::optional<double> period = std::nullopt);

// The integral of y along `axis` by the trapezoidal rule, with sample spacing dx or sample points x
// (1-D along the axis, or y's shape).
array trapezoid(const array& y, double dx = 1.0, int axis = -1);
array trapezoid(const array& y, const array& x, int axis = -1);

// The gradient of f along each of `axis` (every axis by default): central differences inside,
// one-sided ones of order edge_order (1 or 2) at the ends; one result per axis, each of f's shape
// (float64 for integer f). The spacing comes second, as NumPy's varargs: one dx for every axis
// (weak, as a Python float), or one per axis, each a 0-d array (a strong scalar, as NumPy's
// numpy.float64) or the 1-D coordinates along the axis.
std::vector<array> gradient(const array& f, double dx = 1.0, axes axis = {}, int edge_order = 1);
std::vector<array> gradient(const array& f, const std::vector<array>& spacing, axes axis = {},
                            int edge_order = 1);

// p with each jump larger than discont (period / 2 by default) along `axis` replaced by its
// complement modulo period.
array unwrap(const array& p, std::optional<double> discont = std::nullopt, int axis = -1,
             double period = 2 * std::numbers::pi);

// Polynomials as coefficient arrays, highest power first (numpy's poly* functions, not
// numpy.polynomial). polyval: p's polynomial at x, by Horner's rule. polyadd, polysub: of arrays
// of any lengths; polymul: their convolution (leading zeros dropped first). poly: the coefficients
// of the polynomial with the given roots (or a square matrix's eigenvalues); roots: the
// eigenvalues of the companion matrix (complex where any root is). polyfit: the least-squares fit
// of degree deg, with optional weights (rcond: len(x) * eps by default).
array polyval(const array& p, const array& x);
array polyadd(const array& a1, const array& a2);
array polysub(const array& a1, const array& a2);
array polymul(const array& a1, const array& a2);
array poly(const array& seq_of_zeros);
array roots(const array& p);
array polyfit(const array& x, const array& y, std::int64_t deg, std::optional<double> rcond = std::nullopt,
              const std::optional<array>& w = std::nullopt);
// The Vandermonde matrix: columns x^(N-1), ..., x, 1 (increasing: 1, x, ..., x^(N-1)); N = len(x) by default.
array vander(const array& x, std::optional<std::int64_t> N = std::nullopt, bool increasing = false);

}  // namespace ndfuse
