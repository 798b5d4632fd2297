// Basic indexing and shape manipulation against NumPy 2 (tests/oracle/gen_views.py writes the
// cases). Each case runs on four inputs holding the same values: an evaluated contiguous array
// (the view is new strides over its buffer), an unevaluated one (the view is an index remap inside
// the kernel that writes the result), an evaluated non-contiguous one (a transposed view of x.T)
// and an unevaluated node reading that non-contiguous view. Where NumPy raises, the ndfuse call must
// throw the matching nf:: exception when the node is built.
#include <cctype>
#include <functional>
#include <regex>

#include "catch.hpp"
#include "frontend/view.hpp"
#include "ndfuse/sorting.hpp"
#include "oracle_support.hpp"

namespace {

std::vector<std::int64_t> ints(const std::string& s) {
  std::vector<std::int64_t> out;
  for (const auto& p : oracle::split(s, ','))
    if (!p.empty()) out.push_back(std::stoll(p));
  return out;
}
std::vector<int> ints32(const std::string& s) {
  std::vector<int> out;
  for (auto v : ints(s)) out.push_back(static_cast<int>(v));
  return out;
}

nf::slice_arg bound(const std::string& t) {
  if (t.empty()) return nf::none;
  return std::stoll(t);
}

// The mask an item mK stands for (as gen_views.py's mask_for): over `shape`.
nf::array mask_for(const nf::shape_t& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return nf::not_equal(nf::arange(n) % 3, 1).reshape(shape);
}

nf::index_item parse_item(const std::string& t);

// An index expression: [a b c] is an int64 index array ([...]@2x2 reshaped), mK a bool mask over
// the next K dims of `shape`.
std::vector<nf::index_item> parse_items(const std::string& text, const nf::shape_t& shape) {
  std::vector<nf::index_item> items;
  std::size_t dim = 0;
  for (const auto& t : oracle::split(text, ',')) {
    if (!t.empty() && t[0] == '[') {
      const auto close = t.find(']');
      std::vector<std::int64_t> v;
      for (const auto& p : oracle::split(t.substr(1, close - 1), ' '))
        if (!p.empty()) v.push_back(std::stoll(p));
      nf::array a = nf::asarray(v);
      if (close + 1 < t.size())
        a = a.reshape(ints(std::regex_replace(t.substr(close + 2), std::regex("x"), ",")));
      items.emplace_back(a);
      ++dim;
    } else if (t.size() > 1 && t[0] == 'm' && std::isdigit(static_cast<unsigned char>(t[1]))) {
      const std::size_t k = std::stoul(t.substr(1));
      items.emplace_back(mask_for(nf::shape_t(shape.begin() + std::min(dim, shape.size()),
                                              shape.begin() + std::min(dim + k, shape.size()))));
      dim += k;
    } else {
      items.push_back(parse_item(t));
      dim += (t == "None" || t == "...") ? 0 : 1;
    }
  }
  return items;
}

nf::index_item parse_item(const std::string& t) {
  if (t == "...") return nf::ellipsis;
  if (t == "None") return nf::newaxis;
  if (t.find(':') != std::string::npos) {
    auto parts = oracle::split(t, ':');
    if (parts.size() == 2) return nf::slice(bound(parts[0]), bound(parts[1]));
    return nf::slice(bound(parts[0]), bound(parts[1]), bound(parts[2]));
  }
  return std::stoll(t);
}

std::vector<std::int64_t> ints_sp(const std::string& s) {
  std::vector<std::int64_t> out;
  for (const auto& p : oracle::split(s, ' '))
    if (!p.empty()) out.push_back(std::stoll(p));
  return out;
}

// Advanced indexing functions, sorting and searching (gen_views.py's apply_advanced).
nf::array apply_advanced(const nf::array& x, const std::string& name, const std::vector<std::string>& a) {
  const bool flat = !a.empty() && a.back() == "none";
  if (name == "take") {
    const nf::array idx = nf::asarray(ints_sp(a[0]));
    return a[1] == "none" ? nf::take(x, idx) : nf::take(x, idx, std::stoi(a[1]));
  }
  if (name == "take_along_axis") {
    const std::int64_t n = x.size();
    const std::int64_t length =
        flat ? n : x.shape().at(nf::frontend::normalize_axis(std::stoi(a[0]), x.ndim(), "t"));
    const nf::array idx = (nf::arange(n) * 5 + 1) % std::max<std::int64_t>(length, 1);
    return flat ? nf::take_along_axis(x, idx, nf::none)
                : nf::take_along_axis(x, idx.reshape(x.shape()), std::stoi(a[0]));
  }
  if (name == "put") {
    nf::array y = x;
    nf::put(y, nf::asarray(ints_sp(a[0])), ((nf::arange(std::stoll(a[1])) % 7) + 1).astype(x.dtype()));
    return y;
  }
  if (name == "compress") {
    std::vector<std::uint8_t> c;
    for (char ch : a[0]) c.push_back(ch == '1');
    const nf::array cond = nf::asarray(c).astype(nf::dtype::bool_);
    return flat ? nf::compress(cond, x) : nf::compress(cond, x, std::stoi(a[1]));
  }
  if (name == "nonzero") return nf::nonzero(x).at(std::stoul(a[0]));
  if (name == "flatnonzero") return nf::flatnonzero(x);
  if (name == "argwhere") return nf::argwhere(x);
  if (name == "unique") return nf::unique(x);
  if (name == "sort") return flat ? nf::sort(x, nf::none) : nf::sort(x, std::stoi(a[0]));
  if (name == "argsort") return flat ? nf::argsort(x, nf::none) : nf::argsort(x, std::stoi(a[0]));
  if (name == "partition") return nf::partition(x, std::stoll(a[0]), std::stoi(a[1]));
  if (name == "argpartition") return nf::argpartition(x, std::stoll(a[0]), std::stoi(a[1]));
  if (name == "searchsorted") return nf::searchsorted(nf::sort(x.ravel()), x, a[0]);
  if (name == "unique_all") {
    auto r = nf::unique_all(x);
    const nf::array parts[] = {r.values, r.indices, r.inverse_indices, r.counts};
    return parts[std::stoi(a[0])];
  }
  if (name == "unique_counts") {
    auto r = nf::unique_counts(x);
    return a[0] == "0" ? r.values : r.counts;
  }
  if (name == "unique_inverse") {
    auto r = nf::unique_inverse(x);
    return a[0] == "0" ? r.values : r.inverse_indices;
  }
  if (name == "bincount") {
    const nf::array xi = nf::absolute(x).astype(nf::dtype::int64).ravel();
    if (a[1] == "1") return nf::bincount(xi, (nf::arange(xi.size()) % 5) * 0.5, std::stoll(a[0]));
    return nf::bincount(xi, std::stoll(a[0]));
  }
  throw std::runtime_error("test: unknown op " + name);
}

nf::array apply_op(const nf::array& x, const std::string& op) {
  const auto colon = op.find(':');
  const std::string name = op.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : op.substr(colon + 1);
  const auto a = arg.empty() ? std::vector<std::string>{} : oracle::split(arg, ';');
  if (name == "index")
    return nf::index(x, arg.empty() ? std::vector<nf::index_item>{} : parse_items(arg, x.shape()));
  if (name == "reshape") return x.reshape(ints(a[0]));
  if (name == "T") return x.T();
  if (name == "transpose") return a.empty() ? nf::transpose(x) : nf::transpose(x, ints32(a[0]));
  if (name == "swapaxes") return x.swapaxes(std::stoi(a[0]), std::stoi(a[1]));
  if (name == "moveaxis") return nf::moveaxis(x, ints32(a[0]), ints32(a[1]));
  if (name == "squeeze") return a.empty() ? x.squeeze() : nf::squeeze(x, nf::axes(ints32(a[0])));
  if (name == "expand_dims") return nf::expand_dims(x, ints32(a[0]));
  if (name == "broadcast_to") return nf::broadcast_to(x, ints(a[0]));
  if (name == "flip") return a.empty() ? nf::flip(x) : nf::flip(x, nf::axes(ints32(a[0])));
  if (name == "fliplr") return nf::fliplr(x);
  if (name == "flipud") return nf::flipud(x);
  if (name == "ravel") return x.ravel();
  if (name == "flatten") return x.flatten();
  if (name == "copy") return x.copy();
  if (name == "ascontiguousarray") return nf::ascontiguousarray(x);
  if (name == "atleast_1d") return nf::atleast_1d(x);
  if (name == "atleast_2d") return nf::atleast_2d(x);
  if (name == "atleast_3d") return nf::atleast_3d(x);
  if (name == "rot90") return nf::rot90(x, std::stoi(a[0]), ints32(a[1]));
  if (name == "diagonal") return x.diagonal(std::stoll(a[0]), std::stoi(a[1]), std::stoi(a[2]));
  if (name == "trace") return nf::trace(x, std::stoll(a[0]));
  if (name == "tril") return nf::tril(x, std::stoll(a[0]));
  if (name == "triu") return nf::triu(x, std::stoll(a[0]));
  if (name == "tile") return nf::tile(x, ints(a[0]));
  if (name == "repeat")
    return nf::repeat(x, std::stoll(a[0]),
                      a[1] == "none" ? std::nullopt : std::optional<int>(std::stoi(a[1])));
  if (name == "split" || name == "array_split") {
    const auto eq = a[0].find('=');
    const std::string kind = a[0].substr(0, eq), val = a[0].substr(eq + 1);
    const int axis = std::stoi(a[1]);
    std::vector<nf::array> parts;
    if (name == "split")
      parts = kind == "s" ? nf::split(x, std::stoll(val), axis) : nf::split(x, ints(val), axis);
    else
      parts = kind == "s" ? nf::array_split(x, std::stoll(val), axis) : nf::array_split(x, ints(val), axis);
    return parts.at(std::stoul(a[2]));
  }
  if (name == "concatenate") {
    const int ax = std::stoi(a[0]);
    const int nd = static_cast<int>(x.ndim());
    std::vector<nf::index_item> first(std::max(nd, 1), nf::index_item(nf::all));
    const int norm = nd > 0 ? ((ax % nd) + nd) % nd : 0;
    first[norm] = nf::slice(0, 1);
    if (nd == 0) return nf::concatenate({x, nf::flip(x, ax)}, ax);  // NumPy raises first: no axis 0
    return nf::concatenate({x, nf::flip(x, ax), nf::index(x, first)}, ax);
  }
  if (name == "stack")
    return nf::stack({x, x.dtype() == nf::dtype::bool_ ? nf::invert(x) : -x}, std::stoi(a[0]));
  if (name == "hstack") return nf::hstack({x, nf::flip(x)});
  if (name == "vstack") return nf::vstack({x, nf::flip(x)});
  if (name == "dstack") return nf::dstack({x, nf::flip(x)});
  if (name == "column_stack") return nf::column_stack({x, nf::flip(x)});
  if (name == "pad") {
    auto w = ints(a[0]);
    std::vector<std::pair<std::int64_t, std::int64_t>> pw;
    for (std::size_t i = 0; i + 1 < w.size(); i += 2) pw.emplace_back(w[i], w[i + 1]);
    return a[1] == "constant" ? nf::pad(x, pw, "constant", 7) : nf::pad(x, pw, a[1]);
  }
  if (name == "roll")
    return nf::roll(x, std::stoll(a[0]), a[1] == "none" ? std::nullopt : std::optional<int>(std::stoi(a[1])));
  if (name == "diag") return nf::diag(x, std::stoll(a[0]));
  if (name == "set") {
    std::vector<nf::index_item> items;
    if (!a[0].empty()) items = parse_items(a[0], x.shape());
    nf::array y = x;
    if (a[1] == "s") {
      nf::assign_index(y, items, 9);
    } else {
      nf::shape_t vshape = nf::index(x, items).shape();
      if (a[1] == "b") vshape = vshape.empty() ? vshape : nf::shape_t{vshape.back()};
      std::int64_t n = 1;
      for (auto d : vshape) n *= d;
      nf::array v = ((nf::arange(n) % 7) + 1).astype(x.dtype()).reshape(vshape);
      nf::assign_index(y, items, v);
    }
    return y;
  }
  return apply_advanced(x, name, a);
}

nf::array apply_spec(nf::array x, const std::string& spec) {
  std::size_t at = 0;
  while (true) {
    const auto bar = spec.find(" | ", at);
    x = apply_op(x, spec.substr(at, bar - at));
    if (bar == std::string::npos) return x;
    at = bar + 3;
  }
}

// An unevaluated node with x's values: a same-dtype copy that has not run.
nf::array lazy(const nf::array& x) {
  return ndfuse::frontend::lazy_copy(x);
}

struct input_mode {
  const char* name;
  std::function<nf::array(const nf::array& x, const std::optional<nf::array>& xt)> make;
};

}  // namespace

TEST_CASE("views oracle: indexing and manipulation on contiguous, lazy and strided inputs",
          "[oracle][views]") {
  const std::string dir = oracle::oracle_dir("views");
  if (dir.empty())
    NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_views.py writes it to $NDFUSE_ORACLE_DIR/views");
  const std::vector<input_mode> modes = {
      {"evaluated", [](const nf::array& x, const auto&) { return x; }},
      {"lazy", [](const nf::array& x, const auto&) { return lazy(x); }},
      {"strided", [](const nf::array& x, const auto& xt) { return xt ? nf::transpose(*xt) : x; }},
      {"strided lazy", [](const nf::array& x, const auto& xt) { return lazy(xt ? nf::transpose(*xt) : x); }},
  };
  int passed = 0, failed = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const std::string& id = row[0];
    const std::string& spec = row[1];
    const nf::array x = nf::load(dir + "/" + row[2]);
    std::optional<nf::array> xt;
    if (row[3] != "-") xt = nf::load(dir + "/" + row[3]);
    const std::string& expect = row[4];
    for (const auto& mode : modes) {
      const nf::array input = mode.make(x, xt);
      std::string problem;
      try {
        if (expect.rfind("RAISES:", 0) == 0) {
          problem =
              oracle::expect_throw(oracle::split(expect, ':')[1], [&] { return apply_spec(input, spec); });
        } else {
          nf::array got = apply_spec(input, spec);
          problem = oracle::compare(got.to_host(), oracle::read_npy(dir + "/" + expect), oracle::tolerance{});
          if (problem.empty()) {
            // The input is unchanged (views share it; nothing writes through them).
            problem =
                oracle::compare(input.to_host(), oracle::read_npy(dir + "/" + row[2]), oracle::tolerance{});
            if (!problem.empty()) problem = "input changed: " + problem;
          }
        }
      } catch (const std::exception& e) {
        problem = std::string("threw: ") + e.what();
      }
      if (problem.empty()) {
        ++passed;
      } else {
        ++failed;
        if (failed <= 30) UNSCOPED_INFO(id << " [" << mode.name << "]: " << problem);
      }
    }
  }
  INFO(passed << " case runs passed, " << failed << " failed");
  CHECK(failed == 0);
}
