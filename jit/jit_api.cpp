// nf::jit::source, standalone_source and compile_check: plan -> render (-> compile), no device involved.
#include "ndfuse/jit.hpp"

#include "jit/nvrtc_compiler.hpp"
#include "jit/prelude.hpp"
#include "jit/render.hpp"
#include "runtime/realize.hpp"
#include "schedule/plan.hpp"

namespace ndfuse::jit {

namespace {

const std::shared_ptr<ir::node>& checked_node(const array& a, const char* what) {
  const auto& n = a.node();
  if (!n) throw value_error(std::string("nf::jit::") + what + ": empty array handle");
  return n;
}

}  // namespace

std::string source(const array& a) {
  const auto& n = checked_node(a, "source");
  if (n->materialized()) return "// ndfuse: nothing to compute, the array is already evaluated\n";
  runtime::make_moves({&n, 1});  // a plan never spans devices: moves are made first
  const std::lock_guard lock(ir::graph_mutex());
  const schedule::plan p = schedule::make_plan({n});
  std::string out;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    if (p.steps.size() > 1)
      out += "// ======== kernel " + std::to_string(i + 1) + " of " + std::to_string(p.steps.size()) +
             " ========\n";
    out += render(tuned(p.steps[i]), p.steps[i].name);
  }
  return out;
}

std::string standalone_source(const array& a) {
  return inline_prelude(source(a));
}

int compile_check(const array& a, int sm) {
  const auto& n = checked_node(a, "compile_check");
  if (n->materialized()) return 0;
  runtime::make_moves({&n, 1});
  std::unique_lock lock(ir::graph_mutex());
  const schedule::plan p = schedule::make_plan({n});
  lock.unlock();
  for (const auto& step : p.steps) compile_to_cubin(render(tuned(step), step.name), step.name, sm);
  return static_cast<int>(p.steps.size());
}

}  // namespace ndfuse::jit
