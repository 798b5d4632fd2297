// ndfuse device prelude: transcendental ops on complex numbers, as overloads of the real ones in
// nf_math.cuh. NumPy calls the C library's c* functions here (glibc's on Linux); these follow the
// C99 Annex G special values and the well-conditioned formulas of FreeBSD's msun (csqrt, csinh,
// ccosh, ctanh) and of Hull, Fairgrieve and Tang (casin, cacos). Results agree with glibc to a few
// ulp, not bit for bit. exp2, expm1, log2, log10, log1p and power use NumPy's own formulas.
#ifndef NF_COMPLEX_MATH_CUH
#define NF_COMPLEX_MATH_CUH
#include "nf_arith.cuh"
#include "nf_math.cuh"

// Thresholds by precision: where squares overflow, and where asin(z) == z to working precision.
template <class R>
__device__ __forceinline__ R nf_big_threshold() {
  if constexpr (sizeof(R) == 4)
    return R(1e18f);
  else
    return R(1e150);
}
template <class R>
__device__ __forceinline__ R nf_tiny_threshold() {
  if constexpr (sizeof(R) == 4)
    return R(2e-4f);
  else
    return R(9e-9);
}
template <class R>
__device__ __forceinline__ R nf_pi() {
  return R(3.141592653589793238462643383279502884);
}

// --- exp, log, sqrt ------------------------------------------------------------------------------------
template <class R>
__device__ __forceinline__ nf_complex<R> nf_exp(nf_complex<R> z) {
  const R x = z.re, y = z.im;
  if (y == 0) return nf_cplx<R>(nf_exp(x), y);
  if (!isfinite(y)) {
    if (isinf(x) && x < 0) return nf_cplx<R>(R(0), copysign(R(0), y));
    if (isinf(x)) return nf_cplx<R>(x, y - y);
    return nf_cplx<R>(y - y, y - y);
  }
  if (x > (sizeof(R) == 4 ? R(88) : R(709))) {
    // exp(x) alone overflows while exp(x) * cos(y) may not: scale by exp(x / 2) twice.
    const R h = nf_exp(x * R(0.5));
    return nf_cplx<R>((h * nf_cos(y)) * h, (h * nf_sin(y)) * h);
  }
  const R e = nf_exp(x);
  return nf_cplx<R>(e * nf_cos(y), e * nf_sin(y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_log(nf_complex<R> z) {
  const R ax = fabs(z.re), ay = fabs(z.im);
  const R big = ax > ay ? ax : ay, small = ax > ay ? ay : ax;
  R re;
  if (big > R(0.5) && big < R(2)) {
    // Near |z| == 1, log|z| = log1p(|z|^2 - 1) / 2 keeps the digits that log(hypot) would cancel.
    re = R(0.5) * nf_log1p((big - R(1)) * (big + R(1)) + small * small);
  } else {
    re = nf_log(nf_hypot(z.re, z.im));
  }
  return nf_cplx<R>(re, nf_arctan2(z.im, z.re));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_sqrt(nf_complex<R> z) {
  R a = z.re, b = z.im;
  const R inf = R(1) / R(0);
  if (a == 0 && b == 0) return nf_cplx<R>(R(0), b);
  if (isinf(b)) return nf_cplx<R>(inf, b);
  if (isnan(a)) return nf_cplx<R>(a, (b - b) / (b - b));
  if (isinf(a)) {
    if (signbit(a)) return nf_cplx<R>(fabs(b - b), copysign(a, b));
    return nf_cplx<R>(a, copysign(b - b, b));
  }
  // A NaN b goes through the normal path. Scale down where a + hypot(a, b) could overflow.
  const bool scale = fabs(a) >= nf_big_threshold<R>() * nf_big_threshold<R>() ||
                     fabs(b) >= nf_big_threshold<R>() * nf_big_threshold<R>();
  if (scale) {
    a *= R(0.25);
    b *= R(0.25);
  }
  nf_complex<R> r;
  if (a >= 0) {
    const R t = nf_sqrt((a + nf_hypot(a, b)) * R(0.5));
    r = nf_cplx<R>(t, b / (2 * t));
  } else {
    const R t = nf_sqrt((-a + nf_hypot(a, b)) * R(0.5));
    r = nf_cplx<R>(fabs(b) / (2 * t), copysign(t, b));
  }
  if (scale) r = nf_cplx<R>(r.re * 2, r.im * 2);
  return r;
}

// NumPy's formulas on top of exp and log.
template <class R>
__device__ __forceinline__ nf_complex<R> nf_exp2(nf_complex<R> z) {
  const R ln2 = R(0.693147180559945309417232121458176568);
  return nf_exp(nf_cplx<R>(z.re * ln2, z.im * ln2));
}
template <class R>
__device__ __forceinline__ nf_complex<R> nf_expm1(nf_complex<R> z) {
  const R s = nf_sin(z.im / 2);
  return nf_cplx<R>(nf_expm1(z.re) * nf_cos(z.im) - 2 * s * s, nf_exp(z.re) * nf_sin(z.im));
}
template <class R>
__device__ __forceinline__ nf_complex<R> nf_log2(nf_complex<R> z) {
  const R log2e = R(1.442695040888963407359924681001892137);
  const nf_complex<R> l = nf_log(z);
  return nf_cplx<R>(l.re * log2e, l.im * log2e);
}
template <class R>
__device__ __forceinline__ nf_complex<R> nf_log10(nf_complex<R> z) {
  const R log10e = R(0.434294481903251827651128918916605082);
  const nf_complex<R> l = nf_log(z);
  return nf_cplx<R>(l.re * log10e, l.im * log10e);
}
template <class R>
__device__ __forceinline__ nf_complex<R> nf_log1p(nf_complex<R> z) {
  const R x1 = z.re + R(1);
  return nf_cplx<R>(nf_log(nf_hypot(x1, z.im)), nf_arctan2(z.im, x1));
}

// The product C compilers emit for complex `*` (libgcc's __muldc3): textbook, plus C99 Annex G's
// recovery of infinities from NaN results. glibc's cpow multiplies this way.
template <class R>
__device__ __forceinline__ nf_complex<R> nf_cmul_c99(nf_complex<R> z, nf_complex<R> w) {
  R a = z.re, b = z.im, c = w.re, d = w.im;
  const R ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  R x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    bool recalc = false;
    if (isinf(a) || isinf(b)) {
      a = copysign(isinf(a) ? R(1) : R(0), a);
      b = copysign(isinf(b) ? R(1) : R(0), b);
      if (isnan(c)) c = copysign(R(0), c);
      if (isnan(d)) d = copysign(R(0), d);
      recalc = true;
    }
    if (isinf(c) || isinf(d)) {
      c = copysign(isinf(c) ? R(1) : R(0), c);
      d = copysign(isinf(d) ? R(1) : R(0), d);
      if (isnan(a)) a = copysign(R(0), a);
      if (isnan(b)) b = copysign(R(0), b);
      recalc = true;
    }
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      if (isnan(a)) a = copysign(R(0), a);
      if (isnan(b)) b = copysign(R(0), b);
      if (isnan(c)) c = copysign(R(0), c);
      if (isnan(d)) d = copysign(R(0), d);
      recalc = true;
    }
    if (recalc) {
      const R inf = R(1) / R(0);
      x = inf * (a * c - b * d);
      y = inf * (a * d + b * c);
    }
  }
  return nf_cplx<R>(x, y);
}

// npy_cpow: exact special cases and repeated multiplication for small integer exponents, otherwise
// exp(b * log(a)) as the C library's cpow.
template <class R>
__device__ __forceinline__ nf_complex<R> nf_power(nf_complex<R> a, nf_complex<R> b) {
  const R br = b.re, bi = b.im;
  if (br == 0 && bi == 0) return nf_cplx<R>(R(1), R(0));
  if (a.re == 0 && a.im == 0) {
    if (br > 0) return nf_cplx<R>(R(0), R(0));
    return nf_cplx<R>(R(0) / R(0), R(0) / R(0));
  }
  if (bi == 0 && br > -100 && br < 100 && (R)(int)br == br) {
    int n = (int)br;
    if (n == 1) return a;
    if (n == 2) return nf_cmul_plain(a, a);
    if (n == 3) return nf_cmul_plain(a, nf_cmul_plain(a, a));
    if (n < 0) n = -n;
    nf_complex<R> acc = nf_cplx<R>(R(1), R(0));
    nf_complex<R> p = a;
    for (int mask = 1;; mask <<= 1) {
      if (n & mask) acc = nf_cmul_plain(acc, p);
      if (n < (mask << 1)) break;
      p = nf_cmul_plain(p, p);
    }
    if (br < 0) acc = nf_cdiv_smith(nf_cplx<R>(R(1), R(0)), acc);
    return acc;
  }
  return nf_exp(nf_cmul_c99(b, nf_log(a)));
}

// --- Hyperbolic functions (FreeBSD's csinh, ccosh, ctanh) ------------------------------------------------
template <class R>
__device__ __forceinline__ nf_complex<R> nf_sinh(nf_complex<R> z) {
  const R x = z.re, y = z.im;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return nf_cplx<R>(nf_sinh(x), y);
    if (fabs(x) < R(sizeof(R) == 4 ? 9 : 22))
      return nf_cplx<R>(nf_sinh(x) * nf_cos(y), nf_cosh(x) * nf_sin(y));
    // cosh(x) ~ sinh(x) ~ exp(|x|) / 2; scaled so exp does not overflow before cos/sin shrink it.
    const R h = nf_exp(fabs(x) * R(0.5));
    return nf_cplx<R>(copysign(R(1), x) * ((R(0.5) * h * nf_cos(y)) * h), (R(0.5) * h * nf_sin(y)) * h);
  }
  if (x == 0) return nf_cplx<R>(x, y - y);
  if (y == 0) return isinf(x) ? nf_cplx<R>(x, y) : nf_cplx<R>(x, copysign(R(0), y));
  if (isfinite(x)) return nf_cplx<R>(y - y, x * (y - y));
  if (isinf(x)) {
    if (!isfinite(y)) return nf_cplx<R>(x * x, x * (y - y));
    return nf_cplx<R>(x * nf_cos(y), (R(1) / R(0)) * nf_sin(y));
  }
  return nf_cplx<R>((x * x) * (y - y), (x + x) * (y - y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_cosh(nf_complex<R> z) {
  const R x = z.re, y = z.im;
  if (isfinite(x) && isfinite(y)) {
    if (y == 0) return nf_cplx<R>(nf_cosh(x), x * y);
    if (fabs(x) < R(sizeof(R) == 4 ? 9 : 22))
      return nf_cplx<R>(nf_cosh(x) * nf_cos(y), nf_sinh(x) * nf_sin(y));
    const R h = nf_exp(fabs(x) * R(0.5));
    return nf_cplx<R>((R(0.5) * h * nf_cos(y)) * h, copysign(R(1), x) * ((R(0.5) * h * nf_sin(y)) * h));
  }
  if (x == 0) return nf_cplx<R>(y - y, x * copysign(R(0), y));
  if (y == 0) return nf_cplx<R>(x * x, copysign(R(0), x) * y);
  if (isfinite(x)) return nf_cplx<R>(y - y, x * (y - y));
  if (isinf(x)) {
    if (!isfinite(y)) return nf_cplx<R>(x * x, x * (y - y));
    return nf_cplx<R>((x * x) * nf_cos(y), x * nf_sin(y));
  }
  return nf_cplx<R>((x * x) * (y - y), (x + x) * (y - y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_tanh(nf_complex<R> z) {
  const R x = z.re, y = z.im;
  if (!isfinite(x)) {
    if (isnan(x)) return nf_cplx<R>(x, y == 0 ? y : x + y);
    return nf_cplx<R>(copysign(R(1), x), copysign(R(0), isinf(y) ? y : nf_sin(y) * nf_cos(y)));
  }
  if (!isfinite(y)) return nf_cplx<R>(x != 0 ? y - y : x, y - y);
  if (fabs(x) >= R(sizeof(R) == 4 ? 9 : 22)) {
    const R e = nf_exp(-fabs(x));
    return nf_cplx<R>(copysign(R(1), x), R(4) * nf_sin(y) * nf_cos(y) * e * e);
  }
  // Kahan's formula: tanh(x + iy) from tan(y), sinh(x) and cosh(x) = sqrt(1 + sinh^2(x)).
  const R t = nf_tan(y);
  const R beta = R(1) + t * t;
  const R s = nf_sinh(x);
  const R rho = nf_sqrt(R(1) + s * s);
  const R denom = R(1) + beta * s * s;
  return nf_cplx<R>((beta * rho * s) / denom, t / denom);
}

// Trigonometric functions through the hyperbolic ones: sin(z) = -i sinh(iz), cos(z) = cosh(iz).
template <class R>
__device__ __forceinline__ nf_complex<R> nf_sin(nf_complex<R> z) {
  if (!isfinite(z.re) && isinf(z.im)) return nf_cplx<R>(z.re - z.re, R(1) / R(0));  // glibc's choice of sign
  const nf_complex<R> w = nf_sinh(nf_cplx<R>(-z.im, z.re));
  return nf_cplx<R>(w.im, -w.re);
}
template <class R>
__device__ __forceinline__ nf_complex<R> nf_cos(nf_complex<R> z) {
  return nf_cosh(nf_cplx<R>(-z.im, z.re));
}
template <class R>
__device__ __forceinline__ nf_complex<R> nf_tan(nf_complex<R> z) {
  const nf_complex<R> w = nf_tanh(nf_cplx<R>(-z.im, z.re));
  return nf_cplx<R>(w.im, -w.re);
}

// --- Inverse functions ---------------------------------------------------------------------------------
// asin and acos of x + iy for finite x, y >= 0 (Hull, Fairgrieve and Tang): the real parts of asin
// and acos, and their common imaginary part (asin's; acos's is its negative).
template <class R>
struct nf_asin_parts {
  R asin_re, acos_re, im;
};
template <class R>
__device__ __forceinline__ nf_asin_parts<R> nf_asin_core(R x, R y) {
  nf_asin_parts<R> out;
  if (x < nf_tiny_threshold<R>() && y < nf_tiny_threshold<R>()) {
    out.asin_re = x;
    out.acos_re = nf_pi<R>() / 2 - x;
    out.im = y;
    return out;
  }
  const R r = nf_hypot(x + R(1), y), s = nf_hypot(x - R(1), y);
  const R a = R(0.5) * r + R(0.5) * s;  // >= 1; halves first so huge inputs do not overflow
  const R b = x / a;
  if (b <= R(0.6417)) {
    out.asin_re = nf_arcsin(b);
    out.acos_re = nf_arccos(b);
  } else if (x <= 1) {
    const R d = nf_sqrt(R(0.5) * (a + x) * (y * y / (r + (x + R(1))) + (s + (R(1) - x))));
    out.asin_re = nf_arctan(x / d);
    out.acos_re = nf_arctan(d / x);
  } else {
    const R d = y * nf_sqrt(R(0.5) * ((a + x) / (r + (x + R(1))) + (a + x) / (s + (x - R(1)))));
    out.asin_re = nf_arctan(x / d);
    out.acos_re = nf_arctan(d / x);
  }
  if (a > nf_big_threshold<R>()) {
    out.im = nf_log(a) + R(0.693147180559945309417232121458176568);  // log(2a)
  } else if (a <= R(1.5)) {
    if (x < 1) {
      // a - 1 = y^2 c; factoring y out keeps tiny y from underflowing to a zero result.
      const R c = R(0.5) * (R(1) / (r + (x + R(1))) + R(1) / (s + (R(1) - x)));
      out.im = nf_log1p(y * y * c + y * nf_sqrt(c * (a + R(1))));
    } else {
      const R am1 = R(0.5) * (y * y / (r + (x + R(1))) + (s + (x - R(1))));
      out.im = nf_log1p(am1 + nf_sqrt(am1 * (a + R(1))));
    }
  } else {
    out.im = nf_log(a + nf_sqrt((a - R(1)) * (a + R(1))));
  }
  return out;
}

// Non-finite inputs follow glibc's c* functions, which fix the signs C99 leaves unspecified.
template <class R>
__device__ __forceinline__ nf_complex<R> nf_arcsinh(nf_complex<R> z) {
  const R x = z.re, y = z.im, inf = R(1) / R(0), nan = R(0) / R(0);
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y))
      return nf_cplx<R>(copysign(inf, x),
                        isnan(x) ? nan : copysign(isfinite(x) ? nf_pi<R>() / 2 : nf_pi<R>() / 4, y));
    if (!isfinite(x))
      return nf_cplx<R>(x, (isinf(x) && !isnan(y)) || (isnan(x) && y == 0) ? copysign(R(0), y) : nan);
    return nf_cplx<R>(nan, nan);
  }
  // asinh(x + iy) = -i asin(-y + ix); with x, y >= 0 that is (im, re) of asin(y + ix).
  const nf_asin_parts<R> p = nf_asin_core(fabs(y), fabs(x));
  return nf_cplx<R>(copysign(p.im, x), copysign(p.asin_re, y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_arcsin(nf_complex<R> z) {
  if (isnan(z.re) || isnan(z.im)) {
    const R nan = R(0) / R(0);
    if (z.re == 0) return z;
    if (isinf(z.re) || isinf(z.im)) return nf_cplx<R>(nan, copysign(R(1) / R(0), z.im));
    return nf_cplx<R>(nan, nan);
  }
  const nf_complex<R> w = nf_arcsinh(nf_cplx<R>(-z.im, z.re));  // asin(z) = -i asinh(iz)
  return nf_cplx<R>(w.im, -w.re);
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_arccos(nf_complex<R> z) {
  const R x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    const nf_complex<R> w = nf_arcsin(z);  // acos(z) = pi/2 - asin(z)
    const R re = nf_pi<R>() / 2 - w.re;
    return nf_cplx<R>(re == 0 ? R(0) : re, -w.im);
  }
  const nf_asin_parts<R> p = nf_asin_core(fabs(x), fabs(y));
  const R re = x < 0 ? nf_pi<R>() - p.acos_re : p.acos_re;
  return nf_cplx<R>(re, -copysign(p.im, y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_arccosh(nf_complex<R> z) {
  const R x = z.re, y = z.im, inf = R(1) / R(0), nan = R(0) / R(0);
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y)) {
      if (isnan(x)) return nf_cplx<R>(inf, nan);
      return nf_cplx<R>(
          inf,
          copysign(isinf(x) ? (x < 0 ? nf_pi<R>() - nf_pi<R>() / 4 : nf_pi<R>() / 4) : nf_pi<R>() / 2, y));
    }
    if (isinf(x)) return nf_cplx<R>(inf, isnan(y) ? nan : copysign(signbit(x) ? nf_pi<R>() : R(0), y));
    return nf_cplx<R>(nan, x == 0 ? nf_pi<R>() / 2 : nan);
  }
  const nf_complex<R> w = nf_arccos(z);  // acosh(z) = +-i acos(z), the sign making the real part >= 0
  return nf_cplx<R>(fabs(w.im), copysign(w.re, y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_arctanh(nf_complex<R> z) {
  const R x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return nf_cplx<R>(copysign(R(0), x), y + y);
    if (isinf(y)) return nf_cplx<R>(copysign(R(0), x), copysign(nf_pi<R>() / 2, y));
    if (x == 0) return nf_cplx<R>(x, y + y);
    return nf_cplx<R>(x + y, x + y);
  }
  if (isinf(ax) || isinf(ay)) return nf_cplx<R>(copysign(R(0), x), copysign(nf_pi<R>() / 2, y));
  if (ax > nf_big_threshold<R>() || ay > nf_big_threshold<R>()) {
    // atanh(z) ~ 1/z for large |z|: real part x / |z|^2, imaginary part +-pi/2.
    const R m = nf_hypot(ax, ay);
    return nf_cplx<R>(copysign((ax / m) / m, x), copysign(nf_pi<R>() / 2, y));
  }
  if (ax == 1 && ay == 0) return nf_cplx<R>(copysign(R(1) / R(0), x), y);
  const R re = R(0.25) * nf_log1p(R(4) * ax / ((R(1) - ax) * (R(1) - ax) + ay * ay));
  const R im = R(0.5) * nf_arctan2(R(2) * ay, (R(1) - ax) * (R(1) + ax) - ay * ay);
  return nf_cplx<R>(copysign(re, x), copysign(im, y));
}

template <class R>
__device__ __forceinline__ nf_complex<R> nf_arctan(nf_complex<R> z) {
  const nf_complex<R> w = nf_arctanh(nf_cplx<R>(-z.im, z.re));  // atan(z) = -i atanh(iz)
  return nf_cplx<R>(w.im, -w.re);
}

#endif  // NF_COMPLEX_MATH_CUH
