#include "io/element_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "io/float_format.hpp"
#include "ir/host_types.hpp"

namespace ndfuse::io {

namespace {

class bool_format final : public element_formatter {
 public:
  bool_format(const host_array& h) : h_(h), true_str_(h.shape.empty() ? "True" : " True") {}
  std::string format(std::size_t i) const override {
    return h_.bytes[i] != std::byte{0} ? true_str_ : std::string("False");
  }

 private:
  const host_array& h_;
  std::string true_str_;
};

template <class T>
class integer_format final : public element_formatter {
 public:
  integer_format(const host_array& h, const std::vector<std::size_t>& shown) : h_(h) {
    if (shown.empty()) return;
    T lo = std::numeric_limits<T>::max();
    T hi = std::numeric_limits<T>::lowest();
    for (std::size_t i : shown) {
      const T v = h.raw<T>(i);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    width_ = std::max(std::to_string(hi).size(), std::to_string(lo).size());
  }
  std::string format(std::size_t i) const override {
    std::string s = std::to_string(h_.raw<T>(i));
    if (s.size() < width_) s.insert(0, width_ - s.size(), ' ');
    return s;
  }

 private:
  const host_array& h_;
  std::size_t width_ = 0;
};

enum class float_kind { half, bfloat16, single, double_ };

struct float_value {
  float_bits bits;
  double value = 0;  // exact widening of the element
};

float_value make_value(std::uint16_t half_bits) {
  return {decompose_half(half_bits), half_bits_to_float(half_bits)};
}
float_value make_value(bfloat16_t b) {
  return {decompose_bfloat16(b.bits), ir::bfloat16_to_float(b.bits)};
}
float_value make_value(float f) {
  return {decompose(f), f};
}
float_value make_value(double d) {
  return {decompose(d), d};
}

// NumPy computes the notation thresholds in the array's own dtype, so a float16 ratio can round
// down to exactly 1000 and a float32 value can equal float32(1e-4); both keep positional notation.
double in_kind(double v, float_kind kind) {
  switch (kind) {
    case float_kind::half:
      return round_to_half(v);
    case float_kind::bfloat16:
      return ir::bfloat16_to_float(ir::double_to_bfloat16(v));
    case float_kind::single:
      return static_cast<float>(v);
    case float_kind::double_:
      break;
  }
  return v;
}

// FloatingFormat with floatmode 'maxprec': at most `precision` fractional digits (8 by default),
// fewer when unique output needs fewer, and a common width; suppress keeps small values positional.
class floating_format {
 public:
  floating_format(const std::vector<float_value>& data, float_kind kind, bool sign_plus,
                  const float_style& style)
      : sign_plus_(sign_plus),
        suppress_(style.suppress),
        precision_(style.precision),
        max_precision_(style.precision) {
    std::vector<const float_value*> finite;
    bool has_negative_inf = false;
    for (const auto& v : data) {
      if (!v.bits.is_nan && !v.bits.is_inf) finite.push_back(&v);
      if (v.bits.is_inf && v.bits.negative) has_negative_inf = true;
    }
    choose_notation(finite, kind);
    if (finite.empty()) {
      pad_left_ = 0;
      pad_right_ = 0;
      trim_ = trim_mode::zeros;
      exp_size_ = -1;
      min_digits_ = -1;
    } else if (exp_format_) {
      measure_scientific(finite);
    } else {
      measure_positional(finite);
    }
    if (finite.size() != data.size()) {
      const int neg_inf = (sign_plus_ || has_negative_inf) ? 1 : 0;
      const int offset = pad_right_ + 1;  // +1 for the decimal point
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + neg_inf - offset});
    }
  }

  std::string operator()(const float_value& x) const {
    if (x.bits.is_nan || x.bits.is_inf) {
      std::string ret = x.bits.is_nan ? (sign_plus_ ? "+nan" : "nan")
                                      : (x.bits.negative ? "-inf" : (sign_plus_ ? "+inf" : "inf"));
      const int width = pad_left_ + pad_right_ + 1;
      if (static_cast<int>(ret.size()) < width)
        ret.insert(0, static_cast<std::size_t>(width) - ret.size(), ' ');
      return ret;
    }
    float_format_options opt;
    opt.precision = precision_;
    opt.min_digits = min_digits_;
    opt.trim = trim_;
    opt.sign = sign_plus_;
    opt.pad_left = pad_left_;
    if (exp_format_) {
      opt.exp_digits = exp_size_;
      return format_scientific(x.bits, opt);
    }
    opt.pad_right = pad_right_;
    return format_positional(x.bits, opt);
  }

 private:
  void choose_notation(const std::vector<const float_value*>& finite, float_kind kind) {
    double max_val = 0;
    double min_val = std::numeric_limits<double>::infinity();
    bool any_nonzero = false;
    for (const auto* v : finite) {
      if (v->value == 0) continue;
      any_nonzero = true;
      max_val = std::max(max_val, std::fabs(v->value));
      min_val = std::min(min_val, std::fabs(v->value));
    }
    if (!any_nonzero) return;
    // 10**min(8, finfo(dtype).precision)
    const double cutoff = kind == float_kind::bfloat16 ? 1e2
                          : kind == float_kind::half   ? 1e3
                          : kind == float_kind::single ? 1e6
                                                       : 1e8;
    double ratio = max_val / min_val;
    if (kind != float_kind::double_) {
      ratio = static_cast<float>(max_val) / static_cast<float>(min_val);
    }
    ratio = in_kind(ratio, kind);
    exp_format_ = max_val >= cutoff || (!suppress_ && (min_val < in_kind(1e-4, kind) || ratio > 1000.0));
  }

  void measure_scientific(const std::vector<const float_value*>& finite) {
    float_format_options opt;
    opt.precision = max_precision_;
    opt.trim = trim_mode::zeros;
    opt.sign = sign_plus_;
    int max_frac = 0;
    int max_int = 0;
    int max_exp = 0;
    for (const auto* v : finite) {
      const std::string s = format_scientific(v->bits, opt);
      const auto e = s.find('e');
      const auto dot = s.find('.');
      max_int = std::max(max_int, static_cast<int>(dot));
      max_frac = std::max(max_frac, static_cast<int>(e - dot - 1));
      max_exp = std::max(max_exp, static_cast<int>(s.size() - e - 1));
    }
    exp_size_ = max_exp - 1;
    trim_ = trim_mode::keep;
    precision_ = max_frac;
    min_digits_ = max_frac;
    pad_left_ = max_int;
    pad_right_ = exp_size_ + 2 + precision_;
  }

  void measure_positional(const std::vector<const float_value*>& finite) {
    float_format_options opt;
    opt.precision = max_precision_;
    opt.trim = trim_mode::zeros;
    opt.sign = sign_plus_;
    int max_frac = 0;
    int max_int = 0;
    for (const auto* v : finite) {
      const std::string s = format_positional(v->bits, opt);
      const auto dot = s.find('.');
      max_int = std::max(max_int, static_cast<int>(dot));
      max_frac = std::max(max_frac, static_cast<int>(s.size() - dot - 1));
    }
    pad_left_ = max_int;
    pad_right_ = max_frac;
    exp_size_ = -1;
    trim_ = trim_mode::zeros;
    min_digits_ = 0;
  }

  bool sign_plus_;
  bool suppress_;
  bool exp_format_ = false;
  int precision_;
  int max_precision_;  // the print option: at most this many digits
  int min_digits_ = -1;
  int pad_left_ = 0;
  int pad_right_ = 0;
  int exp_size_ = -1;
  trim_mode trim_ = trim_mode::zeros;
};

template <class T>
float_value value_at(const host_array& h, std::size_t i) {
  if constexpr (std::is_same_v<T, float16_t>) {
    return make_value(h.raw<std::uint16_t>(i));
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return make_value(bfloat16_t::from_bits(h.raw<std::uint16_t>(i)));
  } else {
    return make_value(h.raw<T>(i));
  }
}

float_kind kind_of_element(dtype t) {
  switch (t) {
    case dtype::float16:
      return float_kind::half;
    case dtype::bfloat16:
      return float_kind::bfloat16;
    case dtype::float32:
    case dtype::complex64:
      return float_kind::single;
    default:
      return float_kind::double_;
  }
}

template <class T>
class real_format final : public element_formatter {
 public:
  real_format(const host_array& h, const std::vector<std::size_t>& shown, const float_style& style)
      : h_(h), format_(collect(h, shown), kind_of_element(h.dtype), false, style) {}
  std::string format(std::size_t i) const override { return format_(value_at<T>(h_, i)); }

 private:
  static std::vector<float_value> collect(const host_array& h, const std::vector<std::size_t>& shown) {
    std::vector<float_value> data;
    data.reserve(shown.size());
    for (std::size_t i : shown) data.push_back(value_at<T>(h, i));
    return data;
  }
  const host_array& h_;
  floating_format format_;
};

// The real parts print like a real array; the imaginary parts always carry their sign.
template <class T>
class complex_format final : public element_formatter {
 public:
  complex_format(const host_array& h, const std::vector<std::size_t>& shown, const float_style& style)
      : h_(h),
        real_(collect(h, shown, 0), kind_of_element(h.dtype), false, style),
        imag_(collect(h, shown, 1), kind_of_element(h.dtype), true, style) {}
  std::string format(std::size_t i) const override {
    std::string r = real_(part(h_, i, 0));
    std::string im = imag_(part(h_, i, 1));
    const auto end = im.find_last_not_of(' ') + 1;
    im.insert(end, 1, 'j');
    return r + im;
  }

 private:
  static float_value part(const host_array& h, std::size_t i, int which) {
    return make_value(h.raw<T>(2 * i + static_cast<std::size_t>(which)));
  }
  static std::vector<float_value> collect(const host_array& h, const std::vector<std::size_t>& shown,
                                          int which) {
    std::vector<float_value> data;
    data.reserve(shown.size());
    for (std::size_t i : shown) data.push_back(part(h, i, which));
    return data;
  }
  const host_array& h_;
  floating_format real_;
  floating_format imag_;
};

}  // namespace

std::unique_ptr<element_formatter> make_element_formatter(const host_array& h,
                                                          const std::vector<std::size_t>& shown,
                                                          const float_style& style) {
  switch (h.dtype) {
    case dtype::bool_:
      return std::make_unique<bool_format>(h);
    case dtype::int8:
      return std::make_unique<integer_format<std::int8_t>>(h, shown);
    case dtype::int16:
      return std::make_unique<integer_format<std::int16_t>>(h, shown);
    case dtype::int32:
      return std::make_unique<integer_format<std::int32_t>>(h, shown);
    case dtype::int64:
      return std::make_unique<integer_format<std::int64_t>>(h, shown);
    case dtype::uint8:
      return std::make_unique<integer_format<std::uint8_t>>(h, shown);
    case dtype::uint16:
      return std::make_unique<integer_format<std::uint16_t>>(h, shown);
    case dtype::uint32:
      return std::make_unique<integer_format<std::uint32_t>>(h, shown);
    case dtype::uint64:
      return std::make_unique<integer_format<std::uint64_t>>(h, shown);
    case dtype::float16:
      return std::make_unique<real_format<float16_t>>(h, shown, style);
    case dtype::bfloat16:
      return std::make_unique<real_format<bfloat16_t>>(h, shown, style);
    case dtype::float32:
      return std::make_unique<real_format<float>>(h, shown, style);
    case dtype::float64:
      return std::make_unique<real_format<double>>(h, shown, style);
    case dtype::complex64:
      return std::make_unique<complex_format<float>>(h, shown, style);
    case dtype::complex128:
      return std::make_unique<complex_format<double>>(h, shown, style);
  }
  throw dtype_error("repr: unknown dtype");
}

}  // namespace ndfuse::io
