#include "io/npy_header.hpp"

#include <bit>
#include <cctype>
#include <limits>
#include <map>
#include <vector>

namespace ndfuse::io {

namespace {

// The header text as error messages quote it: without its padding, and short.
std::string excerpt(std::string_view text) {
  constexpr std::size_t max_len = 200;
  const auto end = text.find_last_not_of(" \n");
  text = text.substr(0, end == std::string_view::npos ? 0 : end + 1);
  if (text.size() <= max_len) return std::string(text);
  return std::string(text.substr(0, max_len)) + "...";
}

// The subset of Python literals a header can hold.
struct py_value {
  enum class kind { str, int_, bool_, none, tuple, list, dict };
  kind k = kind::none;
  std::string str;
  std::int64_t integer = 0;
  bool boolean = false;
  std::vector<py_value> items;                         // tuple, list
  std::vector<std::pair<py_value, py_value>> entries;  // dict
};

class literal_parser {
 public:
  literal_parser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  py_value parse_all() {
    py_value v = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the dict");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw value_error("load: '" + file_ + "' is not a valid .npy file: malformed header (" + what +
                      " at offset " + std::to_string(pos_) + "): " + excerpt(text_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool consume(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool at_word(std::string_view w) const {
    if (text_.substr(pos_, w.size()) != w) return false;
    const std::size_t end = pos_ + w.size();
    return end == text_.size() ||
           !(std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_');
  }

  py_value parse_value(int depth) {
    if (depth > 32) fail("nesting too deep");
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    py_value v;
    if (c == '\'' || c == '"' ||
        ((c == 'u' || c == 'U') && pos_ + 1 < text_.size() &&
         (text_[pos_ + 1] == '\'' || text_[pos_ + 1] == '"'))) {
      v.k = py_value::kind::str;
      v.str = parse_string();
    } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
      v.k = py_value::kind::int_;
      v.integer = parse_int();
    } else if (at_word("True") || at_word("False")) {
      v.k = py_value::kind::bool_;
      v.boolean = c == 'T';
      pos_ += v.boolean ? 4 : 5;
    } else if (at_word("None")) {
      pos_ += 4;
    } else if (c == '(' || c == '[') {
      ++pos_;
      const char close = c == '(' ? ')' : ']';
      bool saw_comma = false;
      while (!consume(close)) {
        v.items.push_back(parse_value(depth + 1));
        if (consume(',')) {
          saw_comma = true;
        } else if (!consume(close)) {
          fail(std::string("expected ',' or '") + close + "'");
        } else {
          break;
        }
      }
      if (c == '(' && v.items.size() == 1 && !saw_comma) return v.items[0];  // (3) is just 3
      v.k = c == '(' ? py_value::kind::tuple : py_value::kind::list;
    } else if (c == '{') {
      ++pos_;
      v.k = py_value::kind::dict;
      while (!consume('}')) {
        py_value key = parse_value(depth + 1);
        if (!consume(':')) fail("expected ':'");
        py_value value = parse_value(depth + 1);
        v.entries.emplace_back(std::move(key), std::move(value));
        if (!consume(',')) {
          if (!consume('}')) fail("expected ',' or '}'");
          break;
        }
      }
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  std::string parse_string() {
    if (text_[pos_] == 'u' || text_[pos_] == 'U') ++pos_;
    const char quote = text_[pos_++];
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char ch = text_[pos_++];
      if (ch == quote) break;
      if (ch == '\\') {
        if (pos_ >= text_.size()) fail("unterminated string");
        ch = text_[pos_++];
        switch (ch) {
          case 'n':
            ch = '\n';
            break;
          case 't':
            ch = '\t';
            break;
          case '\\':
          case '\'':
          case '"':
            break;
          default:
            fail("unsupported escape in string");
        }
      }
      out += ch;
    }
    return out;
  }

  std::int64_t parse_int() {
    bool negative = false;
    if (text_[pos_] == '-' || text_[pos_] == '+') negative = text_[pos_++] == '-';
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      fail("expected a digit");
    std::uint64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const auto d = static_cast<std::uint64_t>(text_[pos_++] - '0');
      if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) fail("integer too large");
      v = v * 10 + d;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2 long
    if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E')) {
      fail("expected an integer");
    }
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) fail("integer too large");
    return negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
};

[[noreturn]] void bad_header(const std::string& file, const std::string& what) {
  throw value_error("load: '" + file + "' is not a valid .npy file: " + what);
}

struct descr_info {
  dtype t;
  bool byte_swapped;
};

descr_info parse_descr(const std::string& descr, const std::string& file) {
  auto unsupported = [&]() -> descr_info {
    throw dtype_error("load: '" + file + "' holds dtype '" + descr + "', which ndfuse does not support");
  };
  std::string_view d = descr;
  char order = '=';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
    order = d[0];
    d.remove_prefix(1);
  }
  static const std::map<std::string_view, dtype> codes = {
      {"?", dtype::bool_},    {"b1", dtype::bool_},     {"i1", dtype::int8},       {"i2", dtype::int16},
      {"i4", dtype::int32},   {"i8", dtype::int64},     {"u1", dtype::uint8},      {"u2", dtype::uint16},
      {"u4", dtype::uint32},  {"u8", dtype::uint64},    {"f2", dtype::float16},    {"f4", dtype::float32},
      {"f8", dtype::float64}, {"c8", dtype::complex64}, {"c16", dtype::complex128}};
  const auto it = codes.find(d);
  if (it == codes.end()) return unsupported();
  const bool native_little = std::endian::native == std::endian::little;
  bool swapped = false;
  if (order == '<') swapped = !native_little;
  if (order == '>') swapped = native_little;
  if (itemsize(it->second) == 1) swapped = false;
  return {it->second, swapped};
}

}  // namespace

npy_header parse_npy_header(std::string_view text, const std::string& file) {
  const py_value dict = literal_parser(text, file).parse_all();
  if (dict.k != py_value::kind::dict) bad_header(file, "the header is not a dict: " + excerpt(text));

  const py_value* descr = nullptr;
  const py_value* fortran = nullptr;
  const py_value* shape = nullptr;
  for (const auto& [key, value] : dict.entries) {
    const py_value** slot = nullptr;
    if (key.k == py_value::kind::str) {
      if (key.str == "descr") slot = &descr;
      if (key.str == "fortran_order") slot = &fortran;
      if (key.str == "shape") slot = &shape;
    }
    if (!slot) bad_header(file, "unexpected key in the header: " + excerpt(text));
    // A repeated key keeps its last value, as Python's dict literal does.
    *slot = &value;
  }
  if (!descr || !fortran || !shape) {
    bad_header(file, "the header lacks one of 'descr', 'fortran_order', 'shape': " + excerpt(text));
  }

  npy_header h;
  if (descr->k != py_value::kind::str) {
    throw dtype_error("load: '" + file + "' holds a structured dtype, which ndfuse does not support");
  }
  const descr_info info = parse_descr(descr->str, file);
  h.dtype = info.t;
  h.byte_swapped = info.byte_swapped;

  if (fortran->k != py_value::kind::bool_) bad_header(file, "fortran_order is not True or False");
  h.fortran_order = fortran->boolean;

  if (shape->k != py_value::kind::tuple) bad_header(file, "the shape is not a tuple");
  std::int64_t count = 1;
  for (const auto& dim : shape->items) {
    if (dim.k != py_value::kind::int_ || dim.integer < 0)
      bad_header(file, "the shape holds a non-size entry");
    if (dim.integer > 0 && count > std::numeric_limits<std::int64_t>::max() / dim.integer) {
      bad_header(file, "the shape is too large");
    }
    count *= dim.integer;
    h.shape.push_back(dim.integer);
  }
  if (count > std::numeric_limits<std::int64_t>::max() / static_cast<std::int64_t>(itemsize(h.dtype))) {
    bad_header(file, "the shape is too large");
  }
  return h;
}

std::string npy_descr(dtype t) {
  const char order = itemsize(t) == 1 ? '|' : (std::endian::native == std::endian::little ? '<' : '>');
  const char* code = "";
  switch (t) {
    case dtype::bool_:
      code = "b1";
      break;
    case dtype::int8:
      code = "i1";
      break;
    case dtype::int16:
      code = "i2";
      break;
    case dtype::int32:
      code = "i4";
      break;
    case dtype::int64:
      code = "i8";
      break;
    case dtype::uint8:
      code = "u1";
      break;
    case dtype::uint16:
      code = "u2";
      break;
    case dtype::uint32:
      code = "u4";
      break;
    case dtype::uint64:
      code = "u8";
      break;
    case dtype::float16:
      code = "f2";
      break;
    case dtype::float32:
      code = "f4";
      break;
    case dtype::float64:
      code = "f8";
      break;
    case dtype::complex64:
      code = "c8";
      break;
    case dtype::complex128:
      code = "c16";
      break;
    case dtype::bfloat16:
      // ml_dtypes writes raw 'V2' bytes, which no reader can tell from any other 2-byte record.
      throw dtype_error(
          "save: the .npy format has no bfloat16; save x.astype(nf::float32), which holds every bfloat16 "
          "value exactly");
  }
  return std::string(1, order) + code;
}

std::string format_npy_header_dict(dtype t, const shape_t& shape) {
  std::string text =
      "{'descr': '" + npy_descr(t) + "', 'fortran_order': False, 'shape': " + shape_str(shape) + ", }";
  // np.save leaves room for the first dimension to grow to 21 digits, so that appending rows
  // can rewrite the header in place.
  constexpr std::size_t growth_axis_max_digits = 21;
  if (!shape.empty()) text.append(growth_axis_max_digits - std::to_string(shape[0]).size(), ' ');
  return text;
}

}  // namespace ndfuse::io
