#include "frontend/user_call.hpp"

#include <algorithm>

#include "frontend/gather.hpp"
#include "ndfuse/error.hpp"
#include "runtime/device.hpp"

namespace ndfuse::frontend {

std::vector<kernel_argument> call_arguments::kinds() const {
  std::vector<kernel_argument> k;
  for (const operand* a : inputs)
    k.push_back(a->arr ? kernel_argument{false, a->arr->dtype()}
                       : kernel_argument{true, default_dtype(a->value)});
  return k;
}

std::vector<dtype> call_arguments::target_dtypes() const {
  std::vector<dtype> t;
  for (const array* z : targets) t.push_back(z->dtype());
  return t;
}

bool call_arguments::any_input_array() const {
  return std::any_of(inputs.begin(), inputs.end(), [](const operand* a) { return a->arr; });
}

call_arguments split_arguments(std::initializer_list<kernel_arg> all, const std::string& kernel) {
  call_arguments a;
  for (const kernel_arg& k : all) {
    if (k.target) {
      checked(*k.target, kernel.c_str());
      a.targets.push_back(k.target);
    } else if (!a.targets.empty()) {
      throw value_error(kernel + ": an input argument after an nf::out(...) argument");
    } else {
      if (k.in.arr) checked(*k.in.arr, kernel.c_str());
      a.inputs.push_back(&k.in);
    }
  }
  return a;
}

shape_t loop_shape(const kernel_signature& s, const call_arguments& a, const std::string& kernel) {
  const char* op = kernel.c_str();
  bool any_array = false;
  shape_t shape;
  auto meet = [&](const shape_t& other) {
    shape = any_array ? broadcast_shapes(shape, other, op) : other;
    any_array = true;
  };
  for (std::size_t k = 0; k < a.inputs.size() && k < s.in.size(); ++k) {
    if (!s.in[k].raw) {
      if (a.inputs[k]->arr) meet(a.inputs[k]->arr->shape());
    } else if (!a.inputs[k]->arr) {
      throw value_error(kernel + ": raw parameter '" + s.in[k].name + "' takes an array, not a scalar");
    }
  }
  for (const array* t : a.targets) meet(t->shape());
  if (!any_array) throw value_error(kernel + ": no array among the arguments, so the loop has no size");
  for (std::size_t o = 0; o < a.targets.size(); ++o)
    if (a.targets[o]->shape() != shape)
      throw shape_error(kernel + ": output '" + s.out[o].name + "' has shape " +
                        shape_str(a.targets[o]->shape()) + ", but the call's shape is " + shape_str(shape));
  return shape;
}

std::vector<node_ptr> operand_nodes(const kernel_signature& s, const call_arguments& a,
                                    const std::vector<dtype>& in_types, const std::string& kernel) {
  const char* op = kernel.c_str();
  std::vector<node_ptr> nodes;
  for (std::size_t k = 0; k < a.inputs.size(); ++k) {
    const operand& x = *a.inputs[k];
    nodes.push_back(!x.arr        ? operand_node(x.value, in_types[k], op)
                    : s.in[k].raw ? contiguous_operand(*x.arr)  // indexed by the body in C order
                                  : checked(*x.arr, op));
  }
  return nodes;
}

void check_host_dtypes(const ir::node& n, const std::vector<dtype>& types, const std::string& kernel) {
  if (!runtime::device_of(n).is_cpu()) return;
  for (dtype t : types)
    if (t == dtype::float16 || t == dtype::bfloat16)
      throw dtype_error(kernel + ": user kernels on the CPU device do not take " +
                        std::string(dtype_name(t)) + " yet");
}

}  // namespace ndfuse::frontend
