// nf::reduction_kernel: a user map (an elementwise user node), a reduce node whose combine is the
// user's reduce expression, and a user post-map on the folded value; the fuser puts the three in
// one kernel as it does a built-in reduction with its prologue and epilogue.
#include <charconv>
#include <cstdlib>
#include <map>
#include <mutex>

#include "frontend/reduce_build.hpp"
#include "frontend/user_call.hpp"
#include "ir/user_kernel.hpp"
#include "ndfuse/error.hpp"
#include "ndfuse/user_kernel.hpp"

namespace ndfuse {

namespace {

std::string trimmed(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t\n") - b + 1));
}

// CuPy's identity is C code; here it is a number: an integer (int64) or a floating-point literal
// (inf and nan included), converted to the accumulator's dtype at the call.
scalar parse_identity(const std::string& text, const std::string& kernel) {
  const std::string t = trimmed(text);
  std::int64_t i = 0;
  if (auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), i);
      ec == std::errc() && end == t.data() + t.size())
    return scalar(i);
  char* end = nullptr;
  const double d = std::strtod(t.c_str(), &end);
  if (!t.empty() && end == t.c_str() + t.size()) return scalar(d);
  throw value_error(kernel + ": the identity '" + text + "' is not a number (such as 0, -1 or -inf)");
}

}  // namespace

struct reduction_kernel::state {
  frontend::kernel_signature signature;
  std::string map_expr, reduce_expr, post_map_expr, name, preamble;
  frontend::kernel_param reduce_type;  // its type or placeholder; the name is unused
  scalar identity;
  std::mutex mutex;
  struct parts {
    std::shared_ptr<const ir::user_kernel> map, combine, post;
  };
  std::map<std::vector<dtype>, parts> instances;

  std::shared_ptr<const ir::user_kernel> part(const std::string& suffix, std::string body,
                                              std::vector<ir::user_param> in, std::vector<ir::user_param> out,
                                              const std::vector<std::pair<char, dtype>>& placeholders) const {
    ir::user_kernel k;
    k.name = name + suffix;
    k.body = std::move(body);
    k.preamble = preamble;
    k.in = std::move(in);
    k.out = std::move(out);
    k.placeholders = placeholders;
    return ir::finish_user_kernel(std::move(k));
  }

  parts instance(const frontend::resolved_types& r, dtype acc) {
    std::vector<dtype> key = r.in;
    key.insert(key.end(), r.out.begin(), r.out.end());
    key.push_back(acc);
    const std::lock_guard lock(mutex);
    parts& p = instances[key];
    if (!p.map) {
      std::vector<ir::user_param> in;
      for (std::size_t k = 0; k < signature.in.size(); ++k) in.push_back({signature.in[k].name, r.in[k]});
      p.map = part("_map", "nf_value = (" + map_expr + "\n);", in, {{"nf_value", acc}}, r.placeholders);
      p.combine = part("_reduce", reduce_expr, {{"a", acc}, {"b", acc}}, {{"nf_value", acc}}, r.placeholders);
      std::vector<ir::user_param> out;
      for (std::size_t k = 0; k < signature.out.size(); ++k) out.push_back({signature.out[k].name, r.out[k]});
      p.post = part("_post", post_map_expr, {{"a", acc}}, out, r.placeholders);
    }
    return p;
  }
};

reduction_kernel::reduction_kernel(std::string_view in_params, std::string_view out_params,
                                   std::string map_expr, std::string reduce_expr, std::string post_map_expr,
                                   std::string identity, std::string name, std::string reduce_type,
                                   kernel_options options)
    : s_(std::make_shared<state>()) {
  if (!frontend::is_c_identifier(name))
    throw value_error("reduction_kernel: the name '" + name + "' is not a C identifier");
  s_->signature = frontend::parse_signature(in_params, out_params, name);
  for (const auto* list : {&s_->signature.in, &s_->signature.out})
    for (const auto& p : *list)
      if (p.raw)
        throw value_error(name + ": parameter '" + p.name + "': raw parameters are not supported yet");
  for (const auto& p : s_->signature.in)
    if (p.name == "a" || p.name == "b")
      throw value_error(name + ": parameter '" + p.name + "': a and b name the reduce expression's operands");
  // reduce_type: a dtype, a placeholder, or (empty) the (first) output's type.
  const std::string rt = trimmed(reduce_type);
  if (rt.empty()) {
    s_->reduce_type = s_->signature.out[0];
  } else if (rt.size() == 1) {
    s_->reduce_type.placeholder = rt[0];
  } else {
    s_->reduce_type.type = dtype_from_name(rt);
  }
  s_->identity = parse_identity(identity, name);
  s_->map_expr = std::move(map_expr);
  s_->reduce_expr = std::move(reduce_expr);
  s_->post_map_expr = std::move(post_map_expr);
  s_->name = std::move(name);
  s_->preamble = std::move(options.preamble);
}

const std::string& reduction_kernel::name() const {
  return s_->name;
}

array reduction_kernel::reduce(std::initializer_list<kernel_arg> all, const axes& axis, bool keepdims) const {
  if (s_->signature.out.size() != 1)
    throw value_error(s_->name + ": a kernel of " + std::to_string(s_->signature.out.size()) +
                      " outputs; call outputs(...) for all of them");
  return outputs(all, axis, keepdims)[0];
}

std::vector<array> reduction_kernel::outputs(std::initializer_list<kernel_arg> all, const axes& axis,
                                             bool keepdims) const {
  state& s = *s_;
  const char* op = s.name.c_str();
  const frontend::call_arguments args = frontend::split_arguments(all, s.name);
  const frontend::resolved_types types =
      frontend::resolve_types(s.signature, args.kinds(), args.target_dtypes(), s.name);
  dtype acc = dtype::float64;
  if (s.reduce_type.type) {
    acc = *s.reduce_type.type;
  } else {
    bool found = false;
    for (const auto& [letter, t] : types.placeholders)
      if (letter == s.reduce_type.placeholder) acc = t, found = true;
    if (!found)
      throw dtype_error(s.name + ": nothing decides the reduce type " +
                        std::string(1, s.reduce_type.placeholder));
  }

  frontend::call_arguments loop_args = args;  // the outputs have the reduced shape, checked below
  loop_args.targets.clear();
  const shape_t shape = frontend::loop_shape(s.signature, loop_args, s.name);
  const std::uint64_t mask = frontend::axis_mask(axis, static_cast<std::int64_t>(shape.size()), op);
  // Converted as NumPy stores a Python number into an array of that dtype (-inf into int32 raises).
  const ir::scalar_bits identity =
      frontend::scalar_to_bits(frontend::stored_scalar(s.identity, acc, op), acc, op);

  const std::vector<frontend::node_ptr> inputs = frontend::operand_nodes(s.signature, args, types.in, s.name);
  const state::parts parts = s.instance(types, acc);
  frontend::node_ptr mapped = frontend::make_node(ir::op_code::user, acc, inputs, shape);
  std::vector<dtype> all_types = types.in;
  all_types.push_back(acc);
  all_types.insert(all_types.end(), types.out.begin(), types.out.end());
  frontend::check_host_dtypes(*mapped, all_types, s.name);
  mapped->params().user = parts.map;
  const array folded =
      frontend::reduce_user(frontend::finish(std::move(mapped)), parts.combine, mask, keepdims, identity, op);
  for (std::size_t o = 0; o < args.targets.size(); ++o) {
    const array& t = *args.targets[o];
    if (t.shape() != folded.shape())
      throw shape_error(s.name + ": output '" + s.signature.out[o].name + "' has shape " +
                        shape_str(t.shape()) + ", but the reduction's result has shape " +
                        shape_str(folded.shape()));
    if (t.device() != folded.device())
      throw device_error(s.name + ": output '" + s.signature.out[o].name + "' is on " + t.device().str() +
                         ", the inputs on " + folded.device().str() + "; move one first");
  }
  // The post-map writes every output from the folded value: one node per output, as for an
  // elementwise kernel's outputs.
  std::vector<array> outs;
  for (std::size_t o = 0; o < types.out.size(); ++o) {
    frontend::node_ptr post =
        frontend::make_node(ir::op_code::user, types.out[o], {folded.node()}, folded.shape());
    post->params().user = parts.post;
    post->params().user_output = static_cast<int>(o);
    outs.push_back(frontend::finish(std::move(post)));
  }
  // Value semantics: a given output now holds the result; other handles keep what it held.
  for (std::size_t o = 0; o < args.targets.size(); ++o) *args.targets[o] = outs[o];
  return outs;
}

}  // namespace ndfuse
