// Text form of a plan, for nf::explain() and NDFUSE_DEBUG=2.
#include <complex>
#include <sstream>

#include "schedule/plan.hpp"

namespace ndfuse::schedule {

std::string describe(const plan& p) {
  std::ostringstream os;
  std::size_t calls = 0;
  for (const auto& st : p.steps) calls += st.library ? 1 : 0;
  const std::size_t kernels = p.steps.size() - calls;
  os << "plan: " << kernels << (kernels == 1 ? " kernel" : " kernels");
  if (calls) os << ", " << calls << (calls == 1 ? " library call" : " library calls");
  os << '\n';
  for (std::size_t si = 0; si < p.steps.size(); ++si) {
    const auto& st = p.steps[si];
    const auto& k = st.kernel;
    if (st.library) {
      os << "  step " << si << ": " << st.name << " (" << dtype_name(st.library->dt) << ") -> "
         << dtype_name(st.outputs[0]->dt) << ' ' << shape_str(st.outputs[0]->shape) << '\n';
      if (st.library->op == ir::library_op::gemm) {
        // How BLAS reads each operand: the flags that replace copies, and any folded scale.
        const auto& g = st.library->gemm;
        auto op = [](const ir::gemm_operand& o) { return !o.transposed ? "N" : o.conjugated ? "C" : "T"; };
        auto num = [](double re, double im) {
          std::ostringstream v;
          if (im == 0)
            v << re;
          else
            v << std::complex<double>(re, im);
          return v.str();
        };
        os << "    batch " << g.batch << " of (" << g.m << " x " << g.k << ") @ (" << g.k << " x " << g.n
           << "), ops " << op(g.a) << op(g.b) << ", alpha " << num(g.alpha_re, g.alpha_im);
        if (g.has_c())
          os << ", beta " << num(g.beta_re, g.beta_im) << " (in2 is C"
             << (!st.donor.empty() && st.donor[0] == 2 ? ", updated in place)" : ", copied to the output)");
        os << '\n';
      }
      for (std::size_t i = 0; i < st.inputs.size(); ++i)
        os << "    in" << i << ": " << dtype_name(st.inputs[i].node->dt) << "  buffer "
           << shape_str(st.inputs[i].node->shape) << '\n';
      continue;
    }
    os << "  kernel " << si << ": " << st.name << "  iterates " << shape_str(st.iteration_shape);
    if (st.collapsed_shape != st.iteration_shape) os << " as " << shape_str(st.collapsed_shape);
    os << (k.index_64 ? ", 64-bit index" : ", 32-bit index") << "\n";
    if (k.reduction) {
      const auto& r = *k.reduction;
      os << "    " << (r.strategy == ir::reduce_strategy::scan ? "scan " : "reduce ")
         << (ir::is_arg_reduction(r.kind) ? ir::reduce_kind_name(r.kind) : ir::op_name(r.combine)) << " of v"
         << r.value << " in " << dtype_name(r.acc_dt) << ", " << ir::reduce_strategy_name(r.strategy)
         << " strategy: " << r.kept_ndim << " kept dim(s), " << (k.ndim - r.kept_ndim)
         << " reduced; per-output epilogue from v" << r.epilogue_begin << "\n";
    }
    for (std::size_t i = 0; i < st.inputs.size(); ++i) {
      os << "    in" << i << ": " << dtype_name(k.inputs[i].dt) << ' '
         << ir::index_class_name(k.inputs[i].cls) << "  buffer " << shape_str(st.inputs[i].node->shape);
      for (std::size_t o = 0; o < st.donor.size(); ++o)
        if (st.donor[o] == static_cast<int>(i)) os << "  (donated to out" << o << ")";
      os << '\n';
    }
    for (std::size_t i = 0; i < k.scalars.size(); ++i)
      os << "    s" << i << ": " << dtype_name(k.scalars[i]) << " scalar\n";
    for (std::size_t i = 0; i < k.code.size(); ++i) {
      const auto& in = k.code[i];
      os << "    v" << i << " = ";
      switch (in.op) {
        case ir::op_code::buffer:
          os << "load in" << in.slot;
          if (in.args[1] >= 0) os << " at +v" << in.args[1];
          if (in.args[0] >= 0) os << " where v" << in.args[0];
          break;
        case ir::op_code::scalar:
          os << "scalar s" << in.slot;
          break;
        case ir::op_code::iota:
          os << "iota " << in.slot;
          break;
        case ir::op_code::random:
          os << "random " << in.slot;
          break;
        case ir::op_code::reduced:
          os << "reduced";
          break;
        default: {
          os << ir::op_name(in.op) << '(';
          for (int a = 0; a < 3 && in.args[a] >= 0; ++a) os << (a ? ", v" : "v") << in.args[a];
          os << ')';
        }
      }
      os << "  : " << dtype_name(in.dt) << '\n';
    }
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      os << "    out" << o << " = v" << k.outputs[o].value << "  " << dtype_name(k.outputs[o].dt) << ' '
         << shape_str(st.outputs[o]->shape) << '\n';
  }
  return os.str();
}

}  // namespace ndfuse::schedule
