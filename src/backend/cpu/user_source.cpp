#include "backend/cpu/user_source.hpp"

#include <sstream>

#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

std::string host_type(dtype t, const ir::user_kernel& k) {
  switch (t) {
    case dtype::bool_:
      return "bool";
    case dtype::int8:
      return "signed char";
    case dtype::int16:
      return "short";
    case dtype::int32:
      return "int";
    case dtype::int64:
      return "long long";
    case dtype::uint8:
      return "unsigned char";
    case dtype::uint16:
      return "unsigned short";
    case dtype::uint32:
      return "unsigned int";
    case dtype::uint64:
      return "unsigned long long";
    case dtype::float32:
      return "float";
    case dtype::float64:
      return "double";
    case dtype::complex64:
      return "std::complex<float>";
    case dtype::complex128:
      return "std::complex<double>";
    default:
      throw dtype_error(k.name + ": user kernels on the CPU device do not take " +
                        std::string(dtype_name(t)) + " yet");
  }
}

void write_prologue(std::ostringstream& os, const ir::user_kernel& k) {
  os << "// " << k.name << ": a user kernel, compiled by ndfuse for the CPU device.\n"
     << "#include <algorithm>\n#include <cmath>\n#include <complex>\n#include <cstdint>\n#include "
        "<type_traits>\n\n"
     << "// The names CUDA gives a body without std:: (min, max, abs and the math functions).\n"
     << "using namespace std;\n"
     << "// A preamble written for CUDA (__device__ helpers) compiles here as plain C++.\n"
     << "#define __device__\n#define __host__\n#define __forceinline__ inline\n\n"
     << "namespace {\n\n";
  for (const auto& [letter, t] : k.placeholders)
    os << "typedef " << host_type(t, k) << ' ' << letter << ";\n";
  if (!k.placeholders.empty()) os << '\n';
  if (!k.preamble.empty()) os << "#line 1 \"" << k.name << " (preamble)\"\n" << k.preamble << "\n\n";
}

}  // namespace

std::string host_combine_source(const ir::user_kernel& c) {
  std::ostringstream os;
  write_prologue(os, c);
  const std::string acc = host_type(c.in[0].dt, c);
  os << "inline " << acc << " nf_combine(const " << acc << " a, const " << acc << " b) {\n#line 1 \""
     << c.name << "\"\n  return (" << c.body << "\n);\n}\n\n}  // namespace\n\n"
     << "// Eight interleaved partial folds combined pairwise, as the built-in folds (integers: in order).\n"
     << "extern \"C\" void " << user_fold_symbol << "(void* acc, const void* values, long long n) {\n"
     << "  const " << acc << "* v = static_cast<const " << acc << "*>(values);\n"
     << "  " << acc << " r = v[0];\n"
     << "  if (n < 8 || std::is_integral_v<" << acc << ">) {\n"
     << "    for (long long i = 1; i < n; ++i) r = nf_combine(r, v[i]);\n"
     << "  } else {\n"
     << "    " << acc << " lane[8];\n"
     << "    for (int j = 0; j < 8; ++j) lane[j] = v[j];\n"
     << "    long long i = 8;\n"
     << "    for (; i + 8 <= n; i += 8)\n"
     << "      for (int j = 0; j < 8; ++j) lane[j] = nf_combine(lane[j], v[i + j]);\n"
     << "    for (int j = 0; i < n; ++i, ++j) lane[j] = nf_combine(lane[j], v[i]);\n"
     << "    r = nf_combine(nf_combine(nf_combine(lane[0], lane[1]), nf_combine(lane[2], lane[3])),\n"
     << "                   nf_combine(nf_combine(lane[4], lane[5]), nf_combine(lane[6], lane[7])));\n"
     << "  }\n"
     << "  *static_cast<" << acc << "*>(acc) = r;\n}\n\n"
     << "extern \"C\" void " << user_combine_symbol << "(void* out, const void* const* in, long long n) {\n"
     << "  const " << acc << "* a = static_cast<const " << acc << "*>(in[0]);\n"
     << "  const " << acc << "* b = static_cast<const " << acc << "*>(in[1]);\n"
     << "  " << acc << "* o = static_cast<" << acc << "*>(out);\n"
     << "  for (long long i = 0; i < n; ++i) o[i] = nf_combine(a[i], b[i]);\n}\n";
  return os.str();
}

std::string host_source_name(const ir::user_kernel& k) {
  return "nf_user_" + k.name + "_" + k.fingerprint.substr(0, 8);
}

std::string host_source(const ir::user_kernel& k) {
  std::ostringstream os;
  write_prologue(os, k);
  os << "// _ind.size(): the number of elements of the call.\n"
     << "struct nf_indexer {\n  long long n;\n  long long size() const { return n; }\n};\n\n"
     << "// A raw parameter: its elements by flat C-order index, and their count.\n"
     << "template <class T>\nstruct nf_raw {\n  const T* p;\n  long long n;\n"
     << "  const T& operator[](long long j) const { return p[j]; }\n  long long size() const { return n; "
        "}\n};\n\n";
  // The body's own function, then the block loop over it; the loop's names (nf_*) cannot clash with
  // a parameter's (a parameter may be called n or out).
  os << "inline void nf_body(";
  std::string params;
  for (const auto& p : k.in)
    params +=
        (p.raw ? ", const nf_raw<" + host_type(p.dt, k) + "> " : ", const " + host_type(p.dt, k) + ' ') +
        p.name;
  for (const auto& p : k.out) params += ", " + host_type(p.dt, k) + "& " + p.name;
  if (k.uses_index) params += ", const long long i";
  if (k.uses_size) params += ", const nf_indexer& _ind";
  os << (params.empty() ? params : params.substr(2)) << ") {\n#line 1 \"" << k.name << "\"\n"
     << k.body << "\n;\n}\n\n}  // namespace\n\n";
  os << "extern \"C\" void " << user_block_symbol
     << "(void* const* nf_out, const void* const* nf_in, long long nf_n) {\n";
  std::string args;
  int slot = 0;
  // Raw inputs' element counts come after the other operands, in the inputs' order.
  int raw_size_slot = static_cast<int>(k.in.size()) + k.uses_index + k.uses_size;
  for (const auto& p : k.in) {
    const std::string local = "nf_in" + std::to_string(slot);
    const std::string type = host_type(p.dt, k);
    if (p.raw) {
      os << "  const nf_raw<" << type << "> " << local << "{static_cast<const " << type << "*>(nf_in["
         << slot++ << "]), *static_cast<const long long*>(nf_in[" << raw_size_slot++ << "])};\n";
      args += ", " + local;
    } else {
      os << "  const auto* " << local << " = static_cast<const " << type << "*>(nf_in[" << slot++ << "]);\n";
      args += ", " + local + "[nf_e]";
    }
  }
  for (std::size_t o = 0; o < k.out.size(); ++o) {
    const std::string local = "nf_out" + std::to_string(o);
    os << "  auto* " << local << " = static_cast<" << host_type(k.out[o].dt, k) << "*>(nf_out[" << o
       << "]);\n";
    args += ", " + local + "[nf_e]";
  }
  if (k.uses_index) {
    os << "  const auto* nf_index = static_cast<const long long*>(nf_in[" << slot++ << "]);\n";
    args += ", nf_index[nf_e]";
  }
  if (k.uses_size) {
    os << "  const nf_indexer nf_size{*static_cast<const long long*>(nf_in[" << slot++ << "])};\n";
    args += ", nf_size";
  }
  os << "  for (long long nf_e = 0; nf_e < nf_n; ++nf_e) nf_body(" << (args.empty() ? args : args.substr(2))
     << ");\n}\n";
  return os.str();
}

}  // namespace ndfuse::backend::cpu
