#include "ndfuse/user_kernel.hpp"

#include <cctype>
#include <map>
#include <mutex>

#include "frontend/build.hpp"
#include "frontend/kernel_signature.hpp"
#include "ir/shape_math.hpp"
#include "ir/user_kernel.hpp"
#include "ndfuse/error.hpp"
#include "runtime/device.hpp"

namespace ndfuse {

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

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
      for (std::size_t p = 0; p < signature.in.size(); ++p) k.in.push_back({signature.in[p].name, r.in[p]});
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
  if (!is_identifier(name))
    throw value_error("elementwise_kernel: the name '" + name + "' is not a C identifier");
  s_->signature = frontend::parse_signature(in_params, out_params, name);
  for (const auto* list : {&s_->signature.in, &s_->signature.out})
    for (const auto& p : *list)
      if (p.raw)
        throw value_error(name + ": parameter '" + p.name + "': raw parameters are not supported yet");
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

array elementwise_kernel::call_one(std::initializer_list<operand> args) const {
  if (s_->signature.out.size() != 1)
    throw value_error(s_->name + ": the kernel has " + std::to_string(s_->signature.out.size()) +
                      " outputs; call outputs(...) for all of them");
  return call(args)[0];
}

std::vector<array> elementwise_kernel::call(std::initializer_list<operand> args) const {
  const state& s = *s_;
  const char* op = s.name.c_str();
  std::vector<frontend::kernel_argument> kinds;
  for (const operand& a : args)
    kinds.push_back(a.arr ? frontend::kernel_argument{false, frontend::checked(*a.arr, op)->dt}
                          : frontend::kernel_argument{true, frontend::default_dtype(a.value)});
  const frontend::resolved_types types = frontend::resolve_types(s.signature, kinds, {}, s.name);

  // The loop's shape: the arrays' broadcast (CuPy: "Loop size is undecided" without one).
  bool any_array = false;
  shape_t shape;
  for (const operand& a : args)
    if (a.arr) {
      shape = any_array ? broadcast_shapes(shape, a.arr->shape(), op) : a.arr->shape();
      any_array = true;
    }
  if (!any_array) throw value_error(s.name + ": no array among the arguments, so the loop has no size");

  std::vector<frontend::node_ptr> inputs;
  std::size_t k = 0;
  for (const operand& a : args) {
    inputs.push_back(a.arr ? frontend::checked(*a.arr, op)
                           : frontend::operand_node(a.value, types.in[k], op));
    ++k;
  }
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

  const auto def = s_->instance(types);
  std::vector<array> outs;
  for (std::size_t o = 0; o < types.out.size(); ++o) {
    frontend::node_ptr n = frontend::make_node(ir::op_code::user, types.out[o], inputs, shape);
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
  return outs;
}

}  // namespace ndfuse
