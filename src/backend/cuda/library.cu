// Library calls on the CUDA backend, matching the CPU's (backend/cpu/library.cpp) results.
//
// Every sort is a CUB radix sort of unsigned integer keys: a small kernel per dtype first maps each
// element to a key whose unsigned order is NumPy's order. CUB is then instantiated for four key
// widths only, which keeps nvcc's time on this file low (each CUB instantiation costs seconds).
// The exception is the values of one float32 or float64 row (float_sort.cu): CUB sorts them by its
// own float keys, which saves the passes that map to keys and back.
// Nothing here waits for the device: work goes on the current stream, and scratch memory is
// stream-ordered, freed as soon as the work using it is queued.
#include "backend/cuda/library.hpp"

#include <thrust/iterator/counting_iterator.h>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <string>

#include "backend/cuda/kernels/float_sort.hpp"
#include "backend/cuda/kernels/grid_launch.cuh"
#include "backend/cuda/kernels/run_cub.cuh"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "backend/cuda/runtime/memory.hpp"
#include "backend/cuda/vendor/cublas.hpp"
#include "backend/cuda/vendor/cufft.hpp"
#include "backend/cuda/vendor/cusolver.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cuda {

namespace {

using std::int64_t;

// The two buffers a CUB radix sort ping-pongs between; `buffers.Current()` holds the latest data.
// With `into`, that is the first buffer (say, the call's output), so a sort of an even number of
// passes ends where the result belongs.
template <class T>
struct double_buffer {
  scratch first, second;
  cub::DoubleBuffer<T> buffers;

  explicit double_buffer(int64_t n, T* into = nullptr)
      : first(into ? 0 : sizeof(T) * n),
        second(sizeof(T) * n),
        buffers(into ? into : first.get<T>(), second.get<T>()) {}
  T* current() { return buffers.Current(); }
};

// Stable ascending sort of `keys`, carrying `values`, by key bits [0, end_bit).
template <class U>
void sort_pairs(cub::DoubleBuffer<U>& keys, cub::DoubleBuffer<int64_t>& values, int64_t n, int end_bit) {
  run_cub("cub::DeviceRadixSort::SortPairs", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, values, n, 0, end_bit, current_stream());
  });
}

// ---- NumPy's order as unsigned integer keys ----------------------------------------------------

// bfloat16: a float with float32's exponent, so another infinity than float16's.
enum class bits_kind { unsigned_, signed_, float_, bfloat16 };

// A real dtype's order, its elements read as the unsigned integer U of the same width (bool as
// uint8, float16 and bfloat16 as their uint16 bits).
template <class U, bits_kind K>
struct real_order {
  using value = U;
  static constexpr bool is_complex = false;
  static constexpr bool floating = K == bits_kind::float_ || K == bits_kind::bfloat16;

  // The key in NumPy's order with equal values equal: -0.0 maps to 0.0's key and every NaN to the
  // largest key. A stable sort by it keeps equal values in input order (argsort), and comparing
  // keys compares values (searchsorted).
  __device__ static U order_key(U v) {
    if constexpr (floating) {
      if (is_nan(v)) return U(~U(0));
      return flip((v & U(~sign())) == 0 ? U(0) : v);
    } else {
      return value_key(v);
    }
  }

  // An order-preserving key that maps back to the value (value_of), for sorting the values
  // themselves: -0.0 keeps its own key, just below 0.0's (a valid order, as they are equal), and a
  // NaN keeps its payload with the sign cleared, which puts it above +inf and is still a NaN.
  __device__ static U value_key(U v) {
    if constexpr (floating) {
      const U magnitude = v & U(~sign());
      return flip(magnitude > infinity() ? magnitude : v);
    } else if constexpr (K == bits_kind::signed_) {
      return U(v ^ sign());
    } else {
      return v;
    }
  }

  __device__ static U value_of(U key) {
    if constexpr (floating) {
      return (key & sign()) ? U(key ^ sign()) : U(~key);
    } else {
      return value_key(key);  // flipping the sign bit is its own inverse
    }
  }

  __device__ static bool less(U a, U b) { return order_key(a) < order_key(b); }

  __device__ static bool is_nan(U v) { return (v & U(~sign())) > infinity(); }

 private:
  __device__ static constexpr U sign() { return U(U(1) << (8 * sizeof(U) - 1)); }

  // Positive infinity's bits: a magnitude above it is a NaN.
  __device__ static constexpr U infinity() {
    if constexpr (K == bits_kind::bfloat16)
      return U(0x7F80);
    else if constexpr (sizeof(U) == 2)
      return U(0x7C00);
    else if constexpr (sizeof(U) == 4)
      return U(0x7F800000u);
    else
      return U(0x7FF0000000000000ull);
  }

  // IEEE bits to unsigned order: negative values reversed (all bits flipped), positive ones moved
  // above them (sign bit set).
  __device__ static U flip(U v) { return (v & sign()) ? U(~v) : U(v | sign()); }
};

template <class U>
using unsigned_order = real_order<U, bits_kind::unsigned_>;
template <class U>
using signed_order = real_order<U, bits_kind::signed_>;
template <class U>
using float_order = real_order<U, bits_kind::float_>;

template <class U>
struct complex_bits {
  U real, imag;
};

// NumPy's complex order (its CLT): values without NaN by real, then imaginary part; then those with
// a NaN imaginary part only, by real part; then a NaN real part only, by imaginary part; then both
// NaN. As three keys, most significant first: the NaN class, a primary and a secondary key.
template <class U>
struct complex_order {
  using part_bits = U;
  using part = float_order<U>;
  using value = complex_bits<U>;
  static constexpr bool is_complex = true;

  // 0: no NaN, 1: NaN imaginary part only, 2: NaN real part only, 3: both NaN.
  __device__ static std::uint8_t nan_class(value v) {
    return std::uint8_t(part::is_nan(v.imag) + 2 * part::is_nan(v.real));
  }
  // Classes 0 and 1 sort by the real part, class 2 by the imaginary part; class 3's is the NaN key.
  __device__ static U primary_key(value v) { return part::order_key(part::is_nan(v.real) ? v.imag : v.real); }
  // Class 0 breaks ties by the imaginary part. The others need no tie-break: class 1's key is the
  // NaN key, and classes 2 and 3 get 0.
  __device__ static U secondary_key(value v) { return part::is_nan(v.real) ? U(0) : part::order_key(v.imag); }

  __device__ static bool less(value a, value b) {
    if (nan_class(a) != nan_class(b)) return nan_class(a) < nan_class(b);
    if (primary_key(a) != primary_key(b)) return primary_key(a) < primary_key(b);
    return secondary_key(a) < secondary_key(b);
  }
};

// The radix passes of a sort: `of` maps an element to an unsigned key whose low `bits` vary.
template <class Order>
struct order_pass {
  using value = typename Order::value;
  using key = value;
  static constexpr int bits = 8 * sizeof(key);
  __device__ static key of(value v) { return Order::order_key(v); }
};
template <class U>
struct complex_secondary_pass {
  using value = complex_bits<U>;
  using key = U;
  static constexpr int bits = 8 * sizeof(key);
  __device__ static key of(value v) { return complex_order<U>::secondary_key(v); }
};
template <class U>
struct complex_primary_pass {
  using value = complex_bits<U>;
  using key = U;
  static constexpr int bits = 8 * sizeof(key);
  __device__ static key of(value v) { return complex_order<U>::primary_key(v); }
};
template <class U>
struct complex_class_pass {
  using value = complex_bits<U>;
  using key = std::uint8_t;
  static constexpr int bits = 2;
  __device__ static key of(value v) { return complex_order<U>::nan_class(v); }
};

// Calls f with the order type of dtype t's elements.
template <class F>
void with_order(dtype t, F&& f) {
  switch (t) {
    case dtype::bool_:
    case dtype::uint8:
      return f(unsigned_order<std::uint8_t>{});
    case dtype::uint16:
      return f(unsigned_order<std::uint16_t>{});
    case dtype::uint32:
      return f(unsigned_order<std::uint32_t>{});
    case dtype::uint64:
      return f(unsigned_order<std::uint64_t>{});
    case dtype::int8:
      return f(signed_order<std::uint8_t>{});
    case dtype::int16:
      return f(signed_order<std::uint16_t>{});
    case dtype::int32:
      return f(signed_order<std::uint32_t>{});
    case dtype::int64:
      return f(signed_order<std::uint64_t>{});
    case dtype::float16:
      return f(float_order<std::uint16_t>{});
    case dtype::bfloat16:
      return f(real_order<std::uint16_t, bits_kind::bfloat16>{});
    case dtype::float32:
      return f(float_order<std::uint32_t>{});
    case dtype::float64:
      return f(float_order<std::uint64_t>{});
    case dtype::complex64:
      return f(complex_order<std::uint32_t>{});
    case dtype::complex128:
      return f(complex_order<std::uint64_t>{});
  }
  throw error("cuda library call: unknown dtype");
}

// Calls f with an element type of `size` bytes, for copies that only move elements. 16-byte
// elements are complex128: two 8-byte words, as they are only 8-byte aligned.
template <class F>
void with_element_size(std::size_t size, F&& f) {
  switch (size) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    case 4:
      return f(std::uint32_t{});
    case 8:
      return f(std::uint64_t{});
    case 16:
      return f(complex_bits<std::uint64_t>{});
  }
  throw error("cuda library call: no element type of " + std::to_string(size) + " bytes");
}

// ---- sort --------------------------------------------------------------------------------------
// An argsort is a stable radix sort of (key, flat index) pairs, one pass per key (complex numbers
// have three), then one by row id when there are several rows. Sorted values are gathered through
// that permutation, except a single row of real values: its invertible keys are sorted alone.

template <class Pass>
__global__ void identity_keys(const typename Pass::value* in, typename Pass::key* keys, int64_t* indices,
                              int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    keys[i] = Pass::of(in[i]);
    indices[i] = i;
  }
}

template <class Pass>
__global__ void permuted_keys(const typename Pass::value* in, const int64_t* indices,
                              typename Pass::key* keys, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) keys[i] = Pass::of(in[indices[i]]);
}

template <class Order>
__global__ void value_keys(const typename Order::value* in, typename Order::value* keys, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) keys[i] = Order::value_key(in[i]);
}

template <class Order>
__global__ void values_of_keys(const typename Order::value* keys, typename Order::value* out, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = Order::value_of(keys[i]);
}

template <class R>
__global__ void row_keys(const int64_t* flat, int64_t length, R* rows, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) rows[i] = R(flat[i] / length);
}

__global__ void row_positions(const int64_t* flat, int64_t length, int64_t* out, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = flat[i] % length;
}

template <class E>
__global__ void gather(const E* in, const int64_t* indices, E* out, int64_t n) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = in[indices[i]];
}

// Sorts the flat indices in `perm` stably by the keys of Pass. With `first`, perm is filled here
// (the identity) rather than carried over from an earlier pass.
template <class Pass>
void sort_pass(const void* in, bool first, double_buffer<int64_t>& perm, int64_t n) {
  const auto* elements = static_cast<const typename Pass::value*>(in);
  double_buffer<typename Pass::key> keys(n);
  if (first)
    launch("identity_keys", n, identity_keys<Pass>, elements, keys.current(), perm.current(), n);
  else
    launch("permuted_keys", n, permuted_keys<Pass>, elements, perm.current(), keys.current(), n);
  sort_pairs(keys.buffers, perm.buffers, n, Pass::bits);
}

// Fills `perm` with the stable permutation putting all n elements, rows ignored, in NumPy order.
template <class Order>
void sort_permutation(const void* in, double_buffer<int64_t>& perm, int64_t n) {
  if constexpr (Order::is_complex) {
    using U = typename Order::part_bits;
    // Least significant key first: each stable pass keeps the order of the ones before it.
    sort_pass<complex_secondary_pass<U>>(in, true, perm, n);
    sort_pass<complex_primary_pass<U>>(in, false, perm, n);
    sort_pass<complex_class_pass<U>>(in, false, perm, n);
  } else {
    sort_pass<order_pass<Order>>(in, true, perm, n);
  }
}

// A stable pass by row id regroups the sorted elements into their rows, each still in order. The
// radix sort looks only at the bits a row id can have.
template <class R>
void sort_by_row_as(double_buffer<int64_t>& perm, int64_t length, int64_t rows, int64_t n) {
  double_buffer<R> keys(n);
  launch("row_keys", n, row_keys<R>, perm.current(), length, keys.current(), n);
  sort_pairs(keys.buffers, perm.buffers, n, std::bit_width(static_cast<std::uint64_t>(rows - 1)));
}

void sort_by_row(double_buffer<int64_t>& perm, int64_t length, int64_t rows, int64_t n) {
  if (rows == 1) return;
  if (static_cast<std::uint64_t>(rows - 1) <= UINT32_MAX)
    sort_by_row_as<std::uint32_t>(perm, length, rows, n);
  else
    sort_by_row_as<std::uint64_t>(perm, length, rows, n);
}

void gather_elements(const void* in, const int64_t* indices, void* out, std::size_t size, int64_t n) {
  with_element_size(size, [&](auto element) {
    using E = decltype(element);
    launch("gather", n, gather<E>, static_cast<const E*>(in), indices, static_cast<E*>(out), n);
  });
}

// One row's values: sorting the invertible keys alone moves half the data of sorting pairs.
template <class Order>
void sort_values(const void* in, void* out, int64_t n) {
  using U = typename Order::value;
  double_buffer<U> keys(n);
  launch("value_keys", n, value_keys<Order>, static_cast<const U*>(in), keys.current(), n);
  run_cub("cub::DeviceRadixSort::SortKeys", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, bytes, keys.buffers, n, 0, int(8 * sizeof(U)),
                                          current_stream());
  });
  launch("values_of_keys", n, values_of_keys<Order>, keys.current(), static_cast<U*>(out), n);
}

template <class Order>
void sort_rows(const ir::library_call& c, const void* in, void* out) {
  const int64_t n = c.rows * c.length;
  if (n == 0) return;
  if constexpr (!Order::is_complex) {
    if (!c.indices && c.rows == 1) {
      if (c.dt == dtype::float32 || c.dt == dtype::float64) return sort_float_row(c.dt, in, out, n);
      return sort_values<Order>(in, out, n);
    }
  }
  // One row's positions are its flat indices: sort them in the output (row_positions would copy).
  const bool positions_are_flat = c.indices && c.rows == 1;
  double_buffer<int64_t> perm(n, positions_are_flat ? static_cast<int64_t*>(out) : nullptr);
  sort_permutation<Order>(in, perm, n);
  sort_by_row(perm, c.length, c.rows, n);
  if (positions_are_flat) {
    if (perm.current() != out)  // an odd number of radix passes
      check(cudaMemcpyAsync(out, perm.current(), sizeof(int64_t) * n, cudaMemcpyDeviceToDevice,
                            current_stream()),
            "cudaMemcpyAsync");
  } else if (c.indices) {
    launch("row_positions", n, row_positions, perm.current(), c.length, static_cast<int64_t*>(out), n);
  } else {
    gather_elements(in, perm.current(), out, itemsize(c.dt), n);
  }
}

// ---- flatnonzero -------------------------------------------------------------------------------

void flatnonzero(const ir::library_call& c, const void* flags, void* out) {
  if (c.rows == 0) return;  // no true element: nothing to write
  // CUB writes the number selected to device memory; the caller counted already, so it is unread.
  scratch selected(sizeof(int64_t));
  run_cub("cub::DeviceSelect::Flagged", [&](void* temp, std::size_t& bytes) {
    return cub::DeviceSelect::Flagged(temp, bytes, thrust::counting_iterator<int64_t>(0),
                                      static_cast<const bool*>(flags), static_cast<int64_t*>(out),
                                      selected.get<int64_t>(), c.length, current_stream());
  });
}

// ---- searchsorted ------------------------------------------------------------------------------

// Binary search per needle: side left finds the first element not below it, side right the first
// element above it.
template <class Order>
__global__ void search(const typename Order::value* sorted, int64_t length,
                       const typename Order::value* needles, int64_t count, bool right, int64_t* out) {
  for (int64_t i = thread_index(); i < count; i += thread_count()) {
    const typename Order::value v = needles[i];
    int64_t lo = 0, hi = length;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      const bool before = right ? !Order::less(v, sorted[mid]) : Order::less(sorted[mid], v);
      if (before)
        lo = mid + 1;
      else
        hi = mid;
    }
    out[i] = lo;
  }
}

template <class Order>
void searchsorted(const ir::library_call& c, const void* sorted, const void* needles, void* out) {
  using V = typename Order::value;
  launch("search", c.rows, search<Order>, static_cast<const V*>(sorted), c.length,
         static_cast<const V*>(needles), c.rows, c.right, static_cast<int64_t*>(out));
}

// ---- scatter -----------------------------------------------------------------------------------

// The largest j writing each offset wins: integer atomics give the same winner on every run.
__global__ void claim_offsets(const int64_t* offsets, int64_t count, long long* winner) {
  for (int64_t j = thread_index(); j < count; j += thread_count())
    atomicMax(&winner[offsets[j]], static_cast<long long>(j));
}

template <class E>
__global__ void write_winners(const int64_t* offsets, const E* values, const long long* winner, int64_t count,
                              E* out) {
  for (int64_t j = thread_index(); j < count; j += thread_count()) {
    const int64_t at = offsets[j];
    if (winner[at] == j) out[at] = values[j];
  }
}

void scatter(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  if (c.length == 0) return;
  const std::size_t size = itemsize(c.dt);
  check(cudaMemcpyAsync(out, in[0], size * c.length, cudaMemcpyDeviceToDevice, current_stream()),
        "cudaMemcpyAsync");
  if (c.rows == 0) return;
  const auto* offsets = static_cast<const int64_t*>(in[1]);
  scratch winner(sizeof(long long) * c.length);
  // All bits set: every entry -1, below any writer's index.
  check(cudaMemsetAsync(winner.get(), 0xFF, sizeof(long long) * c.length, current_stream()),
        "cudaMemsetAsync");
  launch("claim_offsets", c.rows, claim_offsets, offsets, c.rows, winner.get<long long>());
  with_element_size(size, [&](auto element) {
    using E = decltype(element);
    launch("write_winners", c.rows, write_winners<E>, offsets, static_cast<const E*>(in[2]),
           winner.get<const long long>(), c.rows, static_cast<E*>(out));
  });
}

// ---- bincount ----------------------------------------------------------------------------------

__global__ void count_values(const int64_t* values, int64_t count, unsigned long long* bins) {
  for (int64_t i = thread_index(); i < count; i += thread_count()) atomicAdd(&bins[values[i]], 1ull);
}

__device__ int64_t lower_bound(const std::uint64_t* sorted, int64_t n, std::uint64_t key) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// One thread per bin adds its weights one by one in input order (the stable sort kept it): the
// CPU's sum, bit for bit, on every run.
__global__ void sum_bins(const std::uint64_t* sorted_values, const double* weights, int64_t count,
                         double* bins, int64_t length) {
  for (int64_t b = thread_index(); b < length; b += thread_count()) {
    const int64_t end = lower_bound(sorted_values, count, std::uint64_t(b) + 1);
    double sum = 0.0;
    for (int64_t k = lower_bound(sorted_values, count, std::uint64_t(b)); k < end; ++k) sum += weights[k];
    bins[b] = sum;
  }
}

void weighted_bincount(const ir::library_call& c, const int64_t* values, const double* weights,
                       double* bins) {
  // The sort works in place on its buffers: start from copies of the inputs, weights carried as bits.
  double_buffer<std::uint64_t> keys(c.rows);
  double_buffer<int64_t> carried(c.rows);
  check(cudaMemcpyAsync(keys.current(), values, sizeof(int64_t) * c.rows, cudaMemcpyDeviceToDevice,
                        current_stream()),
        "cudaMemcpyAsync");
  check(cudaMemcpyAsync(carried.current(), weights, sizeof(double) * c.rows, cudaMemcpyDeviceToDevice,
                        current_stream()),
        "cudaMemcpyAsync");
  // Values lie in [0, length): only their low bits need sorting.
  const int end_bit = std::max(1, int(std::bit_width(static_cast<std::uint64_t>(c.length - 1))));
  sort_pairs(keys.buffers, carried.buffers, c.rows, end_bit);
  launch("sum_bins", c.length, sum_bins, keys.current(), reinterpret_cast<const double*>(carried.current()),
         c.rows, bins, c.length);
}

void bincount(const ir::library_call& c, const std::vector<const void*>& in, void* out) {
  if (c.length == 0) return;
  // Zero bits are 0 as int64 and as float64: the bins' values when no value falls in them.
  check(cudaMemsetAsync(out, 0, sizeof(int64_t) * c.length, current_stream()), "cudaMemsetAsync");
  if (c.rows == 0) return;
  const auto* values = static_cast<const int64_t*>(in[0]);
  if (c.weighted)
    weighted_bincount(c, values, static_cast<const double*>(in[1]), static_cast<double*>(out));
  else
    launch("count_values", c.rows, count_values, values, c.rows, static_cast<unsigned long long*>(out));
}

}  // namespace

void run_library(const ir::library_call& c, const std::vector<const void*>& in,
                 const std::vector<void*>& outs) {
  void* out = outs.empty() ? nullptr : outs[0];
  switch (c.op) {
    case ir::library_op::sort:
      with_order(c.dt, [&](auto order) { sort_rows<decltype(order)>(c, in[0], out); });
      return;
    case ir::library_op::flatnonzero:
      flatnonzero(c, in[0], out);
      return;
    case ir::library_op::searchsorted:
      with_order(c.dt, [&](auto order) { searchsorted<decltype(order)>(c, in[0], in[1], out); });
      return;
    case ir::library_op::scatter:
      scatter(c, in, out);
      return;
    case ir::library_op::bincount:
      bincount(c, in, out);
      return;
    case ir::library_op::gemm:
      gemm(c, in, out);  // cublas.cpp
      return;
    case ir::library_op::solve:
    case ir::library_op::inv:
    case ir::library_op::lu:
    case ir::library_op::cholesky:
    case ir::library_op::qr:
    case ir::library_op::eigh:
    case ir::library_op::svd:
    case ir::library_op::eig:
      run_solver(c, in, outs);  // cusolver.cpp
      return;
    case ir::library_op::fft:
      fft(c, in, out);  // cufft.cpp
      return;
  }
  throw error("cuda backend: unknown library call");
}

}  // namespace ndfuse::backend::cuda
