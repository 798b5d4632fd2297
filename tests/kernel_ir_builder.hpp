// Kernel IR built by hand, as the fuser would build it, for the tests of jit/ (test_nvrtc.cpp,
// test_kernel_abi.cpp). Include only where NDFUSE_WITH_CUDA is defined.
#pragma once
#include <initializer_list>
#include <string>
#include <utility>

#include "ir/kernel_ir.hpp"
#include "ir/op_info.hpp"
#include "jit/cuda_tuning.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse_test {

using ndfuse::dtype;
using ndfuse::ir::index_class;
using ndfuse::ir::op_code;

inline constexpr index_class flat = index_class::flat;
inline constexpr index_class broadcast = index_class::broadcast;
inline constexpr index_class strided = index_class::strided;
// A strided input that the CUDA tuning stages through a tile (jit::cuda_tuning::transposed).
struct transposed_t {};
inline constexpr transposed_t transposed{};

// Builds kernel IR by hand, as the fuser would.
struct ir_builder {
  ndfuse::jit::tuned_ir k;
  explicit ir_builder(int ndim = 1, bool index_64 = false) {
    k.ndim = ndim;
    k.index_64 = index_64;
  }
  int push(ndfuse::ir::instr i) {
    k.code.push_back(std::move(i));
    return static_cast<int>(k.code.size()) - 1;
  }
  static ndfuse::ir::instr make(op_code op, dtype dt, const std::string&) {
    ndfuse::ir::instr i;
    i.op = op;
    i.dt = i.operand_dt = dt;
    return i;
  }
  int input(dtype t, index_class c = flat) {
    auto i = make(op_code::buffer, t, "buffer");
    i.slot = static_cast<int>(k.inputs.size());
    k.inputs.push_back({t, c});
    return push(i);
  }
  int input(dtype t, transposed_t) {
    const int v = input(t, strided);
    k.transposed.resize(k.inputs.size());
    k.transposed.back() = true;
    return v;
  }
  // An input read only where `guard` holds (concatenate, pad): the element code gets its address.
  int guarded_input(dtype t, int guard) {
    auto i = make(op_code::buffer, t, "buffer");
    i.slot = static_cast<int>(k.inputs.size());
    i.args[0] = guard;
    k.inputs.push_back({t, strided, true});
    return push(i);
  }
  int scalar(dtype t) {
    auto i = make(op_code::scalar, t, "scalar");
    i.slot = static_cast<int>(k.scalars.size());
    k.scalars.push_back(t);
    return push(i);
  }
  int iota(dtype t, index_class c = flat) {
    auto i = make(op_code::iota, t, "iota");
    i.slot = static_cast<int>(k.iotas.size());
    k.iotas.push_back(c);
    return push(i);
  }
  // A draw (op_code::random): its stream arrives in the iota slot.
  int random(dtype t) {
    auto i = make(op_code::random, t, "random");
    i.slot = static_cast<int>(k.iotas.size());
    k.iotas.push_back(flat);
    return push(i);
  }
  int op(op_code code, dtype out, dtype operand, std::initializer_list<int> args) {
    auto i = make(code, out, ndfuse::ir::op_name(code));
    i.operand_dt = operand;
    int a = 0;
    for (int v : args) i.args[a++] = v;
    return push(i);
  }
  int cast(int v, dtype to) { return op(op_code::cast, to, k.code.at(v).dt, {v}); }
  int where(int c, int a, int b) { return op(op_code::where, k.code.at(a).dt, k.code.at(a).dt, {c, a, b}); }
  void output(int v) { k.outputs.push_back({v, k.code.at(v).dt}); }
};

}  // namespace ndfuse_test
