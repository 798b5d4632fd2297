// CUDA devices and streams, as CuPy has them: each host thread has a current device, and for each
// device a current stream (the legacy default stream unless a stream_scope says otherwise). Arrays
// are allocated, computed and freed on the current device's current stream. In a build without
// CUDA, or on a machine without a driver, device_count() is 0 and the rest throws device_error.
#pragma once
#include <cstddef>

namespace ndfuse::cuda {

int device_count();       // devices usable now; 0 without a driver, a GPU, or CUDA support
int get_device();         // this thread's current device
void set_device(int id);  // cupy.cuda.Device(id).use()
void synchronize();       // waits for all work on this thread's current device

// The current device's memory as the driver sees it (cupy.cuda.Device().mem_info). Memory that
// ndfuse keeps for reuse (freed arrays' blocks, the stream-ordered pool) counts as used.
struct memory_info {
  std::size_t free_bytes = 0, total_bytes = 0;
};
memory_info mem_info();
// Waits for the current device, then hands the memory ndfuse keeps for reuse there back to the
// driver, for other processes (cupy.get_default_memory_pool().free_all_blocks()). Live arrays keep
// theirs. Never needed for ndfuse's own allocations: one that fails does this and tries again.
void free_cached_memory();

// Makes `id` the current device of this thread while alive (`with cupy.cuda.Device(id):`).
class device {
 public:
  explicit device(int id);
  ~device();
  device(const device&) = delete;
  device& operator=(const device&) = delete;

 private:
  int previous_;
};

// A CUDA stream on the device that was current when it was made. Blocking with respect to the
// legacy default stream, as CuPy's streams are by default, so work on the two stays ordered.
class stream {
 public:
  stream();   // a new stream on the current device
  ~stream();  // waits for the stream's work, then destroys it
  stream(stream&& other) noexcept;
  stream& operator=(stream&& other) noexcept;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  // The legacy default stream of the current device (owns nothing).
  static stream null();

  void synchronize() const;
  void* handle() const { return handle_; }  // a cudaStream_t
  int device_id() const { return device_; }

 private:
  stream(void* handle, int device, bool owned) : handle_(handle), device_(device), owned_(owned) {}
  void* handle_ = nullptr;
  int device_ = 0;
  bool owned_ = false;
};

// Makes `s` the current stream of its device for this thread while alive (`with stream:`). The
// stream must outlive the scope and every array computed in it that is freed before a sync.
class stream_scope {
 public:
  explicit stream_scope(const stream& s);
  ~stream_scope();
  stream_scope(const stream_scope&) = delete;
  stream_scope& operator=(const stream_scope&) = delete;

 private:
  void* previous_;
  int device_;
};

}  // namespace ndfuse::cuda
