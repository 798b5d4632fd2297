// Instantiation of registry ops as block loops. Included only by loops_part*.cpp.
#pragma once
#include "backend/cpu/loops.hpp"
#include "ir/op_registry.hpp"

namespace ndfuse::backend::cpu {

namespace hana = boost::hana;

template <class Op, dtype In, dtype Out>
void op_block(void* out, const void* const* in, std::int64_t n) {
  using ir::storage_t;
  auto* __restrict o = static_cast<storage_t<Out>*>(out);
  auto* __restrict a = static_cast<const storage_t<In>*>(in[0]);
  if constexpr (Op::arity == 1) {
    for (std::int64_t i = 0; i < n; ++i)
      o[i] = ir::to_storage<Out>(static_cast<ir::compute_t<Out>>(Op::apply(ir::to_compute<In>(a[i]))));
  } else {
    auto* __restrict b = static_cast<const storage_t<In>*>(in[1]);
    for (std::int64_t i = 0; i < n; ++i)
      o[i] = ir::to_storage<Out>(
          static_cast<ir::compute_t<Out>>(Op::apply(ir::to_compute<In>(a[i]), ir::to_compute<In>(b[i]))));
  }
}

// Fills the table entries of the ops whose code is in [first, last).
template <int First, int Last>
void fill_op_loops(op_table& table) {
  hana::for_each(ir::all_ops, [&](auto op_type) {
    using op = typename decltype(op_type)::type;
    constexpr int code = static_cast<int>(op::code);
    if constexpr (code >= First && code < Last) {
      hana::for_each(ir::all_dtypes, [&](auto d) {
        constexpr dtype in = decltype(d)::value;
        constexpr auto out = ir::loop_output(op::types, in);
        if constexpr (out.has_value()) table[code][static_cast<int>(in)] = &op_block<op, in, *out>;
      });
    }
  });
}

}  // namespace ndfuse::backend::cpu
