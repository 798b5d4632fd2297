// The CPU backend: host memory with a size-keyed pool, and kernels run by the interpreter.
#include "backend/cpu/cpu_backend.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "backend/cpu/interpreter.hpp"
#include "backend/cpu/library.hpp"
#include "backend/cpu/thread_pool.hpp"
#include "ndfuse/error.hpp"

namespace ndfuse::backend::cpu {

namespace {

constexpr std::size_t huge_threshold = std::size_t{64} << 20;
constexpr std::size_t huge_page = std::size_t{2} << 20;

// 64 bytes (a cache line, and AVX-512's vectors); a huge page for buffers that ask for huge pages.
std::align_val_t alignment(std::size_t nbytes) {
  return std::align_val_t(nbytes >= huge_threshold ? huge_page : 64);
}

class cpu_backend final : public device_backend {
 public:
  std::string_view name() const override { return "cpu"; }

  // Freed buffers are kept for reuse by size (as CuPy's pool does): a fresh allocation of a big
  // buffer costs a page fault per 4 KiB, which would dominate eager chains.
  void* allocate(std::size_t nbytes) override {
    {
      std::lock_guard lock(pool_mutex_);
      auto it = pool_.find(nbytes);
      if (it != pool_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        pooled_bytes_ -= nbytes;
        return p;
      }
    }
    void* p = ::operator new(nbytes, alignment(nbytes), std::nothrow);
    if (!p) {
      release_pool();
      p = ::operator new(nbytes, alignment(nbytes), std::nothrow);
    }
    if (!p) throw out_of_memory("cpu backend: cannot allocate " + std::to_string(nbytes) + " bytes");
    // A big buffer asks for transparent huge pages: its first touch then faults once per 2 MiB
    // instead of once per 4 KiB, which is most of the cost of filling a fresh buffer (a GPU-to-CPU
    // move writes 2 GB at 30 GB/s with 4 KiB faults). Only advice: where THP is off, nothing changes.
    if (nbytes >= huge_threshold) ::madvise(p, nbytes, MADV_HUGEPAGE);
    return p;
  }
  void deallocate(void* p, std::size_t nbytes) override {
    {
      std::lock_guard lock(pool_mutex_);
      if (pooled_bytes_ + nbytes <= pool_limit_bytes) {
        pool_[nbytes].push_back(p);
        pooled_bytes_ += nbytes;
        return;
      }
    }
    ::operator delete(p, alignment(nbytes));
  }
  ~cpu_backend() override { release_pool(); }
  void copy_from_host(void* dst, const void* src, std::size_t n) override { std::memcpy(dst, src, n); }
  void copy_to_host(void* dst, const void* src, std::size_t n) override { std::memcpy(dst, src, n); }
  void synchronize() override {}
  void run_library(const ir::library_call& c, const std::vector<const void*>& inputs,
                   const std::vector<void*>& outputs) override {
    cpu::run_library(c, inputs, outputs);
  }

  std::unique_ptr<compiled_kernel> compile(const ir::kernel_ir& k) override { return build_program(k); }

  void launch(const compiled_kernel& ck, const ir::kernel_ir& k, const ir::kernel_args& a) override {
    const auto& prog = static_cast<const program&>(ck);
    if (!k.reduction)
      run_elementwise(prog, k, a);
    else if (k.reduction->strategy == ir::reduce_strategy::scan)
      run_scan(prog, k, a);
    else
      run_reduction(prog, k, a);
  }

 private:
  static constexpr std::size_t pool_limit_bytes = std::size_t(4) << 30;
  void release_pool() {
    std::lock_guard lock(pool_mutex_);
    for (auto& [size, list] : pool_)
      for (void* p : list) ::operator delete(p, alignment(size));
    pool_.clear();
    pooled_bytes_ = 0;
  }
  std::mutex pool_mutex_;
  std::unordered_map<std::size_t, std::vector<void*>> pool_;
  std::size_t pooled_bytes_ = 0;
};

}  // namespace

std::unique_ptr<device_backend> make_backend() {
  return std::make_unique<cpu_backend>();
}

}  // namespace ndfuse::backend::cpu
