// Raw kernels: CuPy's RawKernel and RawModule. The user writes a whole CUDA program; ndfuse compiles
// it with NVRTC (cached on disk, the key holding every header it includes) and launches it.
//
//   nf::raw_kernel add(R"(extern "C" __global__ void add(const float* x, const float* y, float* z, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) z[i] = x[i] + y[i];
//   })", "add");
//   nf::array z = nf::empty({n}, nf::float32);
//   add(nf::dim3(n / 256 + 1), nf::dim3(256), {x, y, nf::out(z), int(n)});
//
// Arguments: an array is evaluated and passed as a pointer to its first element; it must be
// C-contiguous (a strided view throws value_error: nf::ascontiguousarray first). An array the kernel
// writes is passed as nf::out(z): z is then written in place only when no other handle, view or
// pending expression sees its buffer, else it is first copied to a buffer of its own, so no other
// handle sees the change (value semantics). Arrays passed plainly must not be written. A C++ scalar
// is passed by value with its own type (an `int` is a C `int`: match the kernel's parameter types).
//
// A launch is enqueued on the current stream of the arrays' GPU (this thread's current GPU when
// no array is passed) and returns at once, as CuPy's does. Raw kernels need a GPU: on the CPU device
// they throw device_error.
#pragma once
#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "ndfuse/array.hpp"
#include "ndfuse/device.hpp"

namespace ndfuse {

// Grid and block sizes, as CUDA's dim3: nf::dim3(256), nf::dim3(16, 16).
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

// One argument of a raw launch: an array (read), nf::out(z) (written), or a C++ scalar.
struct raw_arg {
  raw_arg(const array& a) : in(&a) {}
  raw_arg(out o) : target(&o.target) {}
  template <scalar_type T>
  raw_arg(T v) : scalar_bytes(sizeof(T)) {
    static_assert(sizeof(T) <= sizeof(value) && alignof(T) <= alignof(std::max_align_t));
    new (value.data()) T(v);
  }
  const array* in = nullptr;
  array* target = nullptr;
  std::size_t scalar_bytes = 0;
  std::array<std::max_align_t, 1> value{};  // the scalar's bytes (std::complex<double> fits)
};

// What a launch may add to grid, block and arguments: dynamic shared memory in bytes (above 48 KiB
// the kernel is allowed it first), and a stream to run on instead of the current one (the launch
// is then made as inside nf::cuda::stream_scope(*stream)).
struct launch_options {
  std::size_t shared_mem = 0;
  const cuda::stream* stream = nullptr;
};

// Compile options: NVRTC's (CuPy's `options`), e.g. {"-std=c++17", "-I/path/to/headers",
// "-DBLOCK=128"}. ndfuse adds --gpu-architecture for the device, and -std=c++17 unless one is given.
struct raw_options {
  std::vector<std::string> options;
};

namespace detail {
struct raw_program;  // the source or image, its compiles per architecture and modules per GPU
}

// One __global__ function of a program.
class raw_kernel {
 public:
  // A program holding the kernel `name`: an extern "C" name, a mangled name, or a template instance
  // such as "scale<float>", which is then found through NVRTC's name expressions.
  raw_kernel(std::string source, std::string name, raw_options options = {});

  void operator()(dim3 grid, dim3 block, std::initializer_list<raw_arg> args,
                  launch_options launch = {}) const;

  // Compiles now for GPU architecture sm_<sm> (90 for an H100), or for the current GPU's when sm
  // is 0: CuPy's compile(). No GPU is needed for an explicit sm. Throws compile_error with NVRTC's
  // log and the dumped source's path.
  void compile(int sm = 0) const;
  const std::string& name() const { return name_; }
  // The name the loader looks up: the lowered (mangled) name of a template instance, else `name`.
  // Compiles for sm_<sm> (0: the current GPU's architecture, or sm_90 without one) when it must.
  std::string lowered_name(int sm = 0) const;

 private:
  friend class raw_module;
  raw_kernel(std::shared_ptr<detail::raw_program> program, std::string name);
  std::shared_ptr<detail::raw_program> program_;
  std::string name_;
};

// CuPy's RawModule: a program of several kernels, from source (compiled by NVRTC) or from a
// compiled file (.cubin, .ptx or .fatbin, loaded as it is). Copies share one program.
//
//   nf::raw_module m(source, {"scale<float>", "scale<double>"});  // template instances
//   m.get_function("scale<double>")(grid, block, {x, nf::out(y), 2.0, n});
class raw_module {
 public:
  // name_expressions: template instances (or any __global__ function's name) that get_function
  // then finds by that spelling.
  explicit raw_module(std::string source, std::vector<std::string> name_expressions = {},
                      raw_options options = {});
  // A .cubin, .ptx or .fatbin file (io_error when it cannot be read, value_error for another kind).
  static raw_module from_file(const std::string& path);

  raw_kernel get_function(const std::string& name) const;
  void compile(int sm = 0) const;  // as raw_kernel::compile
  // The lowered name of a name expression given at construction; `name` itself otherwise.
  std::string lowered_name(const std::string& name, int sm = 0) const;

 private:
  explicit raw_module(std::shared_ptr<detail::raw_program> p) : program_(std::move(p)) {}
  std::shared_ptr<detail::raw_program> program_;
};

}  // namespace ndfuse
