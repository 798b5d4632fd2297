#include "ir/view.hpp"

namespace ndfuse::ir {

bool apply_view(const view_params& v, const shape_t& in_shape, const shape_t& out_shape,
                std::vector<std::int64_t>& strides, std::int64_t& offset) {
  if (v.reshape) {
    std::vector<std::int64_t> out;
    if (!reshape_strides(in_shape, strides, out_shape, out)) return false;
    strides = std::move(out);
    return true;
  }
  const std::size_t in_nd = in_shape.size(), out_nd = out_shape.size();
  std::vector<std::int64_t> out(out_nd, 0);
  for (std::size_t d = 0; d < in_nd; ++d) {
    offset += strides[d] * v.base[d];
    for (std::size_t k = 0; k < out_nd; ++k) out[k] += strides[d] * v.coeff[d * out_nd + k];
  }
  // An empty or size-1 output dim is never stepped along; a zero stride keeps it out of the way of
  // contiguity checks and index-width bounds.
  for (std::size_t k = 0; k < out_nd; ++k)
    if (out_shape[k] <= 1) out[k] = 0;
  strides = std::move(out);
  return true;
}

// Groups input and output dims into runs of equal element count; within a run the input must be
// contiguous (each dim's stride = next stride * next extent), and the output strides follow from the
// run's innermost stride. Size-1 dims are ignored on both sides. (The algorithm of NumPy's
// _attempt_nocopy_reshape.)
bool reshape_strides(const shape_t& in_shape, const std::vector<std::int64_t>& in_strides,
                     const shape_t& out_shape, std::vector<std::int64_t>& out_strides) {
  out_strides.assign(out_shape.size(), 0);
  std::int64_t total = 1;
  for (auto d : in_shape) total *= d;
  if (total == 0) return true;  // nothing is ever read
  std::vector<std::int64_t> is, ist;
  for (std::size_t d = 0; d < in_shape.size(); ++d)
    if (in_shape[d] != 1) {
      is.push_back(in_shape[d]);
      ist.push_back(in_strides[d]);
    }
  std::vector<std::size_t> out_dims;
  for (std::size_t d = 0; d < out_shape.size(); ++d)
    if (out_shape[d] != 1) out_dims.push_back(d);
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  const std::size_t old_nd = is.size(), new_nd = out_dims.size();
  while (ni < new_nd && oi < old_nd) {
    std::int64_t np = out_shape[out_dims[ni]], op = is[oi];
    while (np != op) {
      if (np < op)
        np *= out_shape[out_dims[nj++]];
      else
        op *= is[oj++];
    }
    for (std::size_t ok = oi; ok + 1 < oj; ++ok)
      if (ist[ok] != is[ok + 1] * ist[ok + 1]) return false;
    out_strides[out_dims[nj - 1]] = ist[oj - 1];
    for (std::size_t nk = nj - 1; nk > ni; --nk)
      out_strides[out_dims[nk - 1]] = out_strides[out_dims[nk]] * out_shape[out_dims[nk]];
    ni = nj++;
    oi = oj++;
  }
  return true;
}

std::vector<std::int64_t> broadcast_strides(const shape_t& from, const std::vector<std::int64_t>& strides,
                                            const shape_t& to) {
  std::vector<std::int64_t> out(to.size(), 0);
  std::size_t lead = to.size() - from.size();
  for (std::size_t i = lead; i < to.size(); ++i) out[i] = from[i - lead] == 1 ? 0 : strides[i - lead];
  return out;
}

}  // namespace ndfuse::ir
