#include "jit/render.hpp"
#include "jit/render_parts.hpp"

#include <algorithm>
#include <sstream>

#include "jit/cuda_ops.hpp"
#include "jit/kernel_abi.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::jit {

using ir::index_class;
using ir::op_code;

bool is_flat(ir::index_class c) {
  return c == index_class::flat;
}

void check_identifier(const std::string& name) {
  bool ok = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name)
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  if (!ok) throw error("jit::render: kernel name '" + name + "' is not a C identifier");
}

// Origins are free text from the DAG; keep each on its comment line.
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

std::string value(int v) {
  return numbered("v", v);
}

// The dtype of the value an iota slot produces (its instruction's dtype).
dtype iota_dtype(const tuned_ir& k, int slot) {
  for (const auto& in : k.code)
    if ((in.op == op_code::iota || in.op == op_code::random) && in.slot == slot) return in.dt;
  throw error(numbered("jit::render: iota slot ", slot) + " is never read");
}

// nf_random<engine, form, residue>(it<k>, a<k>): element a of a draw (jit/prelude/nf_random.cuh).
std::string random_call(const ir::instr& in) {
  static const char* const forms[] = {"NF_BITS64",     "NF_BITS32",        "NF_UNIT_DOUBLE",
                                      "NF_UNIT_FLOAT", "NF_NORMAL_DOUBLE", "NF_NORMAL_FLOAT"};
  const auto m = ir::random_mode::unpack(in.mode);
  return std::string("nf_random<") +
         (m.engine == ir::random_engine::philox4x64 ? "NF_PHILOX4X64, " : "NF_PHILOX4X32, ") +
         forms[static_cast<int>(m.form)] + numbered(", ", m.residue) + numbered(">(it", in.slot) +
         numbered(", a", in.slot) + ")";
}

// The right-hand side of one instruction.
std::string expression(const tuned_ir& k, const ir::instr& in) {
  const char* type = cuda_type(in.dt);
  switch (in.op) {
    case op_code::buffer: {
      // A guarded or gathered input arrives as the element's address: dereferenced only where the
      // guard holds, at the gather's extra offset.
      if (!k.inputs[in.slot].by_address()) return numbered("in", in.slot);
      const std::string load = in.args[1] < 0 ? "*" + numbered("in", in.slot)
                                              : numbered("in", in.slot) + "[" + value(in.args[1]) + "]";
      return in.args[0] < 0 ? load : value(in.args[0]) + " ? " + load + " : " + type + "{}";
    }
    case op_code::scalar:
      return numbered("s", in.slot);
    case op_code::iota:
      return "nf_iota<" + std::string(type) + numbered(">(it", in.slot) + numbered(", a", in.slot) + ")";
    case op_code::random:
      return random_call(in);
    case op_code::cast:
      if (in.operand_dt == in.dt) return value(in.args[0]);
      return "nf_cast<" + std::string(type) + ">(" + value(in.args[0]) + ")";
    case op_code::where:
      return value(in.args[0]) + " ? " + value(in.args[1]) + " : " + value(in.args[2]);
    case op_code::reduced:
      return "reduced";
    case op_code::user:
      return user_expression(k, in);
    default: {
      std::string operands[3];
      int count = 0;
      for (; count < 3 && in.args[count] >= 0; ++count) operands[count] = value(in.args[count]);
      return fill_template(cuda_template(in.op), operands, count);
    }
  }
}

// Instruction lines with their origin comments aligned.
void write_instructions(std::ostringstream& os, const tuned_ir& k, int first, int last) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (int v = first; v < last; ++v) {
    const auto& in = k.code[v];
    lines.emplace_back(
        "const " + std::string(cuda_type(in.dt)) + ' ' + value(v) + " = " + expression(k, in) + ';',
        one_line(ir::instr_origin(in)));
  }
  std::size_t column = 0;
  for (const auto& l : lines) column = std::max(column, l.first.size());
  column = std::min<std::size_t>(column, 72);
  for (const auto& [code, comment] : lines)
    os << "  " << code << std::string(column - std::min(column, code.size()) + 2, ' ') << "// " << comment
       << '\n';
}

std::string input_param(const tuned_ir& k, int i) {
  const std::string type = cuda_type(k.inputs[i].dt);
  return k.inputs[i].by_address() ? "const " + type + numbered("* in", i)
                                  : "const " + type + numbered(" in", i);
}

std::string input_arg(const tuned_ir& k, int i, const std::string& linear) {
  const std::string in = numbered("in", i);
  if (k.inputs[i].by_address()) return in + numbered(" + o", i);  // never flat
  return is_flat(k.inputs[i].cls) ? in + "[" + linear + "]" : in + numbered("[o", i) + "]";
}

std::string kernel_signature(const tuned_ir& k, const std::string& name) {
  std::ostringstream os;
  // A reduction whose accumulator fits 4 bytes asks for full occupancy (blocks_per_sm blocks, at
  // most 32 registers a thread). Left alone, ptxas gave such folds 34 registers: 6 resident blocks
  // instead of 8, and a row of four floats (one 16-byte load per thread) then kept too few loads
  // in flight (sum over axis 1 of 67108864 x 4 float32 ran at copy speed, behind CuPy). At 32 they
  // showed no new spills (sum, prod, max, nanmax, var, count_nonzero, any, sum(a * b), norm, cumsum;
  // float32, float16, int32, bool).
  // Wider accumulators (float64, complex, arg pairs) keep ptxas's choice: capped, they spilled. So
  // does a lane folding neighbouring outputs side by side (fold_layout::output_units), whose
  // accumulator is all of them: capped, var's column pass over float32 spilled and took 0.45 ms
  // on an H100 against 0.357 uncapped (research/reduce_columns.cu).
  // A reduction's pointers are __restrict__: its outputs are fresh buffers (the fuser never donates
  // an input to a reduction), so no input is written while the kernel runs, and its loads may take
  // the read-only data path (LDG.CONSTANT), as CUB's do.
  const bool full_occupancy =
      k.reduction && reduce_acc_bytes(k) * static_cast<std::size_t>(reduce_lane_outputs(k)) <= 4;
  os << "extern \"C\" __global__ void __launch_bounds__(" << block_threads;
  if (full_occupancy) os << ", " << blocks_per_sm;
  os << ")\n" << name << '(';
  const auto layout = param_layout(k);
  for (std::size_t p = 0; p < layout.size(); ++p) {
    const auto& info = layout[p];
    const bool pointer = info.role == param_role::output || info.role == param_role::input;
    os << (p ? ",\n    " : "") << (pointer ? "" : "const ") << info.type
       << (pointer && k.reduction ? " __restrict__ " : " ") << info.name;
  }
  os << ")";
  return os.str();
}

namespace {

std::string header_comment(const tuned_ir& k, const std::string& name) {
  std::ostringstream os;
  os << "// ndfuse kernel " << name << ": " << k.code.size() << " instructions, " << k.outputs.size()
     << (k.outputs.size() == 1 ? " output\n" : " outputs\n");
  if (!k.inputs.empty()) {
    os << "//   inputs: ";
    for (std::size_t i = 0; i < k.inputs.size(); ++i)
      os << (i ? ", " : " ") << "in" << i << ' ' << dtype_name(k.inputs[i].dt) << ' '
         << (k.is_transposed(i) ? "transposed" : ir::index_class_name(k.inputs[i].cls));
    os << '\n';
  }
  if (!k.scalars.empty()) {
    os << "//   scalars:";
    for (std::size_t i = 0; i < k.scalars.size(); ++i)
      os << (i ? ", " : " ") << 's' << i << ' ' << dtype_name(k.scalars[i]);
    os << '\n';
  }
  if (!k.iotas.empty()) {
    os << "//   iotas:  ";
    for (std::size_t i = 0; i < k.iotas.size(); ++i)
      os << (i ? ", " : " ") << "it" << i << ' ' << dtype_name(iota_dtype(k, int(i))) << ' '
         << (is_random_slot(k, int(i)) ? "random " : "") << ir::index_class_name(k.iotas[i]);
    os << '\n';
  }
  os << "//   outputs:";
  for (std::size_t o = 0; o < k.outputs.size(); ++o)
    os << (o ? ", " : " ") << "out" << o << ' ' << dtype_name(k.outputs[o].dt) << " = v"
       << k.outputs[o].value;
  os << '\n';
  os << "//   index:   " << k.ndim << "-d collapsed shape, " << (k.index_64 ? "64" : "32")
     << "-bit indices, grid-stride loop\n//   access:  ";
  const int w = vector_width(k);
  if (k.tile_dim >= 0)
    os << "32 x 32 tiles over dims " << k.tile_dim << " and " << k.ndim - 1
       << ", transposed inputs staged in shared memory\n";
  else if (!vectorized(k))
    os << "multi-index per element for the broadcast/strided operands\n";
  else if (w > 1)
    os << "vectorized, " << w << " elements per thread and step (16-byte accesses), then a scalar tail\n";
  else
    os << "flat, one element per thread and step (a 16-byte dtype sets the width)\n";
  return os.str();
}

// The element function: one line per instruction, then the output assignments.
std::string element_function(const tuned_ir& k, const std::string& name) {
  std::vector<std::string> params;
  for (std::size_t o = 0; o < k.outputs.size(); ++o)
    params.push_back(std::string(cuda_type(k.outputs[o].dt)) + numbered("& out", o));
  for (std::size_t i = 0; i < k.inputs.size(); ++i) params.push_back(input_param(k, static_cast<int>(i)));
  for (std::size_t i = 0; i < k.scalars.size(); ++i)
    params.push_back("const " + std::string(cuda_type(k.scalars[i])) + numbered(" s", i));
  for (std::size_t i = 0; i < k.iotas.size(); ++i) {
    params.push_back("const " + std::string(iota_slot_type(k, int(i))) + numbered("& it", i));
    params.push_back(numbered("const long long a", i));
  }

  std::ostringstream os;
  os << "// One element of " << name
     << ": each line is one kernel-IR instruction, commented with the DAG node\n"
     << "// it computes.\n"
     << "static __device__ __forceinline__ void " << name << "_element(";
  std::size_t length = 0;
  for (const auto& p : params) length += p.size() + 2;
  const char* separator = length > 60 ? ",\n    " : ", ";  // one parameter per line when they do not fit
  for (std::size_t p = 0; p < params.size(); ++p) os << (p ? separator : "") << params[p];
  os << ") {\n";
  write_instructions(os, k, 0, static_cast<int>(k.code.size()));
  for (std::size_t o = 0; o < k.outputs.size(); ++o) {
    const auto& out = k.outputs[o];
    const std::string v = value(out.value);
    os << "  out" << o << " = "
       << (k.code.at(out.value).dt == out.dt ? v
                                             : "nf_cast<" + std::string(cuda_type(out.dt)) + ">(" + v + ")")
       << ";\n";
  }
  os << "}\n";
  return os.str();
}

// All inputs and iotas flat: a 16-byte vector loop over whole vectors, then a scalar loop for the
// tail (or for everything when some array is not aligned for vector access).
std::string vectorized_body(const tuned_ir& k, const std::string& name, const std::string& idx) {
  const int w = vector_width(k);
  const std::string ws = std::to_string(w);
  std::ostringstream os;
  if (w > 1) {
    os << "  " << idx << " tail = 0;\n";
    os << "  // Vector path: " << ws << " consecutive elements per thread and step, each array moved " << ws
       << " x itemsize bytes at once\n"
       << "  // (from " << vector_min_elements
       << " elements: a smaller array finishes sooner one element per thread, on more threads).\n"
       << "  if (n >= " << vector_min_elements;
    bool first = false;
    for (std::size_t o = 0; o < k.outputs.size(); ++o) {
      os << (first ? "" : " && ") << "nf_aligned<" << w * itemsize(k.outputs[o].dt) << ">(out" << o << ")";
      first = false;
    }
    os << ") {\n";
    if (!k.inputs.empty()) {
      os << "    // An input at an offset that is not a multiple of " << ws
         << " elements (a[1:]) is read one element at a time.\n    const bool";
      for (std::size_t i = 0; i < k.inputs.size(); ++i)
        os << (i ? "," : "") << " wide" << i << " = nf_aligned<" << w * itemsize(k.inputs[i].dt) << ">(in"
           << i << ")";
      os << ";\n";
    }
    os << "    const " << idx << " nvec = n / " << ws << ";\n"
       << "    for (" << idx << " v = first; v < nvec; v += step) {\n"
       << "      const " << idx << " i = v * " << ws << ";\n";
    for (std::size_t i = 0; i < k.inputs.size(); ++i)
      os << "      const nf_vec<" << cuda_type(k.inputs[i].dt) << ", " << ws << "> x" << i << " = wide" << i
         << " ? nf_load_vec<" << ws << ">(in" << i << " + i) : nf_load_elements<" << ws << ">(in" << i
         << " + i);\n";
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      os << "      nf_vec<" << cuda_type(k.outputs[o].dt) << ", " << ws << "> y" << o << ";\n";
    os << "#pragma unroll\n"
       << "      for (int l = 0; l < " << ws << "; ++l)\n"
       << "        "
       << element_call(
              k, name, [](int o) { return numbered("y", o) + ".v[l]"; },
              [](int i) { return numbered("x", i) + ".v[l]"; },
              [](int) { return std::string("(long long)(i + l)"); })
       << ";\n";
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      os << "      nf_store_vec<" << ws << ">(out" << o << " + i, y" << o << ");\n";
    os << "    }\n"
       << "    tail = nvec * " << ws << ";\n"
       << "  }\n"
       << "  // Scalar path: the last n % " << ws
       << " elements, or all of them when the array is small or an output misaligned.\n";
  }
  os << "  for (" << idx << " i = " << (w > 1 ? "tail + first" : "first") << "; i < n; i += step)\n"
     << "    "
     << element_call(
            k, name, [](int o) { return numbered("out", o) + "[i]"; },
            [](int i) { return numbered("in", i) + "[i]"; }, [](int) { return std::string("(long long)i"); })
     << ";\n";
  return os.str();
}

// Some input or iota is broadcast or strided: per element, the multi-index of i over the collapsed
// shape, then each such operand's offset from its strides.
std::string strided_body(const tuned_ir& k, const std::string& name, const std::string& idx,
                         const std::string& off) {
  const int nd = k.ndim;
  std::ostringstream os;
  os << "  for (" << idx << " i = first; i < n; i += step) {\n";
  std::vector<std::string> coord(nd);
  if (nd == 1) {
    coord[0] = "i";
  } else {
    os << "    // Coordinates of i in the collapsed shape (row-major).\n";
    bool divided = false;  // whether the rest of i is in r yet
    for (int d = nd - 1; d >= 1; --d) {
      const char* rest = divided ? "r" : "i";
      os << "    const " << idx << " c" << d << " = " << rest << " % shape.d[" << d << "];\n";
      if (d > 1) {
        if (!divided)
          os << "    " << idx << " r = i / shape.d[" << d << "];\n";
        else
          os << "    r /= shape.d[" << d << "];\n";
        divided = true;
      } else {
        os << "    const " << idx << " c0 = " << rest << " / shape.d[1];\n";
      }
    }
    for (int d = 0; d < nd; ++d) coord[d] = numbered("c", d);
  }
  auto dot = [&](const std::string& type, const std::string& coeffs) {
    std::string s;
    for (int d = 0; d < nd; ++d)
      s += (d ? " + " : "") + std::string("(") + type + ")" + coord[d] + " * " + coeffs + numbered(".d[", d) +
           "]";
    return s;
  };
  for (std::size_t i = 0; i < k.inputs.size(); ++i)
    if (!is_flat(k.inputs[i].cls))
      os << "    const " << off << " o" << i << " = " << dot(off, numbered("in", i) + "_strides")
         << ";  // in" << i << ' ' << ir::index_class_name(k.inputs[i].cls) << '\n';
  for (std::size_t i = 0; i < k.iotas.size(); ++i) {
    if (is_flat(k.iotas[i])) continue;
    os << "    const long long a" << i << " = " << dot("long long", numbered("it", i) + "_coeffs") << ";\n";
  }
  os << "    "
     << element_call(
            k, name, [](int o) { return numbered("out", o) + "[i]"; },
            [&](int i) { return input_arg(k, i, "i"); },
            [&](int i) { return is_flat(k.iotas[i]) ? std::string("(long long)i") : numbered("a", i); })
     << ";\n"
     << "  }\n";
  return os.str();
}

std::string kernel_code(const tuned_ir& k, const std::string& name) {
  check_identifier(name);
  if (k.reduction) return reduction_kernel_code(k, name);
  if (k.outputs.empty()) throw error("jit::render: kernel " + name + " has no outputs");
  if (k.ndim < 1) throw error("jit::render: kernel " + name + " has ndim < 1");
  const std::string idx = k.index_64 ? "unsigned long long" : "unsigned";
  const std::string off = k.index_64 ? "long long" : "int";
  const std::string widen = k.index_64 ? "(unsigned long long)" : "";
  std::ostringstream os;
  os << header_comment(k, name) << '\n'
     << user_functions(k) << element_function(k, name) << '\n'
     << kernel_signature(k, name) << " {\n";
  if (k.tile_dim >= 0) {
    os << tiled_body(k, name, idx, off) << "}\n";
    return os.str();
  }
  os << "  const " << idx << " first = " << widen << "blockIdx.x * blockDim.x + threadIdx.x;\n"
     << "  const " << idx << " step = " << widen << "gridDim.x * blockDim.x;\n"
     << (vectorized(k) ? vectorized_body(k, name, idx) : strided_body(k, name, idx, off)) << "}\n";
  return os.str();
}

}  // namespace

std::string include_line() {
  return std::string("#include \"") + prelude_header +
         "\"  // jit/prelude/*.cuh: element types, op functions, math\n";
}

std::string render(const tuned_ir& k, const std::string& name) {
  std::string body = kernel_code(k, name);
  // The header comment stays first: it is what a reader of a dumped file looks for.
  const std::size_t end = body.find("\n\n");
  return body.substr(0, end + 1) + include_line() + body.substr(end + 1);
}

std::string render_program(const std::vector<named_kernel>& kernels) {
  std::string out = numbered("// ndfuse program: ", kernels.size()) + " kernels\n" + include_line();
  for (const auto& nk : kernels) out += '\n' + kernel_code(*nk.kernel, nk.name);
  return out;
}

}  // namespace ndfuse::jit
