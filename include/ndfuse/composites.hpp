// NumPy functions that NumPy itself writes in Python over its ufuncs: built here from ndfuse's ops,
// in NumPy's order of operations, so that they fuse like any expression and round as NumPy does.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

// Comparisons. isclose: |a - b| <= atol + rtol * |b| where b is finite, or a == b (b is first made
// inexact, as NumPy's result_type(b, 1.0)); equal_nan counts two NaNs equal.
array isclose(const array& a, const array& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);
bool allclose(const array& a, const array& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);
// Same shape and elements (equal_nan: NaN equals NaN); array_equiv: broadcastable and equal.
bool array_equal(const array& a, const array& b, bool equal_nan = false);
bool array_equiv(const array& a, const array& b);
// Real inputs only (dtype_error for complex, as NumPy's TypeError).
array isposinf(const array& x);
array isneginf(const array& x);
// Per element: a nonzero imaginary part (iscomplex) or none (isreal); real dtypes give all false / true.
array iscomplex(const array& x);
array isreal(const array& x);
// Whether the dtype is complex (iscomplexobj) or not (isrealobj).
bool iscomplexobj(const array& x);
bool isrealobj(const array& x);

// Angles and other elementwise functions. Integer and bool inputs compute in the float dtype NumPy's
// ufunc loops pick (int8 and bool: float16; int16: float32; wider: float64); complex inputs throw
// dtype_error, as NumPy's TypeError.
array deg2rad(const array& x);
array radians(const array& x);
array rad2deg(const array& x);
array degrees(const array& x);
array fabs(const array& x);
// sin(pi x) / (pi x), 1 at 0 (NumPy's sinc, through x = 1e-20 at 0).
array sinc(const array& x);
// Rounded toward zero: floor for x >= 0, ceil below (integers stay integers, as NumPy 2's).
array fix(const array& x);
// 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0, NaN where x1 is NaN; in the float loop of both.
array heaviside(const array& x1, const operand& x2);

// Functions of several results or mixed-dtype loops. frexp: mantissa in [0.5, 1) with x's sign and
// the int32 exponent, x = m * 2^e; modf: the fraction and the whole part, each with x's sign;
// divmod: floor_divide and remainder. ldexp: x1 * 2^x2 for an integer x2 (dtype_error otherwise).
// Integer and bool x take the float loop NumPy picks, as deg2rad's.
std::pair<array, array> frexp(const array& x);
std::pair<array, array> modf(const array& x);
std::pair<array, array> divmod(const operand& a, const operand& b);
array ldexp(const array& x1, const array& x2);
array ldexp(const array& x1, std::int64_t x2);
// a ** b in float64, or complex128 where either is complex.
array float_power(const operand& a, const operand& b);
// NaN -> nan, +inf -> posinf, -inf -> neginf (the dtype's largest finite values by default), in
// the real and imaginary parts alike; integer and bool arrays come back unchanged.
array nan_to_num(const array& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt);
// The modified Bessel function of the first kind, order 0 (NumPy's Chebyshev expansions; integers
// compute in float64; complex throws dtype_error).
array i0(const array& x);

// The array API's names for existing functions.
array concat(const std::vector<array>& arrays, int axis = 0);
array astype(const array& x, dtype t);  // x.astype(t)
array permute_dims(const array& a, const std::vector<int>& axes);
// The last two axes swapped (value_error below 2 dims).
array matrix_transpose(const array& a);
// cumsum / cumprod along `axis` (which may be left out only for 1-d input); include_initial
// starts each with the identity, so the axis grows by one.
array cumulative_sum(const array& x, std::optional<int> axis = std::nullopt, reduce_dtype dt = std::nullopt,
                     bool include_initial = false);
array cumulative_prod(const array& x, std::optional<int> axis = std::nullopt, reduce_dtype dt = std::nullopt,
                      bool include_initial = false);
int ndim(const array& a);
shape_t shape(const array& a);
std::int64_t size(const array& a);

// cumsum / cumprod with NaN counted as 0 / 1 (flattened without an axis, as cumsum).
array nancumsum(const array& a, std::optional<int> axis = std::nullopt, reduce_dtype dt = std::nullopt);
array nancumprod(const array& a, std::optional<int> axis = std::nullopt, reduce_dtype dt = std::nullopt);

// The choice of the first true condition per element, else `otherwise` (NumPy's select(condlist,
// choicelist, default)); conditions must be bool (dtype_error) and as many as the choices.
array select(const std::vector<array>& conditions, const std::vector<array>& choices, scalar otherwise = 0);

// Flat C-order indices -> one int64 index array per dimension of `shape`, and back. Indices out of
// bounds throw value_error at the call (they are read to check).
std::vector<array> unravel_index(const array& indices, const shape_t& shape);
array ravel_multi_index(const std::vector<array>& multi_index, const shape_t& dims);

// base ** linspace(start, stop, num, endpoint).
array logspace(double start, double stop, std::int64_t num = 50, bool endpoint = true, double base = 10.0);

// The median along `axis` (the flattened array without one): the middle element of the sorted
// values, or the mean of the two middle ones; NaN where a slice holds NaN or is empty. Integers and
// bool give float64, as NumPy's.
array median(const array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);

// Sets. isin: per element of `element`, whether it occurs in `test_elements` (NaN never does);
// the others return sorted unique values of the flattened inputs.
array isin(const array& element, const array& test_elements, bool invert = false);
array union1d(const array& a, const array& b);
array intersect1d(const array& a, const array& b);
array setdiff1d(const array& a, const array& b);
array setxor1d(const array& a, const array& b);

// Differences and joins.
// The n-th discrete difference along `axis` (not_equal for bool, as NumPy).
array diff(const array& a, int n = 1, int axis = -1);
// Differences of the flattened array, with optional values before and after.
array ediff1d(const array& a, const std::optional<array>& to_end = std::nullopt,
              const std::optional<array>& to_begin = std::nullopt);
// values after arr: flattened both (no axis), or joined along `axis`.
array append(const array& arr, const array& values);
array append(const array& arr, const array& values, int axis);
// split along axis 1 (0 for 1-d), 0, and 2; value_error where the array has too few dims.
std::vector<array> hsplit(const array& a, std::int64_t sections);
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> vsplit(const array& a, std::int64_t sections);
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> dsplit(const array& a, std::int64_t sections);
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices);

// Triangles. tri: ones at and below the k-th diagonal of an n x m matrix (m = n by default).
array tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
          dtype t = dtype::float64);
// The row and column indices (int64) of the lower / upper triangle, as NumPy's tuples.
std::vector<array> tril_indices(std::int64_t n, std::int64_t k = 0,
                                std::optional<std::int64_t> m = std::nullopt);
std::vector<array> triu_indices(std::int64_t n, std::int64_t k = 0,
                                std::optional<std::int64_t> m = std::nullopt);
// arange(n), `ndim` times: the indices of the main diagonal of an n x ... x n array.
std::vector<array> diag_indices(std::int64_t n, int ndim = 2);

// Cross products of 3-element vectors along `axis` of each (and of the result); the vectors
// broadcast. Other lengths throw value_error, as NumPy 2.5's (2-element vectors were deprecated).
array cross(const array& a, const array& b, int axis = -1);

namespace linalg {
array matmul(const array& a, const array& b);                // nf::matmul
array matrix_transpose(const array& a);                      // nf::matrix_transpose
array cross(const array& a, const array& b, int axis = -1);  // nf::cross
}  // namespace linalg

}  // namespace ndfuse
