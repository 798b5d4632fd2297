// User kernels on the CPU device: C++ source compiled at run time by the host compiler ndfuse was
// built with (NDFUSE_HOST_CXX overrides it) into a shared object, loaded with dlopen. The shared
// objects live in the disk cache beside NVRTC's CUBINs, keyed on the source, the flags and the
// compiler's --version line, so a second process compiles nothing.
//
// Flags: -std=c++20 -O2 -fPIC -shared -ffp-contract=off. No FMA contraction and no fast math, as
// NVRTC gets --fmad=false: a user body rounds as NumPy's arithmetic does, on both devices.
#pragma once
#include <memory>
#include <string>

namespace ndfuse::support {
class disk_cache;
}

namespace ndfuse::backend::cpu {

class host_module {
 public:
  // `fd`: the anonymous file a cached module was loaded from (or -1), closed after the module.
  host_module(void* handle, bool from_disk_cache, int fd = -1)
      : handle_(handle), from_disk_cache_(from_disk_cache), fd_(fd) {}
  ~host_module();
  host_module(const host_module&) = delete;
  host_module& operator=(const host_module&) = delete;

  // The address of an extern "C" symbol; compile_error when the module has none of that name.
  void* symbol(const char* name) const;
  bool from_disk_cache() const { return from_disk_cache_; }

 private:
  void* handle_;
  bool from_disk_cache_;
  int fd_;
};

// `source` compiled and loaded; `name` names the source file (`<name>.cpp`) in the compiler's
// messages and dumps. A source that does not compile throws compile_error with the compiler's log
// and the path of the source, kept for the user (a `#line` directive in the source makes the log
// name the user's own lines). A compiler that does not run throws device_error.
std::shared_ptr<const host_module> compile_host(const std::string& source, const std::string& name,
                                                support::disk_cache& cache);
std::shared_ptr<const host_module> compile_host(const std::string& source, const std::string& name);

// The compiler command used (NDFUSE_HOST_CXX, else the build's C++ compiler).
const std::string& host_compiler();

}  // namespace ndfuse::backend::cpu
