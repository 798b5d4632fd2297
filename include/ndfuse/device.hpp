// Devices: the CPU and each GPU of the process. Every array lives on one device (x.device()); each
// host thread has a current device, where creation ops, random draws and host data land; ops run
// on their arrays' device, whatever the current device is. Below, the CUDA side as CuPy has it:
// for each GPU a current stream (the legacy default stream unless a stream_scope says otherwise).
// In a build without CUDA, or on a machine without a driver, cuda::device_count() is 0, the rest
// of nf::cuda throws device_error, and the CPU is the only device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace ndfuse {

enum class device_type : std::uint8_t { cpu, cuda };

// A device, as torch.device names one: "cpu", "cuda:1".
class device {
 public:
  constexpr device() = default;  // the CPU
  // "cpu", "cuda" (GPU 0) or "cuda:N"; anything else throws value_error.
  explicit device(std::string_view spec);
  static constexpr device cpu() { return device(); }
  static constexpr device cuda(int index = 0) { return device(device_type::cuda, index); }

  constexpr device_type type() const { return type_; }
  constexpr int index() const { return index_; }  // 0 for the CPU
  constexpr bool is_cpu() const { return type_ == device_type::cpu; }
  constexpr bool is_cuda() const { return type_ == device_type::cuda; }
  std::string str() const;  // "cpu", "cuda:1"
  friend constexpr bool operator==(device a, device b) { return a.type_ == b.type_ && a.index_ == b.index_; }

 private:
  constexpr device(device_type t, int index) : type_(t), index_(static_cast<std::int16_t>(index)) {}
  device_type type_ = device_type::cpu;
  std::int16_t index_ = 0;
};
std::ostream& operator<<(std::ostream& os, device d);

// This thread's current device: the innermost device_scope (or nf::cuda::device, or
// cuda::set_device) of this thread, else the process default: NDFUSE_DEVICE, else GPU 0 when one is
// usable, else the CPU (NDFUSE_BACKEND=cpu|cuda is read as NDFUSE_DEVICE=cpu|cuda:0).
device current_device();
device default_device();

// Makes `d` the current device of this thread while alive (`with cupy.cuda.Device(1):`, and the
// same for the CPU). A GPU that does not exist throws device_error here.
class device_scope {
 public:
  explicit device_scope(device d);
  ~device_scope();
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  std::uint32_t previous_;
};

// Waits for the work queued on every device this process has used, from every thread's current
// streams (cupy.cuda.Device().synchronize() on each, or torch.cuda.synchronize()); on the CPU,
// where work runs when it is forced, there is nothing to wait for.
void synchronize();

}  // namespace ndfuse

namespace ndfuse::cuda {

int device_count();       // devices usable now; 0 without a driver, a GPU, or CUDA support
int get_device();         // this thread's current GPU (the last one made current)
void set_device(int id);  // cupy.cuda.Device(id).use(): GPU `id` becomes this thread's current device
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

// Makes GPU `id` the current device of this thread while alive (`with cupy.cuda.Device(id):`):
// nf::device_scope(nf::device::cuda(id)).
class device {
 public:
  explicit device(int id);
  ~device();
  device(const device&) = delete;
  device& operator=(const device&) = delete;

 private:
  int previous_;
  std::uint32_t previous_place_ = 0;
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
  // This thread's current stream of the current device (owns nothing): cupy.cuda.get_current_stream().
  static stream current();
  // A stream another library made (a cudaStream_t) on GPU `device_id`, owning nothing
  // (cupy.cuda.ExternalStream): for stream_scope, events and DLPack consumers.
  static stream external(void* handle, int device_id);

  void synchronize() const;
  void* handle() const { return handle_; }  // a cudaStream_t
  int device_id() const { return device_; }

 private:
  stream(void* handle, int device, bool owned) : handle_(handle), device_(device), owned_(owned) {}
  void* handle_ = nullptr;
  int device_ = 0;
  bool owned_ = false;
};

// This thread's current stream of the current GPU (cupy.cuda.get_current_stream()): the legacy default
// stream unless a stream_scope says otherwise. Owns nothing.
stream get_current_stream();

// A CUDA event on the GPU that was current when it was made (cupy.cuda.Event): record() marks a point
// in a stream, synchronize() waits for it on the host, wait() makes a stream wait for it without
// blocking the host, and elapsed_ms(start, end) is the time between two recorded events
// (cupy.cuda.get_elapsed_time). disable_timing makes record and wait cheaper; such events cannot be
// timed. blocking: synchronize() yields the host thread instead of spinning.
class event {
 public:
  explicit event(bool disable_timing = false, bool blocking = false);
  ~event();
  event(event&& other) noexcept;
  event& operator=(event&& other) noexcept;
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  void record();                            // on this thread's current stream of the event's GPU
  void record(const stream& s);             // on s (of the event's GPU)
  void synchronize() const;                 // waits on the host until the recorded work is done
  bool done() const;                        // whether it is (cupy.cuda.Event.done)
  void wait() const;                        // this thread's current stream of the event's GPU waits for it
  void wait(const stream& s) const;         // s waits for it, on any GPU
  void* handle() const { return handle_; }  // a cudaEvent_t
  int device_id() const { return device_; }

 private:
  void* handle_ = nullptr;
  int device_ = 0;
  bool timing_ = true;
  friend float elapsed_ms(const event& start, const event& end);
};
// Milliseconds between two recorded, completed timing events (throws device_error otherwise).
float elapsed_ms(const event& start, const event& end);

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
