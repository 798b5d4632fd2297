// How an array of each dtype crosses NCCL in one collective: the element type NCCL sees, how many
// of those make one array element, a wider dtype it goes through where NCCL has none of its own,
// and the reduction NCCL runs. Refused (nf::dtype_error) where NCCL cannot give NumPy's answer.
#pragma once
#include <cstddef>
#include <optional>

#include "backend/collectives.hpp"
#include "ndfuse/distributed.hpp"
#include "ndfuse/dtype.hpp"

namespace ndfuse::frontend {

struct collective_plan {
  detail::collectives::wire wire = detail::collectives::wire::uint8;
  std::size_t per_element = 1;   // wire elements per array element
  std::optional<dtype> through;  // cast to it for the call, and back after
  detail::collectives::reduction op = detail::collectives::reduction::sum;
};

// `reduces`: the collective combines values (all_reduce, reduce, reduce_scatter); the others only
// move bytes, which every dtype can. `name` is the collective's, for messages.
collective_plan plan_collective(dtype t, bool reduces, distributed::reduce_op op, const char* name);

}  // namespace ndfuse::frontend
