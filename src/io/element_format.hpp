// Per-element formatters for array printing: NumPy's BoolFormat, IntegerFormat, FloatingFormat and
// ComplexFloatingFormat with floatmode 'maxprec' and sign '-' (precision and suppress are options).
// Each one is configured from the elements that will be shown, so that widths, precision and
// notation are common to the whole printed array.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ndfuse/array.hpp"

namespace ndfuse::io {

class element_formatter {
 public:
  virtual ~element_formatter() = default;
  // Formats the element at flat (C-order) position i of the host data.
  virtual std::string format(std::size_t i) const = 0;
};

// The print options the float formats follow (NumPy's precision and suppress).
struct float_style {
  int precision = 8;
  bool suppress = false;
};

// `shown` lists the flat positions of the elements that will be printed (all of them, or the
// corners of a summarized array); only they decide the common format, as in NumPy.
std::unique_ptr<element_formatter> make_element_formatter(const host_array& h,
                                                          const std::vector<std::size_t>& shown,
                                                          const float_style& style = {});

}  // namespace ndfuse::io
