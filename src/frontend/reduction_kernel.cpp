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
    key.push_back(r.out[0]);
    key.push_back(acc);
    const std::lock_guard lock(mutex);
    parts& p = instances[key];
    if (!p.map) {
      std::vector<ir::user_param> in;
      for (std::size_t k = 0; k < signature.in.size(); ++k) in.push_back({signature.in[k].name, r.in[k]});
      p.map = part("_map", "nf_value = (" + map_expr + "\n);", in, {{"nf_value", acc}}, r.placeholders);
      p.combine = part("_reduce", reduce_expr, {{"a", acc}, {"b", acc}}, {{"nf_value", acc}}, r.placeholders);
      p.post =
          part("_post", post_map_expr, {{"a", acc}}, {{signature.out[0].name, r.out[0]}}, r.placeholders);
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
  if (s_->signature.out.size() != 1)
    throw value_error(name + ": a reduction kernel has one output parameter (several are not supported yet)");
  for (const auto* list : {&s_->signature.in, &s_->signature.out})
    for (const auto& p : *list)
      if (p.raw)
        throw value_error(name + ": parameter '" + p.name + "': raw parameters are not supported yet");
  for (const auto& p : s_->signature.in)
    if (p.name == "a" || p.name == "b")
      throw value_error(name + ": parameter '" + p.name + "': a and b name the reduce expression's operands");
  // reduce_type: a dtype, a placeholder, or (empty) the output's type.
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
  state& s = *s_;
  const char* op = s.name.c_str();
  const frontend::call_arguments args = frontend::split_arguments(all, s.name);
  if (!args.targets.empty())
    throw value_error(s.name + ": reduction kernels do not take output arguments yet");
  const frontend::resolved_types types = frontend::resolve_types(s.signature, args.kinds(), {}, s.name);
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

  const shape_t shape = frontend::loop_shape(s.signature, args, s.name);
  const std::uint64_t mask = frontend::axis_mask(axis, static_cast<std::int64_t>(shape.size()), op);
  // Converted as NumPy stores a Python number into an array of that dtype (-inf into int32 raises).
  const ir::scalar_bits identity =
      frontend::scalar_to_bits(frontend::stored_scalar(s.identity, acc, op), acc, op);

  const std::vector<frontend::node_ptr> inputs = frontend::operand_nodes(s.signature, args, types.in, s.name);
  const state::parts parts = s.instance(types, acc);
  frontend::node_ptr mapped = frontend::make_node(ir::op_code::user, acc, inputs, shape);
  std::vector<dtype> all_types = types.in;
  all_types.push_back(acc);
  all_types.push_back(types.out[0]);
  frontend::check_host_dtypes(*mapped, all_types, s.name);
  mapped->params().user = parts.map;
  const array folded =
      frontend::reduce_user(frontend::finish(std::move(mapped)), parts.combine, mask, keepdims, identity, op);
  frontend::node_ptr post =
      frontend::make_node(ir::op_code::user, types.out[0], {folded.node()}, folded.shape());
  post->params().user = parts.post;
  return frontend::finish(std::move(post));
}

}  // namespace ndfuse
