// nf::einsum: subscripts parsed into integer labels (letters, and one label per ellipsis axis),
// then the operands reduced one pair at a time, left to right. Repeated labels within an operand
// are diagonals (views), labels nobody needs later are summed first (fused reductions), and each
// pair is one (batched) matrix product: shared labels still needed are the batch, shared labels
// not needed are contracted, the others are the free rows and columns.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "frontend/build.hpp"
#include "ndfuse/linalg.hpp"
#include "ndfuse/manipulation.hpp"
#include "ndfuse/math.hpp"
#include "ndfuse/reduce.hpp"

namespace ndfuse {

namespace {

using labels = std::vector<int>;
constexpr int ellipsis_label = 1000;  // ellipsis axis j (right-aligned) is ellipsis_label + j

int letter_label(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  throw value_error(std::string("einsum: invalid subscript '") + c + "' (letters and ... only)");
}

// The labels of one term; `ellipsis_dims` is how many axes its "..." covers (-1: the term has none).
labels parse_term(const std::string& term, std::int64_t ndim, int max_ellipsis, bool output,
                  int* ellipsis_dims) {
  labels out;
  std::size_t dots = term.find("...");
  if (dots != std::string::npos && term.find("...", dots + 1) != std::string::npos)
    throw value_error("einsum: more than one ellipsis in '" + term + "'");
  const std::string before = dots == std::string::npos ? term : term.substr(0, dots);
  const std::string after = dots == std::string::npos ? "" : term.substr(dots + 3);
  for (char c : before) out.push_back(letter_label(c));
  if (dots != std::string::npos) {
    const std::int64_t named = std::int64_t(before.size() + after.size());
    const int count = output ? max_ellipsis : static_cast<int>(ndim - named);
    if (count < 0) throw value_error("einsum: operand has more subscripts than dimensions in '" + term + "'");
    for (int j = 0; j < count; ++j) out.push_back(ellipsis_label + (max_ellipsis - count) + j);
    if (ellipsis_dims) *ellipsis_dims = count;
  }
  for (char c : after) out.push_back(letter_label(c));
  if (!output && std::int64_t(out.size()) != ndim)
    throw value_error("einsum: operand has " + std::to_string(ndim) + " dimensions but subscripts '" + term +
                      "' name " + std::to_string(out.size()));
  return out;
}

struct term {
  array a;
  labels l;
};

// Repeated labels become diagonals (NumPy's 'ii->i'), the diagonal axis last as nf::diagonal puts it.
term take_diagonals(term t) {
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 0; i < t.l.size() && !again; ++i)
      for (std::size_t j = i + 1; j < t.l.size() && !again; ++j)
        if (t.l[i] == t.l[j]) {
          if (t.a.shape()[i] != t.a.shape()[j])
            throw shape_error("einsum: dimensions in operand for collapsing index don't match (" +
                              std::to_string(t.a.shape()[i]) + " != " + std::to_string(t.a.shape()[j]) + ")");
          const int label = t.l[i];
          t.a = diagonal(t.a, 0, static_cast<int>(i), static_cast<int>(j));
          t.l.erase(t.l.begin() + j);
          t.l.erase(t.l.begin() + i);
          t.l.push_back(label);
          again = true;
        }
  }
  return t;
}

// Sums the axes whose labels are not in `keep`.
term sum_unneeded(term t, const std::set<int>& keep) {
  std::vector<int> axes;
  labels rest;
  for (std::size_t d = 0; d < t.l.size(); ++d)
    (keep.count(t.l[d]) ? rest.push_back(t.l[d]) : axes.push_back(static_cast<int>(d)));
  if (!axes.empty()) t.a = sum(t.a, ndfuse::axes(axes), false, t.a.dtype());  // einsum keeps the dtype
  t.l = rest;
  return t;
}

std::int64_t size_of(const term& t, int label) {
  for (std::size_t d = 0; d < t.l.size(); ++d)
    if (t.l[d] == label) return t.a.shape()[d];
  return 1;
}

// x and y contracted into one term whose labels are (batch, free x, free y).
term contract(const term& x, const term& y, const std::set<int>& keep) {
  labels batch, contracted, free_x, free_y;
  for (int l : x.l) {
    const bool shared = std::find(y.l.begin(), y.l.end(), l) != y.l.end();
    (shared ? (keep.count(l) ? batch : contracted) : free_x).push_back(l);
  }
  for (int l : y.l)
    if (std::find(x.l.begin(), x.l.end(), l) == x.l.end()) free_y.push_back(l);
  // Shared axes of length 1 on one side broadcast (NumPy's einsum does), others must agree.
  auto joint = [&](int l) {
    const std::int64_t a = size_of(x, l), b = size_of(y, l);
    if (a != b && a != 1 && b != 1)
      throw shape_error("einsum: operands could not be broadcast together (" + std::to_string(a) + " vs " +
                        std::to_string(b) + " for one subscript)");
    return std::max(a, b);
  };
  auto arrange = [&](const term& t, const std::vector<const labels*>& groups) {
    std::vector<int> order;
    shape_t full;
    for (const labels* g : groups)
      for (int l : *g) {
        order.push_back(static_cast<int>(std::find(t.l.begin(), t.l.end(), l) - t.l.begin()));
        full.push_back(g == &free_x || g == &free_y ? size_of(t, l) : joint(l));
      }
    return broadcast_to(transpose(t.a, order), full);
  };
  shape_t bshape;
  std::int64_t B = 1, K = 1, M = 1, N = 1;
  for (int l : batch) bshape.push_back(joint(l)), B *= bshape.back();
  for (int l : contracted) K *= joint(l);
  for (int l : free_x) M *= size_of(x, l);
  for (int l : free_y) N *= size_of(y, l);
  const array xm = reshape(arrange(x, {&batch, &free_x, &contracted}), {B, M, K});
  const array ym = reshape(arrange(y, {&batch, &contracted, &free_y}), {B, K, N});
  shape_t out = bshape;
  for (int l : free_x) out.push_back(size_of(x, l));
  for (int l : free_y) out.push_back(size_of(y, l));
  term r{reshape(matmul(xm, ym), out), batch};
  r.l.insert(r.l.end(), free_x.begin(), free_x.end());
  r.l.insert(r.l.end(), free_y.begin(), free_y.end());
  return r;
}

}  // namespace

array einsum(const std::string& subscripts, const std::vector<array>& operands) {
  std::string spec;
  for (char c : subscripts)
    if (c != ' ') spec += c;
  const std::size_t arrow = spec.find("->");
  const std::string inputs = spec.substr(0, arrow);
  std::vector<std::string> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = inputs.find(',', start);
    terms.push_back(inputs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != operands.size())
    throw value_error("einsum: " + std::to_string(terms.size()) + " subscript terms for " +
                      std::to_string(operands.size()) + " operands");
  int max_ellipsis = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    frontend::checked(operands[i], "einsum");
    int e = -1;
    parse_term(terms[i], operands[i].ndim(), 0, false, &e);
    max_ellipsis = std::max(max_ellipsis, e);
  }
  std::vector<term> ts;
  std::map<int, int> count;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ts.push_back({operands[i], parse_term(terms[i], operands[i].ndim(), max_ellipsis, false, nullptr)});
    for (int l : std::set<int>(ts.back().l.begin(), ts.back().l.end())) ++count[l];
  }
  labels out;
  if (arrow != std::string::npos) {
    out = parse_term(spec.substr(arrow + 2), 0, max_ellipsis, true, nullptr);
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (!count.count(out[i])) throw value_error("einsum: output subscript not in any input");
      if (std::count(out.begin(), out.end(), out[i]) > 1)
        throw value_error("einsum: output subscript repeated");
    }
  } else {
    // Implicit: the ellipsis axes, then the letters used once, in NumPy's (ASCII) order: A-Z, a-z.
    for (int j = 0; j < max_ellipsis; ++j) out.push_back(ellipsis_label + j);
    std::vector<int> once;
    for (const auto& [l, c] : count) {
      std::int64_t total = 0;
      for (const auto& t : ts) total += std::count(t.l.begin(), t.l.end(), l);
      if (l < ellipsis_label && total == 1) once.push_back(l);
    }
    std::sort(once.begin(), once.end(),
              [](int a, int b) { return (a >= 26) != (b >= 26) ? a >= 26 : a < b; });
    out.insert(out.end(), once.begin(), once.end());
  }
  // Left to right: each term's diagonals, then sums of labels needed by nothing later, then a product.
  auto needed_after = [&](std::size_t i) {
    std::set<int> keep(out.begin(), out.end());
    for (std::size_t j = i + 1; j < ts.size(); ++j) keep.insert(ts[j].l.begin(), ts[j].l.end());
    return keep;
  };
  term acc = take_diagonals(ts[0]);
  for (std::size_t i = 1; i < ts.size(); ++i) {
    std::set<int> keep = needed_after(i);
    term next = take_diagonals(ts[i]);
    std::set<int> keep_x = keep, keep_y = keep;
    keep_x.insert(next.l.begin(), next.l.end());
    keep_y.insert(acc.l.begin(), acc.l.end());
    acc = contract(sum_unneeded(acc, keep_x), sum_unneeded(next, keep_y), keep);
  }
  acc = sum_unneeded(acc, std::set<int>(out.begin(), out.end()));
  std::vector<int> order;
  for (int l : out)
    order.push_back(static_cast<int>(std::find(acc.l.begin(), acc.l.end(), l) - acc.l.begin()));
  return order.empty() ? acc.a : transpose(acc.a, order);
}

}  // namespace ndfuse
