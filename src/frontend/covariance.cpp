// cov and corrcoef (include/ndfuse/statistics.hpp), as NumPy's lib/_function_base_impl: the rows
// centred on their means, X @ X^H through the BLAS, scaled by 1 / (n - ddof).
#include <string>

#include "frontend/operands_device.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"
#include "ndfuse/statistics.hpp"

namespace ndfuse {

array cov(const array& m, const std::optional<array>& y, bool rowvar, bool bias,
          std::optional<std::int64_t> ddof) {
  const frontend::operands_device on_their_device(m, y);
  if (m.ndim() > 2) throw value_error("cov: m has more than 2 dimensions");
  if (y && y->ndim() > 2) throw value_error("cov: y has more than 2 dimensions");
  const dtype t = promote_types(y ? promote_types(m.dtype(), y->dtype()) : m.dtype(), dtype::float64);
  array x = atleast_2d(m.astype(t));
  if (!rowvar && m.ndim() != 1) x = x.T();
  if (x.shape()[0] == 0) return zeros({0, 0}, t);
  if (y) {
    array yy = atleast_2d(y->astype(t));
    if (!rowvar && yy.shape()[0] != 1) yy = yy.T();
    x = concatenate({x, yy}, 0);
  }
  const std::int64_t d = ddof.value_or(bias ? 0 : 1);
  double fact = static_cast<double>(x.shape()[1] - d);
  if (fact <= 0) fact = 0.0;  // NumPy warns "Degrees of freedom <= 0" and divides by zero
  x = x - expand_dims(mean(x, 1), 1);
  array c = matmul(x, conj(x.T()));
  c = c * (1.0 / fact);
  return squeeze(c);
}

array corrcoef(const array& x, const std::optional<array>& y, bool rowvar) {
  array c = cov(x, y, rowvar);
  if (c.ndim() == 0) return c / c;  // a single variable: NumPy's scalar covariance
  const array stddev = sqrt(real(diagonal(c)));
  c = c / expand_dims(stddev, 1);
  c = c / expand_dims(stddev, 0);
  if (!is_complex(c.dtype())) return clip(c, -1, 1);
  // NumPy clips the real and imaginary parts in place; only values with a part outside [-1, 1]
  // (finite, so re + 1j im rebuilds them exactly) change.
  const array re = real(c), im = imag(c);
  const array outside = greater(abs(re), 1) | greater(abs(im), 1);
  const array rebuilt = clip(re, -1, 1) + clip(im, -1, 1) * std::complex<double>(0, 1);
  return where(outside, rebuilt.astype(c.dtype()), c);
}

}  // namespace ndfuse
