// Array printing laid out as NumPy's _formatArray does it, with the print options of
// include/ndfuse/printing.hpp (NumPy 2's defaults: linewidth 75, threshold 1000, edgeitems 3;
// legacy off).
#include "io/repr.hpp"

#include <algorithm>
#include <ostream>

#include "io/element_format.hpp"

namespace ndfuse {

namespace io {

namespace {

const std::string prefix = "array(";
const std::string suffix = ")";

std::string rstrip(std::string s) {
  s.erase(s.find_last_not_of(' ') + 1);
  return s;
}

// Flat positions of the elements printed: every element, or only the leading and trailing
// edge_items along each axis of a summarized array.
std::vector<std::size_t> shown_positions(const shape_t& shape, bool summarize, std::int64_t edge_items) {
  std::vector<std::size_t> out{0};
  for (std::int64_t n : shape) {
    std::vector<std::int64_t> keep;
    if (summarize && n > 2 * edge_items) {
      for (std::int64_t i = 0; i < edge_items; ++i) keep.push_back(i);
      for (std::int64_t i = n - edge_items; i < n; ++i) keep.push_back(i);
    } else {
      for (std::int64_t i = 0; i < n; ++i) keep.push_back(i);
    }
    std::vector<std::size_t> next;
    next.reserve(out.size() * keep.size());
    for (std::size_t base : out) {
      for (std::int64_t i : keep)
        next.push_back(base * static_cast<std::size_t>(n) + static_cast<std::size_t>(i));
    }
    out = std::move(next);
  }
  return out;
}

class array_layout {
 public:
  array_layout(const shape_t& shape, const element_formatter& fmt, bool summarize, std::int64_t edge_items,
               std::string_view separator)
      : shape_(shape), fmt_(fmt), summarize_(summarize), edge_items_(edge_items), separator_(separator) {}

  std::string format(const std::string& next_line_prefix, std::int64_t width) const {
    return recurse(0, 0, next_line_prefix, width);
  }

 private:
  // Appends word to line, first moving line into s when the word would pass line_width; a line
  // holding nothing but the indent is never wrapped, since that would not help.
  static void extend_line(std::string& s, std::string& line, const std::string& word, std::int64_t width,
                          const std::string& next_line_prefix) {
    bool needs_wrap = static_cast<std::int64_t>(line.size() + word.size()) > width;
    if (line.size() <= next_line_prefix.size()) needs_wrap = false;
    if (needs_wrap) {
      s += rstrip(line) + "\n";
      line = next_line_prefix;
    }
    line += word;
  }

  // offset: the flat position of the sub-array at depth `axis`, in units of elements.
  std::string recurse(std::size_t axis, std::size_t offset, const std::string& hanging_indent,
                      std::int64_t curr_width) const {
    const std::size_t axes_left = shape_.size() - axis;
    if (axes_left == 0) return fmt_.format(offset);

    const std::string next_hanging_indent = hanging_indent + " ";
    const std::int64_t next_width = curr_width - 1;  // room for the closing ']'
    const std::int64_t len = shape_[axis];
    const bool show_summary = summarize_ && 2 * edge_items_ < len;
    const std::int64_t leading = show_summary ? edge_items_ : 0;
    const std::int64_t trailing = show_summary ? edge_items_ : len;
    const std::string& separator = separator_;
    auto child = [&](std::int64_t i) {
      return recurse(axis + 1, offset * static_cast<std::size_t>(len) + static_cast<std::size_t>(i),
                     next_hanging_indent, next_width);
    };

    std::string s;
    if (axes_left == 1) {
      // curr_width - max(len(separator.rstrip()), len(']'))
      const std::int64_t elem_width =
          curr_width - std::max<std::int64_t>(static_cast<std::int64_t>(rstrip(separator).size()), 1);
      std::string line = hanging_indent;
      for (std::int64_t i = 0; i < leading; ++i) {
        extend_line(s, line, child(i), elem_width, hanging_indent);
        line += separator;
      }
      if (show_summary) {
        extend_line(s, line, "...", elem_width, hanging_indent);
        line += separator;
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        extend_line(s, line, child(len - i), elem_width, hanging_indent);
        line += separator;
      }
      extend_line(s, line, child(len - 1), elem_width, hanging_indent);
      s += line;
    } else {
      const std::string line_sep = rstrip(separator) + std::string(axes_left - 1, '\n');
      for (std::int64_t i = 0; i < leading; ++i) s += hanging_indent + child(i) + line_sep;
      if (show_summary) s += hanging_indent + "..." + line_sep;
      for (std::int64_t i = trailing; i > 1; --i) s += hanging_indent + child(len - i) + line_sep;
      s += hanging_indent + child(len - 1);
    }
    // Appended, not "[" + s + "]": GCC 12 warns falsely (-Wrestrict) on that once inlined here.
    std::string out(1, '[');
    out.append(s, hanging_indent.size());
    out.push_back(']');
    return out;
  }

  const shape_t& shape_;
  const element_formatter& fmt_;
  bool summarize_;
  std::int64_t edge_items_;
  std::string separator_;
};

std::int64_t element_count(const shape_t& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

}  // namespace

const char* numpy_dtype_name(dtype t) {
  switch (t) {
    case dtype::bool_:
      return "bool";
    case dtype::int8:
      return "int8";
    case dtype::int16:
      return "int16";
    case dtype::int32:
      return "int32";
    case dtype::int64:
      return "int64";
    case dtype::uint8:
      return "uint8";
    case dtype::uint16:
      return "uint16";
    case dtype::uint32:
      return "uint32";
    case dtype::uint64:
      return "uint64";
    case dtype::float16:
      return "float16";
    case dtype::float32:
      return "float32";
    case dtype::float64:
      return "float64";
    case dtype::complex64:
      return "complex64";
    case dtype::complex128:
      return "complex128";
    case dtype::bfloat16:
      return "bfloat16";
  }
  return "unknown";
}

std::string format_elements(const host_array& h, const print_options& o, std::string_view separator,
                            std::size_t prefix_length, std::int64_t width) {
  const std::int64_t size = element_count(h.shape);
  if (size == 0) return "[]";
  const bool summarize = size > o.threshold;
  const auto formatter =
      make_element_formatter(h, shown_positions(h.shape, summarize, o.edgeitems), {o.precision, o.suppress});
  const std::string next_line_prefix(prefix_length + 1, ' ');
  return array_layout(h.shape, *formatter, summarize, o.edgeitems, separator).format(next_line_prefix, width);
}

std::string repr_host(const host_array& h, std::string_view device, const print_options& o) {
  const std::int64_t size = element_count(h.shape);
  const std::string body =
      format_elements(h, o, ", ", prefix.size(), o.linewidth - static_cast<std::int64_t>(suffix.size()));

  // dtype= and shape= appear when the printed values do not imply them.
  std::vector<std::string> extras;
  const bool shape_is_0 = h.shape.size() == 1 && h.shape[0] == 0;
  if ((size == 0 && !shape_is_0) || size > o.threshold) extras.push_back("shape=" + shape_str(h.shape));
  const bool dtype_implied = h.dtype == dtype::int64 || h.dtype == dtype::float64 ||
                             h.dtype == dtype::complex128 || h.dtype == dtype::bool_;
  if (!dtype_implied || size == 0) extras.push_back(std::string("dtype=") + numpy_dtype_name(h.dtype));
  if (!device.empty()) extras.push_back("device='" + std::string(device) + "'");
  if (extras.empty()) return prefix + body + suffix;

  const std::string arr_str = prefix + body + ",";
  std::string extra_str;
  for (std::size_t i = 0; i < extras.size(); ++i) extra_str += (i ? ", " : "") + extras[i];
  extra_str += suffix;
  const auto last_newline = arr_str.rfind('\n');
  const std::size_t last_line_len =
      last_newline == std::string::npos ? arr_str.size() : arr_str.size() - last_newline - 1;
  const bool new_line = static_cast<std::int64_t>(last_line_len + extra_str.size() + 1) > o.linewidth;
  std::string spacer = " ";
  if (new_line) spacer = std::string(1, '\n').append(prefix.size(), ' ');
  return arr_str + spacer + extra_str;
}

}  // namespace io

std::string shape_str(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  if (s.size() == 1) out += ",";
  return out + ")";
}

std::string repr(const array& a) {
  const device d = a.device();
  return io::repr_host(a.to_host(), d == default_device() ? "" : d.str(), get_printoptions());
}

std::ostream& operator<<(std::ostream& os, const shape_t& s) {
  return os << shape_str(s);
}

std::ostream& operator<<(std::ostream& os, const array& a) {
  return os << repr(a);
}

}  // namespace ndfuse
