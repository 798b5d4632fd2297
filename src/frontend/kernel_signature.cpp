#include "frontend/kernel_signature.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "ndfuse/error.hpp"

namespace ndfuse::frontend {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  for (std::size_t k = 0; k <= s.size(); ++k) {
    if (k == s.size() || s[k] == sep) {
      parts.push_back(s.substr(begin, k - begin));
      begin = k + 1;
    }
  }
  return parts;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t k = 0;
  while (k < s.size()) {
    while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
    const std::size_t begin = k;
    while (k < s.size() && !std::isspace(static_cast<unsigned char>(s[k]))) ++k;
    if (k > begin) out.push_back(s.substr(begin, k - begin));
  }
  return out;
}

bool blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

std::string where(std::string_view kernel, std::string_view param) {
  return std::string(kernel) + ": parameter '" + std::string(param) + "'";
}

kernel_param parse_param(std::string_view text, std::string_view kernel) {
  const auto w = words(text);
  if (w.size() < 2)
    throw value_error(where(kernel, text) +
                      ": expected '[raw] <type> <name>' (for example 'float32 x', 'raw T y')");
  kernel_param p;
  for (std::size_t k = 0; k + 2 < w.size(); ++k) {
    if (w[k] != "raw")
      throw value_error(where(kernel, text) + ": unknown keyword '" + std::string(w[k]) +
                        "' (only 'raw' may precede the type)");
    p.raw = true;
  }
  const std::string_view type = w[w.size() - 2], name = w.back();
  if (type.size() == 1) {
    if (!std::isalpha(static_cast<unsigned char>(type[0])))
      throw value_error(where(kernel, text) + ": a type placeholder is one letter, not '" +
                        std::string(type) + "'");
    p.placeholder = type[0];
  } else {
    try {
      p.type = dtype_from_name(type);
    } catch (const dtype_error&) {
      throw dtype_error(where(kernel, text) + ": unknown type '" + std::string(type) +
                        "' (a dtype name such as float32, or a one-letter placeholder such as T)");
    }
  }
  if (!is_c_identifier(name))
    throw value_error(where(kernel, text) + ": '" + std::string(name) + "' is not a C identifier");
  p.name = std::string(name);
  return p;
}

std::vector<kernel_param> parse_list(std::string_view list, std::string_view kernel) {
  std::vector<kernel_param> params;
  if (blank(list)) return params;
  for (std::string_view item : split(list, ',')) params.push_back(parse_param(item, kernel));
  return params;
}

std::string type_text(const kernel_param& p) {
  return p.type ? std::string(dtype_name(*p.type)) : std::string(1, p.placeholder);
}

}  // namespace

bool is_c_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

kernel_signature parse_signature(std::string_view in_params, std::string_view out_params,
                                 std::string_view kernel) {
  kernel_signature s{parse_list(in_params, kernel), parse_list(out_params, kernel)};
  if (s.out.empty())
    throw value_error(std::string(kernel) + ": a kernel needs at least one output parameter");
  std::vector<std::string_view> names;
  for (const auto* list : {&s.in, &s.out})
    for (const auto& p : *list) {
      // The generated loop declares the element index i and the indexer _ind (CuPy's names).
      if (p.name == "i" || p.name == "_ind")
        throw value_error(where(kernel, p.name) + ": the name is reserved (the element index is 'i')");
      if (std::find(names.begin(), names.end(), p.name) != names.end())
        throw value_error(where(kernel, p.name) + ": the name is used twice");
      names.push_back(p.name);
    }
  return s;
}

resolved_types resolve_types(const kernel_signature& s, std::span<const kernel_argument> inputs,
                             std::span<const dtype> outputs, std::string_view kernel) {
  if (inputs.size() != s.in.size())
    throw value_error(std::string(kernel) + ": " + std::to_string(s.in.size()) +
                      " input argument(s) expected, " + std::to_string(inputs.size()) + " given");
  if (!outputs.empty() && outputs.size() != s.out.size())
    throw value_error(std::string(kernel) + ": " + std::to_string(s.out.size()) +
                      " output argument(s) expected, " + std::to_string(outputs.size()) + " given");
  std::map<char, dtype> bound;
  auto bind = [&](const kernel_param& p, dtype got, const char* what) {
    if (p.type) {
      if (*p.type != got)
        throw dtype_error(where(kernel, p.name) + " is " + type_text(p) + ", but the " + what + " given is " +
                          std::string(dtype_name(got)) + " (user kernels do not cast arrays: astype first)");
      return;
    }
    auto [it, fresh] = bound.try_emplace(p.placeholder, got);
    if (!fresh && it->second != got)
      throw dtype_error(where(kernel, p.name) + ": " + std::string(1, p.placeholder) + " is already " +
                        std::string(dtype_name(it->second)) + " from an earlier argument, but the " + what +
                        " given is " + std::string(dtype_name(got)));
  };
  for (std::size_t k = 0; k < outputs.size(); ++k) bind(s.out[k], outputs[k], "output array");
  for (std::size_t k = 0; k < inputs.size(); ++k)
    if (!inputs[k].is_scalar) bind(s.in[k], inputs[k].dt, "array");
  // Placeholders that only scalars meet: the promotion of their default dtypes.
  std::map<char, dtype> from_scalars;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const kernel_param& p = s.in[k];
    if (!inputs[k].is_scalar || p.type || bound.count(p.placeholder)) continue;
    auto [it, fresh] = from_scalars.try_emplace(p.placeholder, inputs[k].dt);
    if (!fresh) it->second = promote_types(it->second, inputs[k].dt);
  }
  bound.merge(from_scalars);

  resolved_types r;
  auto type_of = [&](const kernel_param& p) {
    if (p.type) return *p.type;
    const auto it = bound.find(p.placeholder);
    if (it == bound.end())
      throw dtype_error(where(kernel, p.name) + ": nothing decides its type " +
                        std::string(1, p.placeholder) +
                        " (no input with that placeholder; give the output array)");
    return it->second;
  };
  for (const auto& p : s.in) r.in.push_back(type_of(p));
  for (const auto& p : s.out) r.out.push_back(type_of(p));
  r.placeholders.assign(bound.begin(), bound.end());
  return r;
}

}  // namespace ndfuse::frontend
