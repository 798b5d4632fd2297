#include "ndfuse/user_kernel.hpp"

#include <cctype>
#include <map>
#include <mutex>

#include "frontend/user_call.hpp"
#include "ir/shape_math.hpp"
#include "ir/user_kernel.hpp"
#include "ndfuse/error.hpp"
#include "runtime/device.hpp"

namespace ndfuse {

namespace {

// Whether `code` names the identifier `word` (not as part of a longer one, nor after '.' or '->':
// a member called i is not the index).
bool names(std::string_view code, std::string_view word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = code.find(word); at != std::string_view::npos; at = code.find(word, at + 1)) {
    const bool starts = at == 0 || (!ident(code[at - 1]) && code[at - 1] != '.' &&
                                    !(at >= 2 && code.substr(at - 2, 2) == "->"));
    const bool ends = at + word.size() == code.size() || !ident(code[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

struct elementwise_kernel::state {
  frontend::kernel_signature signature;
  std::string body, name, preamble;
  bool uses_index = false, uses_size = false;
  std::mutex mutex;
  // One instance per dtype combination (inputs then outputs): the plan memo and the compiled code
  // are keyed on it, so calls with the same dtypes share both.
  std::map<std::vector<dtype>, std::shared_ptr<const ir::user_kernel>> instances;

  std::shared_ptr<const ir::user_kernel> instance(const frontend::resolved_types& r) {
    std::vector<dtype> key = r.in;
    key.insert(key.end(), r.out.begin(), r.out.end());
    const std::lock_guard lock(mutex);
    auto& slot = instances[key];
    if (!slot) {
      ir::user_kernel k;
      k.name = name;
      k.body = body;
      k.preamble = preamble;
      for (std::size_t p = 0; p < signature.in.size(); ++p)
        k.in.push_back({signature.in[p].name, r.in[p], signature.in[p].raw});
      for (std::size_t p = 0; p < signature.out.size(); ++p)
        k.out.push_back({signature.out[p].name, r.out[p]});
      k.placeholders = r.placeholders;
      k.uses_index = uses_index;
      k.uses_size = uses_size;
      slot = ir::finish_user_kernel(std::move(k));
    }
    return slot;
  }
};

elementwise_kernel::elementwise_kernel(std::string_view in_params, std::string_view out_params,
                                       std::string operation, std::string name, kernel_options options)
    : s_(std::make_shared<state>()) {
  if (!frontend::is_c_identifier(name))
    throw value_error("elementwise_kernel: the name '" + name + "' is not a C identifier");
  s_->signature = frontend::parse_signature(in_params, out_params, name);
  for (const auto& p : s_->signature.out)
    if (p.raw) throw value_error(name + ": output '" + p.name + "': raw outputs are not supported yet");
  if (s_->signature.in.size() + s_->signature.out.size() + 2 > 64)
    throw value_error(name + ": more than 62 parameters");
  // loop_prep (CuPy's code at the top of the kernel) runs before the body for each element here,
  // so its declarations are the body's; under its own #line so messages name its lines apart.
  if (!options.loop_prep.empty())
    operation = "#line 1 \"" + name + " (loop_prep)\"\n" + options.loop_prep + "\n#line 1 \"" + name +
                "\"\n" + operation;
  s_->uses_index = names(operation, "i");
  s_->uses_size = names(operation, "_ind");
  s_->body = std::move(operation);
  s_->name = std::move(name);
  s_->preamble = std::move(options.preamble);
}

const std::string& elementwise_kernel::name() const {
  return s_->name;
}

array elementwise_kernel::call_one(std::initializer_list<kernel_arg> args) const {
  if (s_->signature.out.size() != 1)
    throw value_error(s_->name + ": the kernel has " + std::to_string(s_->signature.out.size()) +
                      " outputs; call outputs(...) for all of them");
  return call(args)[0];
}

std::vector<array> elementwise_kernel::call(std::initializer_list<kernel_arg> all) const {
  const state& s = *s_;
  const char* op = s.name.c_str();
  const frontend::call_arguments args = frontend::split_arguments(all, s.name);
  const frontend::resolved_types types =
      frontend::resolve_types(s.signature, args.kinds(), args.target_dtypes(), s.name);
  const shape_t shape = frontend::loop_shape(s.signature, args, s.name);
  std::vector<frontend::node_ptr> inputs = frontend::operand_nodes(s.signature, args, types.in, s.name);
  if (s.uses_index) {
    // i: the element's C-order index in the output, an iota that goes with the call's device.
    // Built here, not through finish: eager mode must not compute it on its own.
    auto index = ir::new_node();
    index->op = ir::op_code::iota;
    index->dt = dtype::int64;
    index->shape = shape;
    index->params().iota = {0.0, 1.0, ir::contiguous_strides(shape), 0, false};
    index->place = ir::placement::any();
    inputs.push_back(std::move(index));
  }
  if (s.uses_size) inputs.push_back(frontend::operand_node(scalar(ir::shape_size(shape)), dtype::int64, op));
  for (std::size_t k = 0; k < args.inputs.size(); ++k)
    if (s.signature.in[k].raw)
      inputs.push_back(frontend::operand_node(scalar(args.inputs[k]->arr->size()), dtype::int64, op));

  const auto def = s_->instance(types);
  std::vector<array> outs;
  std::vector<dtype> all_types = types.in;
  all_types.insert(all_types.end(), types.out.begin(), types.out.end());
  for (std::size_t o = 0; o < types.out.size(); ++o) {
    frontend::node_ptr n = frontend::make_node(ir::op_code::user, types.out[o], inputs, shape);
    // Outputs given alone decide the device (scalar inputs have none); with arrays they must agree.
    for (array* t : args.targets) {
      const device there = runtime::device_of(*t->node());
      if (!args.any_input_array() && t == args.targets[0]) n->place = ir::placement::of(there);
      if (there != runtime::device_of(*n))
        throw device_error(s.name + ": an output given is on " + there.str() + ", the inputs on " +
                           runtime::device_of(*n).str() + "; move one first");
    }
    if (o == 0) frontend::check_host_dtypes(*n, all_types, s.name);
    n->params().user = def;
    n->params().user_output = static_cast<int>(o);
    outs.push_back(frontend::finish(std::move(n)));
  }
  // Value semantics: a given output now holds the result; other handles keep what it held.
  for (std::size_t o = 0; o < args.targets.size(); ++o) *args.targets[o] = outs[o];
  return outs;
}

}  // namespace ndfuse
