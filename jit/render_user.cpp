// User kernels in CUDA source: each distinct kernel of a kernel IR's user_calls becomes a device
// function returning its outputs, defined before the element function that calls it. The user's
// body is spliced in as given, under a #line directive so NVRTC's messages name its own lines.
#include <set>
#include <sstream>

#include "jit/render_parts.hpp"
#include "support/hash.hpp"

namespace ndfuse::jit {

namespace {

std::string prefix(const ir::user_kernel& u) {
  return "nf_user_" + u.name + "_" + u.fingerprint.substr(0, 8);
}

// A preamble, once per source: a reduction kernel's three parts, or one kernel's instances for two
// dtype combinations, carry the same text, which defines its functions only once.
std::string preamble_block(const ir::user_kernel& u) {
  if (u.preamble.empty()) return "";
  const std::string guard =
      numbered("NF_DEFINED_PREAMBLE_", static_cast<long long>(support::fnv1a(u.preamble) >> 1));
  return "#ifndef " + guard + "\n#define " + guard + "\n#line 1 \"" + u.name + " (preamble)\"\n" +
         u.preamble + "\n#endif\n";
}

}  // namespace

std::string user_functions(const tuned_ir& k) {
  if (k.user_calls.empty() && !(k.reduction && k.reduction->combine_user)) return "";
  std::ostringstream os;
  bool sized = false, raw = false;
  for (const auto& call : k.user_calls) {
    sized = sized || call.def->uses_size;
    raw = raw || call.def->raw_count() > 0;
  }
  // A raw parameter: its elements by flat C-order index, and their count (CuPy's CArray).
  if (raw)
    os << "#ifndef NF_DEFINED_USER_RAW\n#define NF_DEFINED_USER_RAW\n"
       << "template <class T>\nstruct nf_user_raw {\n  const T* p;\n  long long n;\n"
       << "  __device__ const T& operator[](long long j) const { return p[j]; }\n"
       << "  __device__ long long size() const { return n; }\n};\n#endif\n\n";
  // _ind.size() in a body: the number of elements of the call (CuPy's CIndexer).
  if (sized)
    os << "#ifndef NF_DEFINED_USER_INDEXER\n#define NF_DEFINED_USER_INDEXER\n"
       << "struct nf_user_indexer {\n  long long n;\n  __device__ long long size() const { return n; }\n};\n"
       << "#endif\n\n";
  std::set<std::string> done;
  if (k.reduction && k.reduction->combine_user) {
    // A reduction kernel's reduce expression: a function of two partial results.
    const ir::user_kernel& c = *k.reduction->combine_user;
    const std::string f = prefix(c), acc = cuda_type(c.in[0].dt);
    done.insert(f);
    os << "#ifndef NF_DEFINED_" << f << "\n#define NF_DEFINED_" << f << '\n'
       << "// " << c.name << ": a reduction kernel's reduce expression, as given.\n";
    os << preamble_block(c);
    os << "static __device__ __forceinline__ " << acc << ' ' << f << "(const " << acc << " a, const " << acc
       << " b) {\n";
    for (const auto& [letter, t] : c.placeholders)
      os << "  typedef " << cuda_type(t) << ' ' << letter << ";\n";
    os << "#line 1 \"" << c.name << "\"\n  return (" << c.body << "\n);\n}\n#endif\n\n";
  }
  for (const auto& call : k.user_calls) {
    const ir::user_kernel& u = *call.def;
    const std::string f = prefix(u);
    if (!done.insert(f).second) continue;
    // A program of several kernels may define the same user kernel in each: defined once.
    const std::string guard = "NF_DEFINED_" + f;
    os << "#ifndef " << guard << "\n#define " << guard << '\n'
       << "// " << u.name << ": a user kernel (nf::elementwise_kernel), its body as given.\n";
    os << preamble_block(u);
    os << "struct " << f << "_outputs {\n";
    for (const auto& p : u.out) os << "  " << cuda_type(p.dt) << ' ' << p.name << ";\n";
    os << "};\n"
       << "static __device__ __forceinline__ " << f << "_outputs " << f << '(';
    std::string params;
    for (const auto& p : u.in)
      params += (p.raw ? std::string(", const nf_user_raw<") + cuda_type(p.dt) + "> "
                       : std::string(", const ") + cuda_type(p.dt) + ' ') +
                p.name;
    if (u.uses_index) params += ", const long long i";
    if (u.uses_size) params += ", const nf_user_indexer _ind";
    os << (params.empty() ? params : params.substr(2)) << ") {\n";
    for (const auto& [letter, t] : u.placeholders)
      os << "  typedef " << cuda_type(t) << ' ' << letter << ";\n";
    os << "  " << f << "_outputs nf_result;\n";
    for (const auto& p : u.out)
      os << "  " << cuda_type(p.dt) << "& " << p.name << " = nf_result." << p.name << ";\n";
    os << "#line 1 \"" << u.name << "\"\n" << u.body << "\n;\n  return nf_result;\n}\n#endif\n\n";
  }
  return os.str();
}

std::string user_combine_name(const ir::user_kernel& combine) {
  return prefix(combine);
}

std::string user_expression(const tuned_ir& k, const ir::instr& in) {
  const ir::user_call& call = k.user_calls[in.slot];
  const ir::user_kernel& u = *call.def;
  std::string args;
  std::size_t j = 0, raw_size = u.in.size() + u.uses_index + u.uses_size;
  for (; j < u.in.size(); ++j) {
    const int v = call.operands[j];
    args += v >= 0 ? ", " + value(v)
                   : std::string(", nf_user_raw<") + cuda_type(u.in[j].dt) + ">{" + numbered("in", -1 - v) +
                         ", " + value(call.operands[raw_size++]) + "}";
  }
  if (u.uses_index) args += ", " + value(call.operands[j++]);
  if (u.uses_size) args += ", nf_user_indexer{" + value(call.operands[j++]) + "}";
  return prefix(u) + "(" + (args.empty() ? args : args.substr(2)) + ")." + u.out[in.mode].name;
}

}  // namespace ndfuse::jit
