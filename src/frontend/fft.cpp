// nf::fft: numpy.fft as library calls (ir/library.hpp, library_op::fft) wrapped in fused elementwise
// work: the crop or zero pad, the cast to the precision NumPy computes in, and the norm's scale.
//
// NumPy defines every transform as a sequence of 1-d transforms, one axis at a time (fftn: the last
// listed axis first; irfftn: the complex axes in order, then the real one). Transforms along
// different axes commute, and so does cropping or padding along one axis with a transform along
// another, so consecutive distinct axes are grouped into one batched 2-d or 3-d library call; a
// repeated axis starts a new group, which is NumPy's "apply it again". The library transforms the
// trailing dims of a C-order operand: a group's axes are moved last (a view; the fuser writes the
// operand in that order, fused with whatever produces it) and moved back on the result (a view).
//
// irfftn's complex axes are not folded into a multi-dimensional complex-to-real call: FFTW and
// cuFFT define those only for Hermitian-symmetric input, while NumPy's sequence is defined for any.
//
// The scale: the library computes the unnormalized transform. The norm's factors (one per 1-d step,
// computed in the step's real dtype as NumPy computes them) multiply the first operand when a
// kernel writes that operand anyway (a cast, a pad, a move or any lazy producer), else the result,
// where the multiply fuses into the consumer. The scale is a weak C++ double, so it keeps the
// operand's dtype (NEP 50): a float32 or complex64 transform stays single precision.
#include "ndfuse/fft.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "frontend/gather.hpp"
#include "frontend/view.hpp"
#include "ir/host_types.hpp"
#include "ndfuse/creation.hpp"
#include "ndfuse/index.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse::fft {

using frontend::checked;
using frontend::normalize_axis;

norm_mode parse_norm(std::string_view norm) {
  if (norm == "backward") return norm_mode::backward;
  if (norm == "ortho") return norm_mode::ortho;
  if (norm == "forward") return norm_mode::forward;
  throw value_error("fft: Invalid norm value '" + std::string(norm) +
                    "'; should be \"backward\", \"ortho\" or \"forward\".");
}

namespace {

using ir::fft_kind;

// The complex dtype NumPy's pocketfft loops run in: single precision for float16, float32 and
// complex64 inputs, double for everything else (float64, complex128, integers, bool).
dtype complex_for(dtype t) {
  return t == dtype::float16 || t == dtype::bfloat16 || t == dtype::float32 || t == dtype::complex64
             ? dtype::complex64
             : dtype::complex128;
}
dtype real_part_of(dtype complex) {
  return complex == dtype::complex64 ? dtype::float32 : dtype::float64;
}

// NumPy's result_type(a.real.dtype, 1.0): the dtype the norm factor is computed in.
dtype factor_dtype(dtype t) {
  if (t == dtype::float16 || t == dtype::bfloat16) return t;
  if (t == dtype::float32 || t == dtype::complex64) return dtype::float32;
  return dtype::float64;
}

// One 1-d step's factor as NumPy's _raw_fft computes it: 1, 1/sqrt(n) or 1/n, with the direction
// swapping backward and forward for inverse steps, each operation rounded to `t`.
double factor(norm_mode norm, bool forward, std::int64_t n, dtype t) {
  if (!forward && norm != norm_mode::ortho)
    norm = norm == norm_mode::backward ? norm_mode::forward : norm_mode::backward;
  if (norm == norm_mode::backward) return 1.0;
  const bool ortho = norm == norm_mode::ortho;
  if (t == dtype::float64) return ortho ? 1.0 / std::sqrt(double(n)) : 1.0 / double(n);
  if (t == dtype::float32) return ortho ? 1.0f / std::sqrt(float(n)) : 1.0f / float(n);
  const auto half = [](float v) { return ir::half_to_float(ir::float_to_half(v)); };
  return ortho ? half(1.0f / half(std::sqrt(half(float(n))))) : half(1.0f / half(float(n)));
}

norm_mode swapped(norm_mode norm) {
  if (norm == norm_mode::backward) return norm_mode::forward;
  if (norm == norm_mode::forward) return norm_mode::backward;
  return norm;
}

void check_length(std::int64_t n, const char* op) {
  if (n < 1)
    throw value_error(std::string(op) + ": Invalid number of FFT data points (" + std::to_string(n) +
                      ") specified.");
}

// x cropped or zero-padded at the end of `axis` to length n.
array resized(const array& x, int axis, std::int64_t n) {
  const std::int64_t m = x.shape()[axis];
  if (m == n) return x;
  if (m > n) {
    std::vector<index_item> items(static_cast<std::size_t>(axis), index_item(all));
    items.emplace_back(slice(0, n));
    return index(x, items);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> width(x.shape().size(), {0, 0});
  width[static_cast<std::size_t>(axis)] = {0, n - m};
  return pad(x, width, "constant", 0);
}

// Whether the library would read `x` as it is, with no kernel writing it first: an evaluated
// C-order buffer, or another library call's output.
bool read_in_place(const array& x) {
  const auto& n = checked(x, "fft");
  if (n->materialized()) return ir::has_contiguous_strides(n->shape, n->strides);
  return n->op == ir::op_code::library;
}

// One 1-d step of NumPy's sequence.
struct step {
  int axis;
  std::int64_t n;  // the transform length
  fft_kind kind;
};

// The state threaded through the steps: the array so far, and the scale not yet applied.
struct progress {
  array x;
  double scale = 1.0;
};

// One library call transforming `group` (distinct axes; for r2c and c2r the real axis is last) of
// p.x, which is already cropped or padded and of the call's dtype (c2r: group.back()'s axis holds
// n/2+1 values).
void transform(progress& p, const std::vector<step>& group, dtype complex_dt) {
  const int nd = static_cast<int>(p.x.ndim());
  const auto is_real = [](const step& s) { return s.kind == fft_kind::r2c || s.kind == fft_kind::c2r; };
  // The transformed axes go last in the order they have in x (then no move is needed when they
  // are x's trailing axes), except that the real axis of r2c and c2r must be the last one.
  std::vector<step> dims(group);
  const auto real =
      std::stable_partition(dims.begin(), dims.end(), [&](const step& s) { return !is_real(s); });
  std::sort(dims.begin(), real, [](const step& a, const step& b) { return a.axis < b.axis; });
  const fft_kind kind = dims.back().kind;  // the real step's if there is one; else all agree
  std::vector<int> order;
  for (int d = 0; d < nd; ++d)
    if (std::none_of(dims.begin(), dims.end(), [&](const step& s) { return s.axis == d; }))
      order.push_back(d);
  std::int64_t batch = 1;
  for (int d : order) batch *= p.x.shape()[d];
  for (const auto& s : dims) order.push_back(s.axis);
  bool identity = true;
  for (int d = 0; d < nd; ++d) identity = identity && order[d] == d;
  array operand = identity ? p.x : transpose(p.x, order);
  if (p.scale != 1.0 && !read_in_place(operand)) {
    operand = multiply(operand, p.scale);
    p.scale = 1.0;
  }

  ir::library_call c;
  c.op = ir::library_op::fft;
  c.dt = complex_dt;
  c.fft.kind = kind;
  c.fft.rank = static_cast<int>(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) c.fft.dims[k] = dims[k].n;
  c.fft.batch = batch;
  c.rows = batch;
  c.length = dims.back().n;
  shape_t shape = operand.shape();
  if (kind == fft_kind::r2c) shape.back() = dims.back().n / 2 + 1;
  if (kind == fft_kind::c2r) shape.back() = dims.back().n;
  const dtype out_dt = kind == fft_kind::c2r ? real_part_of(complex_dt) : complex_dt;
  array out = frontend::library_node(c, out_dt, {operand}, shape);
  if (identity) {
    p.x = out;
  } else {
    std::vector<int> inverse(static_cast<std::size_t>(nd));
    for (int k = 0; k < nd; ++k) inverse[order[k]] = k;
    p.x = transpose(out, inverse);
  }
}

// NumPy's sequence of 1-d steps on `a`, grouped into library calls of up to three distinct axes
// (an r2c step only starts a group and a c2r step only ends one, and a c2r gets a group of its own),
// then the scale where no kernel took it.
array run_steps(const array& a, const std::vector<step>& steps, norm_mode norm, const char* op) {
  checked(a, op);
  if (steps.empty()) return a;  // NumPy's fftn over no axes returns its input as it is
  const dtype complex_dt = complex_for(a.dtype());
  progress p{a};
  dtype current = a.dtype();
  for (const auto& s : steps) {
    check_length(s.n, op);
    const bool forward = s.kind == fft_kind::forward || s.kind == fft_kind::r2c;
    p.scale *= factor(norm, forward, s.n, factor_dtype(current));
    current = s.kind == fft_kind::c2r ? real_part_of(complex_dt) : complex_dt;
  }
  // irfft's output dtype is NumPy's result_type(input.real.dtype, 1.0): float16 stays float16 when
  // the complex-to-real step reads the float16 input itself.
  const bool half_out = (a.dtype() == dtype::float16 || a.dtype() == dtype::bfloat16) && steps.size() == 1 &&
                        steps[0].kind == fft_kind::c2r;
  p.x = a.astype(steps.front().kind == fft_kind::r2c ? real_part_of(complex_dt) : complex_dt);

  std::vector<step> group;
  auto flush = [&] {
    if (group.empty()) return;
    for (const auto& s : group) {
      // c2r reads the n/2+1 non-negative frequencies of its real axis.
      const std::int64_t len = s.kind == fft_kind::c2r ? s.n / 2 + 1 : s.n;
      p.x = resized(p.x, s.axis, len);
    }
    transform(p, group, complex_dt);
    group.clear();
  };
  for (const auto& s : steps) {
    const bool repeated =
        std::any_of(group.begin(), group.end(), [&](const step& g) { return g.axis == s.axis; });
    if (repeated || group.size() == 3 || s.kind == fft_kind::r2c || s.kind == fft_kind::c2r ||
        (!group.empty() && group.front().kind != fft_kind::r2c && group.front().kind != s.kind))
      flush();
    group.push_back(s);
    // Only one direction per call; an r2c group takes forward complex axes, nothing joins a c2r.
    if (s.kind == fft_kind::c2r) flush();
  }
  flush();
  array out = p.x;
  if (p.scale != 1.0) out = multiply(out, p.scale);
  return half_out ? out.astype(a.dtype()) : out;
}

void reject_complex(const array& a, const char* op) {
  if (is_complex(checked(a, op)->dt))
    throw dtype_error(std::string(op) + ": ufunc '" + op +
                      "' not supported for complex input (a real transform; use fft for complex data)");
}

int axis_of(const array& a, int axis, const char* op) {
  return normalize_axis(axis, checked(a, op)->shape.size(), op);
}

// _cook_nd_args: the axes (normalized, in the given order, repeats kept) and the length along each.
struct nd_args {
  std::vector<int> axes;
  shape_t s;
};

nd_args cook(const array& a, const std::optional<shape_t>& s, const ndfuse::axes& axes, bool inverse_real,
             const char* op) {
  const auto& an = checked(a, op);
  const auto nd = static_cast<std::int64_t>(an->shape.size());
  nd_args r;
  if (axes.all()) {
    // Every axis; with s, the last len(s) axes (NumPy 2.0 deprecates this form but still runs it).
    const auto k = s ? static_cast<std::int64_t>(s->size()) : nd;
    for (std::int64_t i = -k; i < 0; ++i) r.axes.push_back(normalize_axis(static_cast<int>(i), nd, op));
  } else {
    for (int ax : axes.list()) r.axes.push_back(normalize_axis(ax, nd, op));
  }
  if (!s) {
    for (int ax : r.axes) r.s.push_back(an->shape[ax]);
    if (inverse_real && !r.axes.empty()) r.s.back() = (an->shape[r.axes.back()] - 1) * 2;
    return r;
  }
  if (s->size() != r.axes.size())
    throw value_error(std::string(op) + ": Shape and axes have different lengths (s has " +
                      std::to_string(s->size()) + " entries, axes " + std::to_string(r.axes.size()) + ").");
  r.s = *s;
  for (std::size_t k = 0; k < r.s.size(); ++k)
    if (r.s[k] == -1) r.s[k] = an->shape[r.axes[k]];  // -1: the whole input along that axis
  return r;
}

array c2c_nd(const array& a, const std::optional<shape_t>& s, const ndfuse::axes& axes, norm_mode norm,
             bool forward, const char* op) {
  const nd_args args = cook(a, s, axes, false, op);
  std::vector<step> steps;
  for (std::size_t k = args.axes.size(); k-- > 0;)
    steps.push_back({args.axes[k], args.s[k], forward ? fft_kind::forward : fft_kind::inverse});
  return run_steps(a, steps, norm, op);
}

array rfft_nd(const array& a, const std::optional<shape_t>& s, const ndfuse::axes& axes, norm_mode norm,
              const char* op) {
  reject_complex(a, op);
  const nd_args args = cook(a, s, axes, false, op);
  if (args.axes.empty()) throw index_error(std::string(op) + ": at least one axis must be transformed");
  std::vector<step> steps{{args.axes.back(), args.s.back(), fft_kind::r2c}};
  for (std::size_t k = args.axes.size() - 1; k-- > 0;)
    steps.push_back({args.axes[k], args.s[k], fft_kind::forward});
  return run_steps(a, steps, norm, op);
}

array irfft_nd(const array& a, const std::optional<shape_t>& s, const ndfuse::axes& axes, norm_mode norm,
               const char* op) {
  const nd_args args = cook(a, s, axes, true, op);
  if (args.axes.empty()) throw index_error(std::string(op) + ": at least one axis must be transformed");
  std::vector<step> steps;
  for (std::size_t k = 0; k + 1 < args.axes.size(); ++k)
    steps.push_back({args.axes[k], args.s[k], fft_kind::inverse});
  steps.push_back({args.axes.back(), args.s.back(), fft_kind::c2r});
  return run_steps(a, steps, norm, op);
}

std::int64_t length_or(const array& a, std::optional<std::int64_t> n, int axis, bool half_spectrum) {
  if (n) return *n;
  const std::int64_t m = a.shape()[axis];
  return half_spectrum ? (m - 1) * 2 : m;
}

array one_axis(const array& a, std::optional<std::int64_t> n, int axis, norm_mode norm, fft_kind kind,
               const char* op) {
  const int ax = axis_of(a, axis, op);
  const bool half_spectrum = kind == fft_kind::c2r;
  return run_steps(a, {{ax, length_or(a, n, ax, half_spectrum), kind}}, norm, op);
}

// NumPy's fftshift / ifftshift: each listed axis rolled by (-)len/2, the lengths of x's own shape.
array shifted(const array& x, const ndfuse::axes& axes, bool inverse, const char* op) {
  const auto& xn = checked(x, op);
  const auto nd = static_cast<std::int64_t>(xn->shape.size());
  std::vector<int> list;
  if (axes.all()) {
    // NumPy's roll of a 0-d array over no axes fails to unpack its shifts: ValueError.
    if (nd == 0) throw value_error(std::string(op) + ": a 0-d array has no axis to shift");
    list.resize(static_cast<std::size_t>(nd));
    std::iota(list.begin(), list.end(), 0);
  } else {
    list = axes.list();
  }
  array y = x;
  for (int ax : list) {
    const int d = normalize_axis(ax, nd, op);
    const std::int64_t shift = xn->shape[d] / 2;
    y = roll(y, inverse ? -shift : shift, d);
  }
  return y;
}

// NumPy's 1.0 / (n * d), refused where Python raises (n < 1: a negative or empty array; n*d == 0:
// ZeroDivisionError).
double frequency_step(std::int64_t n, double d, const char* op) {
  if (n < 1) throw value_error(std::string(op) + ": n must be a positive integer, got " + std::to_string(n));
  const double nd = double(n) * d;
  if (nd == 0.0) throw value_error(std::string(op) + ": float division by zero (n * d == 0)");
  return 1.0 / nd;
}

}  // namespace

// ---- one axis -----------------------------------------------------------------------------------
array fft(const array& a, std::optional<std::int64_t> n, int axis, norm_arg norm) {
  return one_axis(a, n, axis, norm, fft_kind::forward, "fft");
}
array ifft(const array& a, std::optional<std::int64_t> n, int axis, norm_arg norm) {
  return one_axis(a, n, axis, norm, fft_kind::inverse, "ifft");
}
array rfft(const array& a, std::optional<std::int64_t> n, int axis, norm_arg norm) {
  reject_complex(a, "rfft");
  return one_axis(a, n, axis, norm, fft_kind::r2c, "rfft");
}
array irfft(const array& a, std::optional<std::int64_t> n, int axis, norm_arg norm) {
  return one_axis(a, n, axis, norm, fft_kind::c2r, "irfft");
}
// NumPy: irfft(conj(a), n, axis, swapped norm); conj of a real input is the input itself.
array hfft(const array& a, std::optional<std::int64_t> n, int axis, norm_arg norm) {
  const int ax = axis_of(a, axis, "hfft");
  const array x = is_complex(a.dtype()) ? conj(a) : a;
  return run_steps(x, {{ax, length_or(a, n, ax, true), fft_kind::c2r}}, swapped(norm), "hfft");
}
// NumPy: conj(rfft(a, n, axis, swapped norm)); the conj fuses into the consumer with the scale.
array ihfft(const array& a, std::optional<std::int64_t> n, int axis, norm_arg norm) {
  reject_complex(a, "ihfft");
  return conj(one_axis(a, n, axis, swapped(norm), fft_kind::r2c, "ihfft"));
}

// ---- several axes -------------------------------------------------------------------------------
array fftn(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return c2c_nd(a, s.get(), axes, norm, true, "fftn");
}
array ifftn(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return c2c_nd(a, s.get(), axes, norm, false, "ifftn");
}
array rfftn(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return rfft_nd(a, s.get(), axes, norm, "rfftn");
}
array irfftn(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return irfft_nd(a, s.get(), axes, norm, "irfftn");
}
array fft2(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return c2c_nd(a, s.get(), axes, norm, true, "fft2");
}
array ifft2(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return c2c_nd(a, s.get(), axes, norm, false, "ifft2");
}
array rfft2(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return rfft_nd(a, s.get(), axes, norm, "rfft2");
}
array irfft2(const array& a, sizes s, ndfuse::axes axes, norm_arg norm) {
  return irfft_nd(a, s.get(), axes, norm, "irfft2");
}

// ---- helpers ------------------------------------------------------------------------------------
// Iotas, so the frequencies are computed inside whatever kernel reads them: k * (1 / (n*d)) for the
// integer k, the product NumPy's `results * val` rounds.
array fftfreq(std::int64_t n, double d) {
  const double val = frequency_step(n, d, "fftfreq");
  const std::int64_t positive = (n - 1) / 2 + 1, negative = n / 2;
  array head = frontend::iota(dtype::float64, {positive}, 0.0, val, {1});
  if (negative == 0) return head;
  return concatenate({head, frontend::iota(dtype::float64, {negative}, 0.0, val, {1}, -negative)});
}

array rfftfreq(std::int64_t n, double d) {
  const double val = frequency_step(n, d, "rfftfreq");
  return frontend::iota(dtype::float64, {n / 2 + 1}, 0.0, val, {1});
}

array fftshift(const array& x, ndfuse::axes axes) {
  return shifted(x, axes, false, "fftshift");
}
array ifftshift(const array& x, ndfuse::axes axes) {
  return shifted(x, axes, true, "ifftshift");
}

}  // namespace ndfuse::fft
