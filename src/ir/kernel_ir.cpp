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
    case index_class::transposed:
      return "transposed";
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
  put(tile_dim);
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
  }
  put(static_cast<std::uint16_t>(outputs.size()));
  for (const auto& o : outputs) {
    put(o.value);
    put(o.dt);
  }
  put(static_cast<std::uint8_t>(reduction.has_value()));
  if (reduction) {
    put(reduction->kind);
    put(reduction->combine);
    put(reduction->acc_dt);
    put(reduction->strategy);
    put(reduction->value);
    put(reduction->kept_ndim);
    put(reduction->epilogue_begin);
    put(static_cast<std::uint8_t>(reduction->units));
    put(static_cast<std::uint8_t>(reduction->tail));
    put(static_cast<std::uint8_t>(reduction->per_thread));
    put(static_cast<std::uint8_t>(reduction->staged));
    put(static_cast<std::uint8_t>(reduction->output_units));
    put(reduction->per_thread_n_red);
  }
  return k;
}

namespace {
// Accumulators in 16 bytes (one wide load's worth); 1 for accumulators wider than 8 bytes.
int accumulators_in_16_bytes(const kernel_reduction& r) {
  const std::size_t acc = itemsize(r.acc_dt);
  return acc > 8 ? 1 : static_cast<int>(16 / acc);
}
}  // namespace

int reduce_unit_width(const kernel_reduction& r) {
  if (is_arg_reduction(r.kind) ||
      (r.strategy != reduce_strategy::full && r.strategy != reduce_strategy::inner))
    return 1;
  return accumulators_in_16_bytes(r);
}

int reduce_output_width(const kernel_reduction& r) {
  if (is_arg_reduction(r.kind) || r.strategy != reduce_strategy::outer) return 1;
  return std::min(4, accumulators_in_16_bytes(r));
}

int reduce_lane_outputs(const kernel_reduction& r) {
  return r.output_units ? reduce_output_width(r) : 1;
}

int reduce_fold_width(const kernel_reduction& r) {
  return r.units ? reduce_unit_width(r) : 1;
}

std::string reduce_layout_name(const kernel_reduction& r) {
  return (r.units ? "units of " + std::to_string(reduce_unit_width(r)) + " elements" +
                        (r.tail ? " and the elements after the last unit" : "")
          : r.output_units ? "element by element, " + std::to_string(reduce_output_width(r)) +
                                 " neighbouring outputs per lane"
                           : "element by element") +
         std::string(r.per_thread ? ", one thread per output"
                     : r.staged   ? ", chunks of " + std::to_string(reduce_stage_units) +
                                      " units staged in shared memory, the lanes of a block share each output"
                                : ", the lanes of a block share each output");
}

bool reduce_staged(reduce_strategy s, bool units, std::int64_t n_red_units) {
  const bool along_rows = s == reduce_strategy::full || s == reduce_strategy::inner;
  return along_rows && units && n_red_units >= 2 * reduce_stage_units;
}

bool reduce_per_thread(reduce_strategy s, std::int64_t n_red) {
  switch (s) {
    case reduce_strategy::full:
    case reduce_strategy::inner:
      return n_red < 16;
    case reduce_strategy::outer:
      return n_red < 8;
    case reduce_strategy::scan:
      return false;
  }
  return false;
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
