#include "ir/kernel_ir.hpp"

#include <algorithm>
#include <limits>

namespace ndfuse::ir {

const char* index_class_name(index_class c) {
  switch (c) {
    case index_class::flat:
      return "flat";
    case index_class::broadcast:
      return "broadcast";
    case index_class::strided:
      return "strided";
  }
  return "?";
}

const char* reduce_kind_name(reduce_kind k) {
  switch (k) {
    case reduce_kind::value:
      return "value";
    case reduce_kind::argmin:
      return "argmin";
    case reduce_kind::argmax:
      return "argmax";
    case reduce_kind::nanargmin:
      return "nanargmin";
    case reduce_kind::nanargmax:
      return "nanargmax";
  }
  return "?";
}

const char* reduce_strategy_name(reduce_strategy s) {
  switch (s) {
    case reduce_strategy::full:
      return "full";
    case reduce_strategy::inner:
      return "inner";
    case reduce_strategy::outer:
      return "outer";
    case reduce_strategy::scan:
      return "scan";
  }
  return "?";
}

std::string instr_origin(const instr& i) {
  std::string dt(dtype_name(i.dt));
  if (i.op == op_code::buffer)
    return i.from_earlier_kernel ? "written by an earlier kernel of this plan, " + dt : "buffer " + dt;
  if (i.op == op_code::reduced) return "the reduction's result, " + dt;
  return std::string(op_name(i.op)) + " " + dt;
}

std::string kernel_ir::key() const {
  // Everything that changes the generated code, nothing that only changes launch parameters. A
  // packed binary string: it is built on every evaluation, so it must be cheap (host overhead).
  std::string k;
  k.reserve(8 + 2 * inputs.size() + scalars.size() + iotas.size() + 20 * code.size() + 5 * outputs.size());
  auto put = [&k](auto v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(ndim);
  put(static_cast<std::uint8_t>(index_64));
  put(static_cast<std::uint16_t>(inputs.size()));
  for (const auto& in : inputs) {
    put(in.dt);
    put(in.cls);
    put(static_cast<std::uint8_t>(in.guarded));
    put(static_cast<std::uint8_t>(in.gathered));
  }
  put(static_cast<std::uint16_t>(scalars.size()));
  for (auto t : scalars) put(t);
  put(static_cast<std::uint16_t>(iotas.size()));
  for (auto c : iotas) put(c);
  put(static_cast<std::uint16_t>(code.size()));
  for (const auto& i : code) {
    put(i.op);
    put(i.dt);
    put(i.operand_dt);
    for (auto a : i.args) put(a);
    put(i.slot);
    put(i.mode);
  }
  put(static_cast<std::uint16_t>(outputs.size()));
  for (const auto& o : outputs) {
    put(o.value);
    put(o.dt);
  }
  put(static_cast<std::uint16_t>(user_calls.size()));
  for (const auto& c : user_calls) {
    k += c.def->fingerprint;
    put(static_cast<std::uint16_t>(c.operands.size()));
    for (auto v : c.operands) put(v);
  }
  put(static_cast<std::uint8_t>(reduction.has_value()));
  if (reduction) {
    put(reduction->kind);
    put(reduction->combine);
    put(reduction->acc_dt);
    put(reduction->strategy);
    put(reduction->value);
    put(reduction->kept_ndim);
    if (reduction->combine_user) k += reduction->combine_user->fingerprint;
    put(reduction->epilogue_begin);
  }
  return k;
}

namespace {
std::int64_t truncated(double d) {
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(d);
}
}  // namespace

std::int64_t iota_params::start_int() const {
  return truncated(start.real());
}
std::int64_t iota_params::step_int() const {
  return truncated(step.real());
}

}  // namespace ndfuse::ir
