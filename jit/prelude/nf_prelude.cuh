// ndfuse device prelude: everything a generated kernel uses. Embedded into the library at build
// time and handed to NVRTC as in-memory headers, so compilation needs no include path.
#ifndef NF_PRELUDE_CUH
#define NF_PRELUDE_CUH
#include "nf_arith.cuh"
#include "nf_compare.cuh"
#include "nf_complex_math.cuh"
#include "nf_math.cuh"
#include "nf_random.cuh"
#include "nf_reduce.cuh"
#include "nf_types.cuh"
#endif  // NF_PRELUDE_CUH
