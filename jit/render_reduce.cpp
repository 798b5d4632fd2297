// Render: reduction and scan kernels. The generated source has the prologue as an element
// function (one line per instruction, per element), the epilogue as a finish function (per
// output), a combine functor from the op table, and a kernel that hands lambdas for the three to
// the driver templates of jit/prelude/nf_reduce.cuh, which own the thread mapping and fold order.
#include <algorithm>
#include <sstream>
#include <vector>

#include "jit/cuda_ops.hpp"
#include "jit/kernel_abi.hpp"
#include "jit/render_parts.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::jit {

namespace {

using ir::op_code;

struct phase {
  int first = 0, last = 0;   // instructions [first, last)
  std::vector<int> inputs;   // input slots read
  std::vector<int> scalars;  // scalar slots read
  std::vector<int> iotas;    // iota slots read
  bool reads_reduced = false;
};

phase phase_of(const tuned_ir& k, int first, int last) {
  phase p;
  p.first = first;
  p.last = last;
  for (int v = first; v < last; ++v) {
    const auto& in = k.code[v];
    auto add = [](std::vector<int>& list, int slot) {
      if (std::find(list.begin(), list.end(), slot) == list.end()) list.push_back(slot);
    };
    if (in.op == op_code::buffer) add(p.inputs, in.slot);
    if (in.op == op_code::scalar) add(p.scalars, in.slot);
    if (in.op == op_code::iota || in.op == op_code::random) add(p.iotas, in.slot);
    if (in.op == op_code::reduced) p.reads_reduced = true;
  }
  std::sort(p.inputs.begin(), p.inputs.end());
  std::sort(p.scalars.begin(), p.scalars.end());
  std::sort(p.iotas.begin(), p.iotas.end());
  return p;
}

std::vector<std::string> phase_params(const tuned_ir& k, const phase& p) {
  std::vector<std::string> params;
  for (int i : p.inputs) params.push_back(input_param(k, i));
  for (int i : p.scalars)
    params.push_back("const " + std::string(cuda_type(k.scalars[i])) + numbered(" s", i));
  for (int i : p.iotas) {
    params.push_back("const " + std::string(iota_slot_type(k, i)) + numbered("& it", i));
    params.push_back(numbered("const long long a", i));
  }
  return params;
}

std::string join_params(const std::vector<std::string>& params) {
  std::size_t length = 0;
  for (const auto& p : params) length += p.size() + 2;
  const char* separator = length > 60 ? ",\n    " : ", ";
  std::string s;
  for (std::size_t i = 0; i < params.size(); ++i) s += (i ? separator : "") + params[i];
  return s;
}

std::string element_function(const tuned_ir& k, const std::string& name, const phase& p) {
  const auto& r = *k.reduction;
  std::ostringstream os;
  os << "// The prologue: the value folded for one element. Each line is one kernel-IR instruction,\n"
     << "// commented with the DAG node it computes.\n"
     << "static __device__ __forceinline__ " << cuda_type(r.acc_dt) << ' ' << name << "_element("
     << join_params(phase_params(k, p)) << ") {\n";
  write_instructions(os, k, p.first, p.last);
  os << "  return " << value(r.value) << ";\n}\n";
  return os.str();
}

std::string finish_function(const tuned_ir& k, const std::string& name, const phase& p) {
  const auto& r = *k.reduction;
  const bool scan = r.strategy == ir::reduce_strategy::scan;
  std::vector<std::string> params;
  for (std::size_t o = 0; o < k.outputs.size(); ++o)
    params.push_back(std::string(cuda_type(k.outputs[o].dt)) + numbered("& out", o));
  params.push_back(std::string("const ") + cuda_type(ir::is_arg_reduction(r.kind) ? dtype::int64 : r.acc_dt) +
                   " reduced");
  for (auto& q : phase_params(k, p)) params.push_back(q);
  std::ostringstream os;
  os << (scan ? "// The epilogue: one output element from the running result.\n"
              : "// The epilogue: one output from the folded result.\n")
     << "static __device__ __forceinline__ void " << name << "_finish(" << join_params(params) << ") {\n";
  write_instructions(os, k, p.first, p.last);
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

std::string combine_code(const tuned_ir& k, const std::string& name) {
  const auto& r = *k.reduction;
  const std::string acc = reduce_acc_type(k);
  if (ir::is_arg_reduction(r.kind)) return "";
  const std::string operands[2] = {"a", "b"};
  std::ostringstream os;
  os << "// Folds two partial results (" << (r.combine_user ? r.combine_user->name : ir::op_name(r.combine))
     << ").\n"
     << "struct " << name << "_combine {\n"
     << "  __device__ __forceinline__ " << acc << " operator()(const " << acc << " a, const " << acc
     << " b) const {\n"
     << "    return "
     << (r.combine_user ? user_combine_name(*r.combine_user) + "(a, b)"
         : r.combine == ir::op_code::multiply && is_complex(r.acc_dt)
             ? std::string("nf_prod_fold(a, b)")
             : fill_template(cuda_template(r.combine), operands, 2))
     << ";\n"
     << "  }\n};\n";
  return os.str();
}

std::string combine_expression(const tuned_ir& k, const std::string& name) {
  const auto& r = *k.reduction;
  using ir::reduce_kind;
  if (!ir::is_arg_reduction(r.kind)) return name + "_combine()";
  const bool max = r.kind == reduce_kind::argmax || r.kind == reduce_kind::nanargmax;
  const bool nan = r.kind == reduce_kind::nanargmin || r.kind == reduce_kind::nanargmax;
  return std::string(nan ? "nf_nanarg_combine<" : "nf_arg_combine<") + cuda_type(r.acc_dt) +
         (max ? ", true>()" : ", false>()");
}

// Coordinates c<first>..c<last-1> of `var` over shape.d[first..last) (row-major).
void coordinates(std::ostringstream& os, const std::string& var, int first, int last, const std::string& idx,
                 const std::string& indent = "    ") {
  if (last - first == 1) {
    os << indent << "const " << idx << " c" << first << " = " << var << ";\n";
    return;
  }
  os << indent << idx << " q" << var << " = " << var << ";\n";
  for (int d = last - 1; d > first; --d)
    os << indent << "const " << idx << " c" << d << " = q" << var << " % shape.d[" << d << "];  q" << var
       << " /= shape.d[" << d << "];\n";
  os << indent << "const " << idx << " c" << first << " = q" << var << ";\n";
}

std::string dot(const std::string& type, const std::string& coeffs, int first, int last) {
  std::string s;
  for (int d = first; d < last; ++d)
    s += (d > first ? " + " : "") + std::string("(") + type + ")c" + std::to_string(d) + " * " + coeffs +
         ".d[" + std::to_string(d) + "]";
  return s.empty() ? "0" : s;
}

// Offsets of a phase's inputs and iotas at coordinates c<0..dims) (the epilogue: kept dims only),
// then the call of `fn` with them. A flat operand's offset is the linear position o * n_red + r.
std::string load_and_call(const tuned_ir& k, const phase& p, int dims, const std::string& off,
                          const std::string& linear, const std::string& call_head) {
  std::ostringstream os;
  std::vector<std::string> args;
  for (int i : p.inputs) {
    if (is_flat(k.inputs[i].cls)) {
      args.push_back(numbered("in", i) + "[" + linear + "]");
      continue;
    }
    os << "    const " << off << " o" << i << " = " << dot(off, numbered("in", i) + "_strides", 0, dims)
       << ";\n";
    args.push_back(input_arg(k, i, linear));
  }
  for (int i : p.scalars) args.push_back(numbered("s", i));
  for (int i : p.iotas) {
    args.push_back(numbered("it", i));
    args.push_back(is_flat(k.iotas[i])
                       ? "(long long)(" + linear + ")"
                       : "(" + dot("long long", numbered("it", i) + "_coeffs", 0, dims) + ")");
  }
  os << "    " << call_head;
  for (const auto& a : args) os << ", " << a;
  os << ");\n";
  return os.str();
}

// Whether a phase reads some operand through strides (and so needs coordinates).
bool needs_coordinates(const tuned_ir& k, const phase& p) {
  for (int i : p.inputs)
    if (!is_flat(k.inputs[i].cls)) return true;
  for (int i : p.iotas)
    if (!is_flat(k.iotas[i])) return true;
  return false;
}

std::string header_comment(const tuned_ir& k, const std::string& name, const phase& epi) {
  const auto& r = *k.reduction;
  const bool scan = r.strategy == ir::reduce_strategy::scan;
  std::ostringstream os;
  os << "// ndfuse kernel " << name << ": " << (scan ? "scan" : "reduction") << ", " << k.code.size()
     << " instructions, " << k.outputs.size() << (k.outputs.size() == 1 ? " output\n" : " outputs\n");
  os << "//   fold:    "
     << (ir::is_arg_reduction(r.kind) ? ir::reduce_kind_name(r.kind) : ir::op_name(r.combine)) << " of v"
     << r.value << " in " << dtype_name(r.acc_dt) << ", " << ir::reduce_strategy_name(r.strategy)
     << " strategy\n";
  os << "//   space:   " << k.ndim << "-d collapsed shape: " << r.kept_ndim << " kept dim(s) (outputs), "
     << k.ndim - r.kept_ndim << (scan ? " scanned" : " reduced") << "; " << (k.index_64 ? "64" : "32")
     << "-bit indices\n";
  if (!scan) os << "//   layout:  " << reduce_layout_name(k) << '\n';
  if (!k.inputs.empty()) {
    os << "//   inputs: ";
    for (std::size_t i = 0; i < k.inputs.size(); ++i) {
      const bool in_epilogue = std::count(epi.inputs.begin(), epi.inputs.end(), int(i)) > 0;
      os << (i ? ", " : " ") << "in" << i << ' ' << dtype_name(k.inputs[i].dt) << ' '
         << ir::index_class_name(k.inputs[i].cls) << (in_epilogue ? " (per output)" : "");
    }
    os << '\n';
  }
  if (!k.scalars.empty()) {
    os << "//   scalars:";
    for (std::size_t i = 0; i < k.scalars.size(); ++i)
      os << (i ? ", " : " ") << 's' << i << ' ' << dtype_name(k.scalars[i]);
    os << '\n';
  }
  os << "//   outputs:";
  for (std::size_t o = 0; o < k.outputs.size(); ++o)
    os << (o ? ", " : " ") << "out" << o << ' ' << dtype_name(k.outputs[o].dt) << " = v"
       << k.outputs[o].value;
  os << '\n';
  return os.str();
}

// The prologue's call on lane `lane` of each input's nf_vec x<slot> (a unit of elements or of
// outputs), with the scalars, and each iota at `iota_index` (a long long expression).
std::string lane_call(const std::string& name, const phase& pro, const std::string& lane,
                      const std::string& iota_index) {
  std::string c = name + "_element(";
  bool first = true;
  auto arg_of = [&](const std::string& a) {
    c += (first ? "" : ", ") + a;
    first = false;
  };
  for (int in : pro.inputs) arg_of(numbered("x", in) + ".v[" + lane + "]");
  for (int sc : pro.scalars) arg_of(numbered("s", sc));
  for (int it : pro.iotas) {
    arg_of(numbered("it", it));
    arg_of(iota_index);
  }
  return c + ")";
}

// An outer fold with output units (fold_layout::output_units): lane u folds outputs u*w ..
// u*w+w-1 side by side, each its own fold, through nf_reduce with an nf_vec accumulator. Where the
// host found the inputs laid out for it (reduce.wide), one wide load per input brings a lane its w
// elements of a row; otherwise the w elements load one by one, in the same order.
std::string output_units_fold(const tuned_ir& k, const std::string& name, const phase& pro,
                              const std::string& off, const std::string& acc) {
  const auto& r = *k.reduction;
  const int width = reduce_lane_outputs(k);
  const std::string w = std::to_string(width);
  const std::string lanes = "nf_vec<" + acc + ", " + w + ">";
  std::ostringstream os;
  os << "  // Lane unit u: outputs u*" << w << " .. u*" << w << "+" << width - 1
     << " at reduced element r, side by side; each output's fold is its own.\n"
     << "  auto element_lanes = [&](const idx u, const idx r) {\n"
     << "    " << lanes << " a;\n";
  if (reduce_wide_loads(k)) {
    os << "    if (reduce.wide) {  // one wide load per input (the host checked strides and alignment)\n"
       << "      const idx o = u * " << w << ";\n";
    coordinates(os, "o", 0, r.kept_ndim, "idx", "      ");
    coordinates(os, "r", r.kept_ndim, k.ndim, "idx", "      ");
    for (int in : pro.inputs)
      os << "      const " << off << " o" << in << " = "
         << dot(off, numbered("in", in) + "_strides", 0, k.ndim) << ";\n"
         << "      const nf_vec<" << cuda_type(k.inputs[in].dt) << ", " << w << "> x" << in
         << " = nf_load_vec<" << w << ">(in" << in << " + o" << in << ");\n";
    // reduce_wide_loads leaves out prologues with iotas: no iota index here.
    os << "#pragma unroll\n"
       << "      for (int l = 0; l < " << w << "; ++l) a.v[l] = " << lane_call(name, pro, "l", "") << ";\n"
       << "      return a;\n"
       << "    }\n";
  }
  os << "#pragma unroll\n"
     << "    for (int l = 0; l < " << w << "; ++l) a.v[l] = element(u * " << w << " + l, r);\n"
     << "    return a;\n"
     << "  };\n"
     << "  auto finish_lanes = [&](const idx u, const " << lanes << " a) {\n"
     << "#pragma unroll\n"
     << "    for (int l = 0; l < " << w << "; ++l) finish(u * " << w << " + l, a.v[l]);\n"
     << "  };\n"
     << "  nf_reduce_args lane_units = reduce;\n"
     << "  lane_units.n_out /= " << w << ";\n"
     << "  nf_reduce<" << lanes << ", idx, false>(lane_units, nf_splat<" << w
     << ">(identity), nf_lanes_combine<" << name << "_combine>(), element_lanes, finish_lanes);\n";
  return os.str();
}

}  // namespace

std::string reduction_kernel_code(const tuned_ir& k, const std::string& name) {
  const auto& r = *k.reduction;
  const bool scan = r.strategy == ir::reduce_strategy::scan;
  const bool arg = ir::is_arg_reduction(r.kind);
  const int kept = r.kept_ndim, nd = k.ndim;
  if (nd <= kept) throw error("jit::render: reduction kernel " + name + " has no reduced dims");
  const phase pro = phase_of(k, 0, r.epilogue_begin);
  const phase epi = phase_of(k, r.epilogue_begin, static_cast<int>(k.code.size()));
  const std::string idx = k.index_64 ? "unsigned long long" : "unsigned";
  const std::string off = k.index_64 ? "long long" : "int";
  const std::string acc = reduce_acc_type(k);
  const std::string value_t = cuda_type(r.acc_dt);
  std::ostringstream os;
  os << header_comment(k, name, epi) << '\n'
     << user_functions(k) << element_function(k, name, pro) << '\n'
     << finish_function(k, name, epi) << '\n';
  const std::string combine = combine_code(k, name);
  if (!combine.empty()) os << combine << '\n';
  os << kernel_signature(k, name) << " {\n"
     << "  typedef " << idx << " idx;\n"
     << "  const idx n_red = (idx)reduce.n_red;\n";
  // element(o, r): the prologue at reduced element r of output o.
  os << "  // Element r of output o: o runs over the kept dims (c0.." << kept - 1 << "), r over the "
     << (scan ? "scanned" : "reduced") << " dims (c" << kept << ".." << nd - 1 << ").\n"
     << "  auto element = [&](const idx o, const idx r) {\n";
  if (needs_coordinates(k, pro)) {
    if (kept > 0) coordinates(os, "o", 0, kept, "idx");
    coordinates(os, "r", kept, nd, "idx");
  }
  std::string element_call =
      load_and_call(k, pro, nd, off, "o * n_red + r", "const " + value_t + " v = " + name + "_element(");
  // The call head leaves a leading ", " before the first argument; tidy it.
  if (auto at = element_call.find("_element(, "); at != std::string::npos) element_call.erase(at + 9, 2);
  os << element_call;
  if (!arg)
    os << "    return v;\n";
  else if (r.kind == ir::reduce_kind::nanargmin || r.kind == ir::reduce_kind::nanargmax)
    os << "    return nf_nanarg_element<" << value_t
       << (r.kind == ir::reduce_kind::nanargmax ? ", true>" : ", false>")
       << "(v, (long long)r);  // NaN counts as " << (r.kind == ir::reduce_kind::nanargmax ? "-inf" : "+inf")
       << "\n";
  else
    os << "    return " << acc << "{v, (long long)r};\n";
  os << "  };\n";
  const std::string folded = arg ? "nf_arg_result(acc.index)" : "acc";
  if (!scan) {
    os << "  // The epilogue at output o (contiguous over the kept dims).\n"
       << "  auto finish = [&](const idx o, const " << acc << " acc) {\n";
    if (kept > 0 && needs_coordinates(k, epi)) coordinates(os, "o", 0, kept, "idx");
    std::string outs;
    for (std::size_t o = 0; o < k.outputs.size(); ++o) outs += (o ? ", " : "") + numbered("out", o) + "[o]";
    os << load_and_call(k, epi, kept, off, "o * n_red", name + "_finish(" + outs + ", " + folded);
    os << "  };\n";
    // Only the path this kernel's sizes take is rendered (fold_layout::units and per_thread).
    const std::string driver =
        k.fold.per_thread
            ? "nf_reduce_per_thread<" + acc + ", idx, " + std::to_string(k.fold.per_thread_n_red) + ">("
            : "nf_reduce<" + acc + ", idx, " + (r.strategy == ir::reduce_strategy::outer ? "false" : "true") +
                  ">(";
    const std::string tail = std::string(", ") + (arg ? acc + "{{}, -1}" : std::string("identity")) + ", " +
                             combine_expression(k, name) + ", ";
    const int width = reduce_fold_width(k);
    if (width > 1) {
      const std::string w = std::to_string(width);
      // The folded value of one unit from each input's nf_vec x<slot>, and the linear index i of
      // its first element (for iotas).
      auto unit_fold = [&](const std::string& indent) {
        auto call = [&](const std::string& lane) {
          return lane_call(name, pro, lane, "(long long)(i + " + lane + ")");
        };
        os << indent << acc << " a = " << call("0") << ";\n"
           << "#pragma unroll\n"
           << indent << "for (int l = 1; l < " << w << "; ++l) a = " << combine_expression(k, name) << "(a, "
           << call("l") << ");\n"
           << indent << "return a;\n";
      };
      os << "  // Unit u of output o is elements u*" << w << " .. u*" << w << "+" << width - 1
         << ", folded in order: the fold order depends on the sizes alone, not on how units are loaded.\n"
         << "  auto element_unit = [&](const idx o, const idx u) {\n";
      if (reduce_wide_loads(k)) {
        os << "    if (reduce.wide) {  // one wide load per input (the host checked the alignment)\n"
           << "      const idx i = o * n_red + u * " << w << ";\n";
        for (int in : pro.inputs)
          os << "      const nf_vec<" << cuda_type(k.inputs[in].dt) << ", " << w << "> x" << in
             << " = nf_load_vec<" << w << ">(in" << in << " + i);\n";
        unit_fold("      ");
        os << "    }\n";
      }
      os << "    " << acc << " a = element(o, u * " << w << ");\n"
         << "#pragma unroll\n"
         << "    for (int l = 1; l < " << w << "; ++l) a = " << combine_expression(k, name)
         << "(a, element(o, u * " << w << " + l));\n"
         << "    return a;\n"
         << "  };\n"
         << "  nf_reduce_args units = reduce;\n"
         << "  units.n_red /= " << w << ";\n";
      // A full fold whose length does not divide into units: its last n_red % w elements.
      std::string tail_args;
      if (k.fold.tail) {
        os << "  // The n_red % " << w << " elements after the last unit, folded after the units.\n"
           << "  const idx n_tail = n_red % " << w << ", tail_first = n_red - n_tail;\n"
           << "  auto element_tail = [&](const idx o, const idx e) { return element(o, tail_first + e); };\n";
        tail_args = ", n_tail, element_tail";
      }
      if (!k.fold.staged) {
        os << "  " << driver << "units" << tail << "element_unit, finish" << tail_args << ");\n";
      } else {
        const std::size_t stage_bytes = reduce_stage_bytes(k);
        std::string copy = "nf_unstaged()", staged = "nf_unstaged()";
        if (stage_bytes > 0) {
          // Each input's chunk sits after the previous input's in a stage buffer, with
          // reduce_stage_spare bytes for a shifted one (nf_stage_shift): its copy then starts on the
          // 16-byte boundary before the chunk and takes 16 bytes more. Input q of the stage is the q-th
          // of reduce_prologue_inputs, the order the launch packs the shifts in (cuda_backend.cpp).
          const std::vector<int> staged_inputs = reduce_prologue_inputs(k);
          std::vector<std::string> at, shift;
          std::size_t unit_offset = 0;  // bytes of the earlier inputs' units
          for (std::size_t q = 0; q < staged_inputs.size(); ++q) {
            std::string a = "stage";
            if (unit_offset) a += " + NF_STAGE_UNITS * " + std::to_string(unit_offset);
            if (q) a += " + " + std::to_string(reduce_stage_spare * q);
            at.push_back(a);
            shift.push_back(numbered("sh", static_cast<int>(q)));
            unit_offset += reduce_unit_bytes(k, staged_inputs[q]);
          }
          std::string shifts = "  const unsigned ";
          for (std::size_t q = 0; q < staged_inputs.size(); ++q)
            shifts += (q ? ", " : "") + shift[q] + " = nf_stage_shift(reduce, " + std::to_string(q) + ")";
          os << "  // A chunk (NF_STAGE_UNITS units from unit u of output o) of every input into a stage "
                "buffer,\n"
             << "  // by the bulk copy engine, completing on the stage's barrier; and unit j of a staged "
                "chunk.\n"
             << "  // sh<q>: the bytes input q's chunks start past a 16-byte boundary (a view such as "
                "x[1:]).\n"
             << shifts << ";\n"
             << "  auto stage_copy = [&](unsigned char* stage, unsigned long long* bar, const idx o, const "
                "idx u) {\n"
             << "    const idx i = o * n_red + u * " << w << ";\n";
          std::string expect;
          for (std::size_t q = 0; q < staged_inputs.size(); ++q)
            expect += " + nf_stage_spare(" + shift[q] + ")";
          os << "    nf_bulk_expect(bar, " << stage_bytes - reduce_stage_spare * staged_inputs.size() << "u"
             << expect << ");  // the bytes of the whole stage\n";
          for (std::size_t q = 0; q < staged_inputs.size(); ++q) {
            const int in = staged_inputs[q];
            os << "    nf_bulk_copy_shifted(" << at[q] << ", in" << in << " + i, NF_STAGE_UNITS * "
               << reduce_unit_bytes(k, in) << ", " << shift[q] << ", bar);\n";
          }
          os << "  };\n"
             << "  auto element_staged = [&](const unsigned char* stage, const idx o, const idx u, const "
                "unsigned j,\n"
             << "                            const bool shifted) {\n";
          if (!pro.iotas.empty()) os << "    const idx i = o * n_red + u * " << w << ";\n";
          for (std::size_t q = 0; q < staged_inputs.size(); ++q) {
            const int in = staged_inputs[q];
            const std::string t = cuda_type(k.inputs[in].dt);
            os << "    const nf_vec<" << t << ", " << w << "> x" << in << " = nf_load_staged<" << w << ", "
               << t << ">(" << at[q] << ", " << shift[q] << ", j, shifted);\n";
          }
          unit_fold("    ");
          os << "  };\n";
          copy = "stage_copy";
          staged = "element_staged";
        }
        os << "  nf_reduce_staged<" << acc << ", idx, " << stage_bytes << ">(units, identity, "
           << combine_expression(k, name) << ", element_unit, " << copy << ", " << staged << ", finish"
           << tail_args << ");\n";
      }
    } else if (k.fold.output_units) {
      os << output_units_fold(k, name, pro, off, acc);
    } else {
      os << "  " << driver << "reduce" << tail << "element, finish);\n";
    }
  } else {
    os << "  // The epilogue at element r of row o, written where the input's C order puts it.\n"
       << "  auto store = [&](const idx o, const idx r, const " << acc << " acc) {\n";
    if (kept > 0) coordinates(os, "o", 0, kept, "idx");
    coordinates(os, "r", kept, nd, "idx");
    os << "    const " << off << " w = " << dot(off, "out_strides", 0, nd) << ";\n";
    std::string outs;
    for (std::size_t o = 0; o < k.outputs.size(); ++o) outs += (o ? ", " : "") + numbered("out", o) + "[w]";
    os << load_and_call(k, epi, nd, off, "o * n_red + r", name + "_finish(" + outs + ", acc");
    os << "  };\n"
       << "  nf_scan<" << acc << ", idx>(reduce, identity, " << combine_expression(k, name)
       << ", element, store);\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace ndfuse::jit
