// The tiled elementwise kernel: a transposed read (x.T() copied, or fused into arithmetic) would
// touch one element per 32-byte sector if threads walked the output's order. Instead each block
// takes 32 x 32 tiles of the iteration space over (tile_dim, last dim): it loads every transposed
// input with consecutive threads along tile_dim, where that input's stride is 1, into shared
// memory; then runs the element code with consecutive threads along the last dim, where the
// output is contiguous. Other inputs are read at their offsets, as in the strided kernel.
#include <sstream>

#include "jit/cuda_ops.hpp"
#include "jit/render_parts.hpp"

namespace ndfuse::jit {

namespace {

// sum over all dims of (type)c<d> * coeffs.d[d]
std::string dot_all(int nd, const std::string& type, const std::string& coeffs) {
  std::string s;
  for (int d = 0; d < nd; ++d)
    s += (d ? " + " : "") + std::string("(") + type + ")c" + std::to_string(d) + " * " + coeffs + ".d[" +
         std::to_string(d) + "]";
  return s;
}

// The row-major linear index of (c0, ..., c<nd-1>): the output's element.
std::string linear_index(int nd) {
  std::string s = "c0";
  for (int d = 1; d < nd; ++d)
    s = (d > 1 ? "(" + s + ")" : s) + " * shape.d[" + std::to_string(d) + "] + c" + std::to_string(d);
  return s;
}

}  // namespace

std::string tiled_body(const tuned_ir& k, const std::string& name, const std::string& idx,
                       const std::string& off) {
  const int nd = k.ndim, p = k.tile_dim, l = nd - 1;
  const std::string P = std::to_string(p), L = std::to_string(l);
  const std::string cp = "c" + P, cl = "c" + L;
  const std::string in_tile = cp + " < shape.d[" + P + "] && " + cl + " < shape.d[" + L + "]";
  std::ostringstream os;
  os << "  // Tiles of 32 x 32 over (dim " << P << ", dim " << L
     << "), 8 rows of threads each; the +1 column keeps\n"
     << "  // both walks of a tile free of shared-memory bank conflicts.\n";
  for (std::size_t i = 0; i < k.inputs.size(); ++i)
    if (k.is_transposed(i))
      os << "  __shared__ " << cuda_type(k.inputs[i].dt) << " tile" << i << "[32][33];  // in" << i << '\n';
  os << "  const unsigned tx = threadIdx.x % 32, ty = threadIdx.x / 32;\n"
     << "  if (n == 0) return;\n"
     << "  const " << idx << " tiles_p = (shape.d[" << P << "] + 31) / 32, tiles_l = (shape.d[" << L
     << "] + 31) / 32;\n"
     << "  const " << idx << " n_tiles = n / (shape.d[" << P << "] * shape.d[" << L
     << "]) * tiles_p * tiles_l;\n"
     << "  for (" << idx << " t = blockIdx.x; t < n_tiles; t += gridDim.x) {\n"
     << "    const " << idx << " l0 = t % tiles_l * 32, p0 = t / tiles_l % tiles_p * 32;\n";
  std::vector<int> others;
  for (int d = 0; d < nd; ++d)
    if (d != p && d != l) others.push_back(d);
  if (!others.empty()) {
    os << "    // Coordinates of the tile's other dims (row-major).\n"
       << "    " << idx << " q = t / tiles_l / tiles_p;\n";
    for (std::size_t j = others.size(); j-- > 1;) {
      const std::string d = std::to_string(others[j]);
      os << "    const " << idx << " c" << d << " = q % shape.d[" << d << "];\n"
         << "    q /= shape.d[" << d << "];\n";
    }
    os << "    const " << idx << " c" << others[0] << " = q;\n";
  }

  os << "    // Load: consecutive threads along dim " << P << ", where each transposed input has stride 1.\n"
     << "    for (unsigned j = ty; j < 32; j += 8) {\n"
     << "      const " << idx << ' ' << cp << " = p0 + tx, " << cl << " = l0 + j;\n"
     << "      if (" << in_tile << ") {\n";
  for (std::size_t i = 0; i < k.inputs.size(); ++i)
    if (k.is_transposed(i))
      os << "        tile" << i << "[j][tx] = in" << i << "["
         << dot_all(nd, off, numbered("in", i) + "_strides") << "];\n";
  os << "      }\n"
     << "    }\n"
     << "    __syncthreads();\n"
     << "    // Compute: consecutive threads along dim " << L << ", where the outputs are contiguous.\n"
     << "    for (unsigned j = ty; j < 32; j += 8) {\n"
     << "      const " << idx << ' ' << cp << " = p0 + j, " << cl << " = l0 + tx;\n"
     << "      if (!(" << in_tile << ")) continue;\n"
     << "      const " << idx << " i = " << linear_index(nd) << ";\n";
  for (std::size_t i = 0; i < k.inputs.size(); ++i)
    if (!is_flat(k.inputs[i].cls) && !k.is_transposed(i))
      os << "      const " << off << " o" << i << " = " << dot_all(nd, off, numbered("in", i) + "_strides")
         << ";  // in" << i << ' ' << ir::index_class_name(k.inputs[i].cls) << '\n';
  for (std::size_t i = 0; i < k.iotas.size(); ++i)
    if (!is_flat(k.iotas[i]))
      os << "      const long long a" << i << " = " << dot_all(nd, "long long", numbered("it", i) + "_coeffs")
         << ";\n";
  os << "      "
     << element_call(
            k, name, [](int o) { return numbered("out", o) + "[i]"; },
            [&](int i) {
              return k.is_transposed(i) ? numbered("tile", i) + "[tx][j]" : input_arg(k, i, "i");
            },
            [&](int i) { return is_flat(k.iotas[i]) ? std::string("(long long)i") : numbered("a", i); })
     << ";\n"
     << "    }\n"
     << "    __syncthreads();  // the next tile overwrites the shared tiles\n"
     << "  }\n";
  return os.str();
}

}  // namespace ndfuse::jit
