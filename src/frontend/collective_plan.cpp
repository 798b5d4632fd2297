#include "frontend/collective_plan.hpp"

#include <string>

#include "ndfuse/error.hpp"

namespace ndfuse::frontend {

namespace {

using detail::collectives::reduction;
using detail::collectives::wire;
using distributed::reduce_op;

const char* op_name(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return "sum";
    case reduce_op::prod:
      return "prod";
    case reduce_op::min:
      return "min";
    case reduce_op::max:
      return "max";
    case reduce_op::avg:
      return "avg";
  }
  return "?";
}

reduction same(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return reduction::sum;
    case reduce_op::prod:
      return reduction::prod;
    case reduce_op::min:
      return reduction::min;
    case reduce_op::max:
      return reduction::max;
    case reduce_op::avg:
      return reduction::avg;
  }
  return reduction::sum;
}

[[noreturn]] void refuse(const char* name, dtype t, reduce_op op, const char* why) {
  throw dtype_error(std::string("nf::distributed::") + name + ": " + op_name(op) + " of " +
                    std::string(dtype_name(t)) + " arrays: " + why);
}

}  // namespace

collective_plan plan_collective(dtype t, bool reduces, reduce_op op, const char* name) {
  collective_plan p;
  if (!reduces) {
    // Moving bytes is exact for every dtype.
    p.wire = wire::uint8;
    p.per_element = itemsize(t);
    return p;
  }
  p.op = same(op);
  const bool integral = !is_inexact(t);
  if (op == reduce_op::avg && integral)
    refuse(name, t, op, "NumPy's mean of integers is float64; cast with astype(nf::float64) first");
  switch (t) {
    case dtype::bool_:
      // NumPy's bool + bool is logical or and bool * bool logical and: max and min of 0 and 1.
      p.wire = wire::uint8;
      if (op == reduce_op::sum) p.op = reduction::max;
      if (op == reduce_op::prod) p.op = reduction::min;
      return p;
    case dtype::int8:
      p.wire = wire::int8;
      return p;
    case dtype::uint8:
      p.wire = wire::uint8;
      return p;
    case dtype::int16:
      // NCCL has no 16-bit integers. Sums and products in int32 wrap back to the same int16 values
      // NumPy's wrapping arithmetic gives; min and max are exact.
      p.wire = wire::int32;
      p.through = dtype::int32;
      return p;
    case dtype::uint16:
      p.wire = wire::uint32;
      p.through = dtype::uint32;
      return p;
    case dtype::int32:
      p.wire = wire::int32;
      return p;
    case dtype::uint32:
      p.wire = wire::uint32;
      return p;
    case dtype::int64:
      p.wire = wire::int64;
      return p;
    case dtype::uint64:
      p.wire = wire::uint64;
      return p;
    case dtype::float16:
      p.wire = wire::float16;
      return p;
    case dtype::bfloat16:
      p.wire = wire::bfloat16;
      return p;
    case dtype::float32:
      p.wire = wire::float32;
      return p;
    case dtype::float64:
      p.wire = wire::float64;
      return p;
    case dtype::complex64:
    case dtype::complex128:
      // A complex sum (or mean) is the sums of the real and the imaginary parts; products and
      // orderings are not elementwise on the parts.
      if (op != reduce_op::sum && op != reduce_op::avg)
        refuse(name, t, op, "only sum and avg are elementwise on the real and imaginary parts");
      p.wire = t == dtype::complex64 ? wire::float32 : wire::float64;
      p.per_element = 2;
      return p;
  }
  refuse(name, t, op, "not a dtype NCCL can reduce");
}

}  // namespace ndfuse::frontend
