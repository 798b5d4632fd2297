// Instantiation of registry ops as block loops, each calling the op's prelude body
// (prelude_host.hpp). Included only by loops_part*.cpp.
#pragma once
#include "backend/cpu/loops.hpp"
#include "backend/cpu/prelude_host.hpp"
#include "ir/op_registry.hpp"

namespace ndfuse::backend::cpu {

namespace hana = boost::hana;

template <class Op, dtype In, dtype Out>
void op_block(void* out, const void* const* in, std::int64_t n) {
  using P = prelude_t<In>;
  using R = prelude_t<Out>;
  using body = prelude_op<Op::code>;
  auto* __restrict o = static_cast<R*>(out);
  auto* __restrict a = static_cast<const P*>(in[0]);
  // The prelude returns the loop's output type itself (the CUDA renderer relies on it too).
  if constexpr (Op::arity == 1) {
    static_assert(std::is_same_v<decltype(body::call(a[0])), R>, "prelude result type");
    for (std::int64_t i = 0; i < n; ++i) o[i] = body::call(a[i]);
  } else if constexpr (Op::arity == 2) {
    auto* __restrict b = static_cast<const P*>(in[1]);
    static_assert(std::is_same_v<decltype(body::call(a[0], b[0])), R>, "prelude result type");
    for (std::int64_t i = 0; i < n; ++i) o[i] = body::call(a[i], b[i]);
  } else {
    auto* __restrict b = static_cast<const P*>(in[1]);
    auto* __restrict c = static_cast<const P*>(in[2]);
    static_assert(std::is_same_v<decltype(body::call(a[0], b[0], c[0])), R>, "prelude result type");
    for (std::int64_t i = 0; i < n; ++i) o[i] = body::call(a[i], b[i], c[i]);
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
