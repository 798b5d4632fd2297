// NumPy's printing functions and print options: array_repr, array_str (and nf::str, NumPy's
// str(x)), array2string, format_float_positional and format_float_scientific, and the options
// set_printoptions / get_printoptions / printoptions change for every later print.
// operator<< and nf::repr (array.hpp) print as array_repr does.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ndfuse/array.hpp"

namespace ndfuse {

// NumPy's print options (np.get_printoptions()), with its defaults.
struct print_options {
  int precision = 8;              // at most this many digits after the point
  std::int64_t threshold = 1000;  // more elements than this print summarized
  std::int64_t edgeitems = 3;     // the elements kept at each end of a summarized axis
  std::int64_t linewidth = 75;    // characters per line
  bool suppress = false;          // small values print positionally, never in scientific notation
};
print_options get_printoptions();
// Negative precision, threshold, edgeitems or a linewidth below 1 throw value_error.
void set_printoptions(const print_options& options);

// NumPy's `with np.printoptions(...)`: the options for this scope, the previous ones restored at
// its end.
class printoptions {
 public:
  explicit printoptions(const print_options& options);
  ~printoptions();
  printoptions(const printoptions&) = delete;
  printoptions& operator=(const printoptions&) = delete;

 private:
  print_options saved_;
};

// repr(x): array([1., 2.]) with dtype= and shape= where NumPy shows them.
std::string array_repr(const array& a);
// str(x): [1. 2.], elements separated by spaces; a 0-d array prints as its scalar (2.5, True).
std::string array_str(const array& a);
std::string str(const array& a);  // array_str
// NumPy's array2string: the elements only, with this separator; later lines are indented by the
// prefix's length. Unset options come from the print options.
std::string array2string(const array& a, std::optional<std::int64_t> max_line_width = std::nullopt,
                         std::optional<int> precision = std::nullopt,
                         std::optional<bool> suppress_small = std::nullopt, std::string_view separator = " ",
                         std::string_view prefix = "");

// One float as text, with NumPy's Dragon4 (the shortest round-tripping digits when unique). trim:
// "k" keeps trailing zeros, "." trims them but keeps the point, "0" keeps one zero after the
// point, "-" trims zeros and the point. float overloads format the float32 value.
std::string format_float_positional(double x, std::optional<int> precision = std::nullopt, bool unique = true,
                                    bool fractional = true, std::string_view trim = "k", bool sign = false,
                                    std::optional<int> pad_left = std::nullopt,
                                    std::optional<int> pad_right = std::nullopt,
                                    std::optional<int> min_digits = std::nullopt);
std::string format_float_positional(float x, std::optional<int> precision = std::nullopt, bool unique = true,
                                    bool fractional = true, std::string_view trim = "k", bool sign = false,
                                    std::optional<int> pad_left = std::nullopt,
                                    std::optional<int> pad_right = std::nullopt,
                                    std::optional<int> min_digits = std::nullopt);
std::string format_float_scientific(double x, std::optional<int> precision = std::nullopt, bool unique = true,
                                    std::string_view trim = "k", bool sign = false,
                                    std::optional<int> pad_left = std::nullopt,
                                    std::optional<int> exp_digits = std::nullopt,
                                    std::optional<int> min_digits = std::nullopt);
std::string format_float_scientific(float x, std::optional<int> precision = std::nullopt, bool unique = true,
                                    std::string_view trim = "k", bool sign = false,
                                    std::optional<int> pad_left = std::nullopt,
                                    std::optional<int> exp_digits = std::nullopt,
                                    std::optional<int> min_digits = std::nullopt);

}  // namespace ndfuse
