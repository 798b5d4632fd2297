// The conversions the prelude leaves to its includer when it is compiled as host C++: PTX's cvt on
// the GPU, NumPy's npy_half rounding (ir/host_types.hpp) here; both round to nearest even, straight
// from the source precision.
#include "backend/cpu/prelude_host.hpp"

float nf_half_to_float(nf_float16 h) {
  return ndfuse::ir::half_to_float(h.bits);
}
nf_float16 nf_half_from(float f) {
  return {ndfuse::ir::float_to_half(f)};
}
nf_float16 nf_half_from(double d) {
  return {ndfuse::ir::double_to_half(d)};
}
