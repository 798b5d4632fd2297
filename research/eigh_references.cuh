// The references of eigh_registers.cu: cuSOLVER's syevjBatched (float and double, column-major
// upper = C-order lower), the accuracy of one eigendecomposition against its matrix, and special
// matrices Jacobi finds hard or easy. Host code, besides the cuSOLVER calls.
#pragma once
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver_common.cuh"

template <class T>
void syevj_call(cusolverDnHandle_t h, int n, T* A, T* W, T* wk, int lw, int* info, syevjInfo_t p, int count) {
  const auto job = CUSOLVER_EIG_MODE_VECTOR;
  const auto up = CUBLAS_FILL_MODE_UPPER;  // column-major upper = C-order lower
  if constexpr (std::is_same_v<T, float>)
    SOLVER(cusolverDnSsyevjBatched(h, job, up, n, A, n, W, wk, lw, info, p, count));
  else
    SOLVER(cusolverDnDsyevjBatched(h, job, up, n, A, n, W, wk, lw, info, p, count));
}
template <class T>
int syevj_size(cusolverDnHandle_t h, int n, T* A, T* W, syevjInfo_t p, int count) {
  int lw = 0;
  const auto job = CUSOLVER_EIG_MODE_VECTOR;
  const auto up = CUBLAS_FILL_MODE_UPPER;
  if constexpr (std::is_same_v<T, float>)
    SOLVER(cusolverDnSsyevjBatched_bufferSize(h, job, up, n, A, n, W, &lw, p, count));
  else
    SOLVER(cusolverDnDsyevjBatched_bufferSize(h, job, up, n, A, n, W, &lw, p, count));
  return lw;
}

struct accuracy {
  double residual = 0, orthogonality = 0, eig_diff = 0;
  int unsorted = 0, bad_info = 0;
  bool nan_seen = false;
};

// One matrix: ||A V - V diag(w)||_F / ||A||_F and ||V^T V - I||_F, A full (n x n, C order), V's
// columns the rows of vec (rows_are_vectors) or its columns. Computed on A / max|A_ij| (and w alike)
// so that matrices near the ends of the exponent range neither overflow nor underflow here; a zero
// matrix gives the absolute residual.
template <class T>
std::pair<double, double> matrix_errors(const double* A, const T* vec, const T* w, int n,
                                        bool rows_are_vectors) {
  double scale = 0;
  for (int e = 0; e < n * n; ++e) scale = std::max(scale, std::fabs(A[e]));
  if (scale == 0) scale = 1;
  std::vector<double> V(std::size_t(n) * n);  // V(i, k): component i of eigenvector k
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) V[i * n + k] = double(rows_are_vectors ? vec[k * n + i] : vec[i * n + k]);
  double res = 0, norm = 0, orth = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double av = 0, vv = 0;
      for (int k = 0; k < n; ++k)
        av += A[i * n + k] / scale * V[k * n + j], vv += V[k * n + i] * V[k * n + j];
      res += std::pow(av - V[i * n + j] * (double(w[j]) / scale), 2);
      norm += std::pow(A[i * n + j] / scale, 2);
      orth += std::pow(vv - (i == j ? 1.0 : 0.0), 2);
    }
  return {std::sqrt(res / (norm > 0 ? norm : 1.0)), std::sqrt(orth)};
}

// Over the stack (skipping `skip`): the worst matrix_errors (the lower triangle is the matrix);
// eigenvalues ascending; and, given reference eigenvalues, max |w - w_ref| / ||A||_F.
template <class T>
accuracy check(const std::vector<T>& a, const std::vector<T>& vec, const std::vector<T>& w,
               const std::vector<int>& info, const std::vector<T>* w_ref, int n, int count, int skip,
               bool rows_are_vectors = true) {
  accuracy r;
  const std::size_t per = std::size_t(n) * n;
  std::vector<double> A(per);
  for (int b = 0; b < count; ++b) {
    if (b == skip) continue;
    if (info[b] != 0) ++r.bad_info;
    double norm = 0, diff = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        A[i * n + j] = i >= j ? double(a[b * per + i * n + j]) : double(a[b * per + j * n + i]);
        norm += A[i * n + j] * A[i * n + j];
      }
    for (int k = 0; k < n; ++k) {
      const double wk = w[std::size_t(b) * n + k];
      if (std::isnan(wk)) r.nan_seen = true;
      if (k > 0 && !(w[std::size_t(b) * n + k - 1] <= wk)) ++r.unsorted;
      if (w_ref) diff = std::max(diff, std::fabs(wk - double((*w_ref)[std::size_t(b) * n + k])));
    }
    const auto [res, orth] =
        matrix_errors(A.data(), &vec[b * per], &w[std::size_t(b) * n], n, rows_are_vectors);
    r.residual = std::max(r.residual, res);
    r.orthogonality = std::max(r.orthogonality, orth);
    r.eig_diff = std::max(r.eig_diff, diff / std::sqrt(norm));
  }
  return r;
}

namespace special {

constexpr int kinds = 10;
constexpr const char* names[kinds] = {"zero",     "identity", "ones",         "random*big", "random*tiny",
                                      "diagonal", "tridiag",  "repeated eig", "graded",     "one huge diag"};

// An n x n symmetric test matrix (full, C order) of the given kind: ones that take the rotation's
// slow path (entries beyond 2^+-250 in float64, 2^+-60 in float32), ones that need no rotation, and
// ones with repeated eigenvalues or a wide range.
template <class T>
std::vector<double> matrix(int kind, int n, std::mt19937_64& gen) {
  std::normal_distribution<double> d;
  std::vector<double> a(std::size_t(n) * n, 0.0);
  auto sym_random = [&](double scale) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) a[i * n + j] = a[j * n + i] = scale * d(gen);
  };
  const bool f64 = sizeof(T) == 8;
  switch (kind) {
    case 0:
      break;
    case 1:
      for (int i = 0; i < n; ++i) a[i * n + i] = 1;
      break;
    case 2:
      std::fill(a.begin(), a.end(), 1.0);
      break;
    case 3:
      sym_random(f64 ? 1e200 : 1e30);
      break;
    case 4:
      sym_random(f64 ? 1e-200 : 1e-30);
      break;
    case 5:
      for (int i = 0; i < n; ++i) a[i * n + i] = d(gen);
      break;
    case 6:
      for (int i = 0; i < n; ++i) {
        a[i * n + i] = 2;
        if (i + 1 < n) a[i * n + i + 1] = a[(i + 1) * n + i] = -1;
      }
      break;
    case 7: {  // Q diag(-1, 1, 2, -1, 1, 2, ...) Q^T with Q orthonormalized Gaussian columns
      std::vector<double> q(std::size_t(n) * n);
      for (auto& x : q) x = d(gen);
      for (int k = 0; k < n; ++k) {  // column k, modified Gram-Schmidt, twice
        for (int pass = 0; pass < 2; ++pass)
          for (int l = 0; l < k; ++l) {
            double dot = 0;
            for (int i = 0; i < n; ++i) dot += q[i * n + l] * q[i * n + k];
            for (int i = 0; i < n; ++i) q[i * n + k] -= dot * q[i * n + l];
          }
        double nrm = 0;
        for (int i = 0; i < n; ++i) nrm += q[i * n + k] * q[i * n + k];
        nrm = std::sqrt(nrm);
        for (int i = 0; i < n; ++i) q[i * n + k] /= nrm;
      }
      const double lam[3] = {-1, 1, 2};
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double x = 0;
          for (int k = 0; k < n; ++k) x += q[i * n + k] * lam[k % 3] * q[j * n + k];
          a[i * n + j] = x;
        }
      for (int i = 0; i < n; ++i)  // exactly symmetric
        for (int j = 0; j < i; ++j) a[j * n + i] = a[i * n + j];
      break;
    }
    case 8:
      sym_random(1.0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) a[i * n + j] = std::ldexp(a[i * n + j], -(i + j));
      break;
    case 9:
      sym_random(1.0);
      a[0] = 1e8;
      break;
  }
  return a;
}

}  // namespace special
