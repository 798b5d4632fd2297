#include "ndfuse/user_kernel.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

#include "frontend/build.hpp"
#include "frontend/gather.hpp"
#include "frontend/kernel_signature.hpp"
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
  // Inputs first, then the output targets (all of them or none), as CuPy takes them.
  std::vector<const operand*> args;
  std::vector<array*> targets;
  for (const kernel_arg& a : all) {
    if (a.target)
      targets.push_back(a.target);
    else if (!targets.empty())
      throw value_error(s.name + ": an input argument after an nf::out(...) argument");
    else
      args.push_back(&a.in);
  }
  std::vector<frontend::kernel_argument> kinds;
  for (const operand* a : args)
    kinds.push_back(a->arr ? frontend::kernel_argument{false, frontend::checked(*a->arr, op)->dt}
                           : frontend::kernel_argument{true, frontend::default_dtype(a->value)});
  std::vector<dtype> target_types;
  for (array* t : targets) target_types.push_back(frontend::checked(*t, op)->dt);
  const frontend::resolved_types types = frontend::resolve_types(s.signature, kinds, target_types, s.name);

  // The loop's shape: the broadcast of the arrays, outputs given included (CuPy: "Loop size is
  // undecided" without one); a given output must have it.
  bool any_array = false;
  shape_t shape;
  auto meet = [&](const shape_t& other) {
    shape = any_array ? broadcast_shapes(shape, other, op) : other;
    any_array = true;
  };
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!s.signature.in[k].raw) {
      if (args[k]->arr) meet(args[k]->arr->shape());
    } else if (!args[k]->arr) {
      throw value_error(s.name + ": raw parameter '" + s.signature.in[k].name +
                        "' takes an array, not a scalar");
    }
  }
  for (array* t : targets) meet(t->shape());
  if (!any_array) throw value_error(s.name + ": no array among the arguments, so the loop has no size");
  for (std::size_t o = 0; o < targets.size(); ++o)
    if (targets[o]->shape() != shape)
      throw shape_error(s.name + ": output '" + s.signature.out[o].name + "' has shape " +
                        shape_str(targets[o]->shape()) + ", but the call's shape is " + shape_str(shape));

  std::vector<frontend::node_ptr> inputs;
  for (std::size_t k = 0; k < args.size(); ++k)
    inputs.push_back(!args[k]->arr ? frontend::operand_node(args[k]->value, types.in[k], op)
                     : s.signature.in[k].raw
                         ? frontend::contiguous_operand(*args[k]->arr)  // indexed in C order
                         : frontend::checked(*args[k]->arr, op));
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
  for (std::size_t k = 0; k < args.size(); ++k)
    if (s.signature.in[k].raw)
      inputs.push_back(frontend::operand_node(scalar(args[k]->arr->size()), dtype::int64, op));

  const auto def = s_->instance(types);
  std::vector<array> outs;
  const bool any_input_array = std::any_of(args.begin(), args.end(), [](const operand* a) { return a->arr; });
  for (std::size_t o = 0; o < types.out.size(); ++o) {
    frontend::node_ptr n = frontend::make_node(ir::op_code::user, types.out[o], inputs, shape);
    // Outputs given alone decide the device (scalar inputs have none); with arrays they must agree.
    for (array* t : targets) {
      const device there = runtime::device_of(*frontend::checked(*t, op));
      if (!any_input_array && t == targets[0]) n->place = ir::placement::of(there);
      if (there != runtime::device_of(*n))
        throw device_error(s.name + ": an output given is on " + there.str() + ", the inputs on " +
                           runtime::device_of(*n).str() + "; move one first");
    }
    if (o == 0 && runtime::device_of(*n).is_cpu())
      for (const auto* list : {&types.in, &types.out})
        for (dtype t : *list)
          if (t == dtype::float16 || t == dtype::bfloat16)
            throw dtype_error(s.name + ": user kernels on the CPU device do not take " +
                              std::string(dtype_name(t)) + " yet");
    n->params().user = def;
    n->params().user_output = static_cast<int>(o);
    outs.push_back(frontend::finish(std::move(n)));
  }
  // Value semantics: a given output now holds the result; other handles keep what it held.
  for (std::size_t o = 0; o < targets.size(); ++o) *targets[o] = outs[o];
  return outs;
}

}  // namespace ndfuse
