// nf::distributed's collectives on NCCL (backend/collectives.hpp), NCCL opened with dlopen.
#include <dlfcn.h>

#include <mutex>
#include <thread>

#include "backend/collectives.hpp"
#include "backend/cuda/nccl_abi.hpp"
#include "backend/cuda/runtime/cuda_api.hpp"
#include "ndfuse/error.hpp"
#include "support/env.hpp"

namespace cu = ndfuse::backend::cuda;
namespace nccl = ndfuse::backend::cuda::nccl;

namespace ndfuse::detail::collectives {

namespace {

struct loaded {
  nccl::api api{};
  int version = 0;
  std::string why;  // empty when loaded
};

// Where NCCL may be: the user's choice, the library path, then beside the CUDA toolkit ndfuse was
// built with (which ships it).
std::vector<std::string> candidates() {
  std::vector<std::string> c;
  if (const auto& v = support::env::raw(support::env::var::nccl_library); v && !v->empty()) return {*v};
  c.push_back("libnccl.so.2");
#ifdef NDFUSE_CUDA_LIBRARY_DIR
  c.push_back(std::string(NDFUSE_CUDA_LIBRARY_DIR) + "/libnccl.so.2");
#endif
  return c;
}

template <class F>
bool resolve(void* h, const char* name, F& f, std::string& why) {
  f = reinterpret_cast<F>(::dlsym(h, name));
  if (!f && why.empty()) why = std::string("the NCCL library lacks ") + name;
  return f != nullptr;
}

const loaded& nccl_library() {
  static const loaded l = [] {
    loaded r;
    void* h = nullptr;
    std::string tried;
    for (const auto& path : candidates()) {
      h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (h) break;
      const char* e = ::dlerror();
      tried += (tried.empty() ? "" : "; ") + (e ? std::string(e) : path);
    }
    if (!h) {
      r.why = "NCCL cannot be loaded (" + tried +
              "); install NCCL or set NDFUSE_NCCL_LIBRARY to its libnccl.so.2";
      return r;
    }
    auto& a = r.api;
    std::string why;
    resolve(h, "ncclGetVersion", a.get_version, why);
    resolve(h, "ncclGetErrorString", a.get_error_string, why);
    resolve(h, "ncclGetUniqueId", a.get_unique_id, why);
    resolve(h, "ncclCommInitRankConfig", a.comm_init_rank_config, why);
    resolve(h, "ncclCommInitAll", a.comm_init_all, why);
    resolve(h, "ncclCommDestroy", a.comm_destroy, why);
    resolve(h, "ncclCommAbort", a.comm_abort, why);
    resolve(h, "ncclCommGetAsyncError", a.comm_get_async_error, why);
    resolve(h, "ncclAllReduce", a.all_reduce, why);
    resolve(h, "ncclReduceScatter", a.reduce_scatter, why);
    resolve(h, "ncclAllGather", a.all_gather, why);
    resolve(h, "ncclBroadcast", a.broadcast, why);
    resolve(h, "ncclReduce", a.reduce, why);
    resolve(h, "ncclSend", a.send, why);
    resolve(h, "ncclRecv", a.recv, why);
    resolve(h, "ncclGroupStart", a.group_start, why);
    resolve(h, "ncclGroupEnd", a.group_end, why);
    a.get_last_error = reinterpret_cast<decltype(a.get_last_error)>(::dlsym(h, "ncclGetLastError"));
    if (!why.empty()) {
      r.why = why + " (too old: ndfuse needs NCCL 2.14 or later)";
      return r;
    }
    if (a.get_version(&r.version) != nccl::success || r.version < 21400) {
      r.why = "NCCL " + std::to_string(r.version) + " is too old: ndfuse needs 2.14 or later";
      r.version = 0;
    }
    return r;
  }();
  return l;
}

const nccl::api& api() {
  const loaded& l = nccl_library();
  if (l.version == 0) throw device_error("nf::distributed: " + l.why);
  return l.api;
}

[[noreturn]] void fail(const char* call, nccl::result_t rc, nccl::comm_t comm, const std::string& context) {
  const nccl::api& a = api();
  std::string what = std::string("nf::distributed: ") + call + " failed" +
                     (context.empty() ? "" : " (" + context + ")") + ": " + a.get_error_string(rc);
  if (comm && a.get_last_error) {
    const char* last = a.get_last_error(comm);
    if (last && *last) what += std::string(": ") + last;
  }
  throw device_error(what);
}

void check(nccl::result_t rc, const char* call, nccl::comm_t comm = nullptr,
           const std::string& context = {}) {
  if (rc != nccl::success && rc != nccl::in_progress) fail(call, rc, comm, context);
}

}  // namespace

struct communicator {
  nccl::comm_t comm = nullptr;
  int rank = 0, size = 1, gpu = 0;
  bool nonblocking = false;
  ~communicator() {
    if (comm) api().comm_destroy(comm);
  }
};

int nccl_version(std::string* why) {
  const loaded& l = nccl_library();
  if (why) *why = l.why;
  return l.version;
}

unique_id make_unique_id() {
  nccl::unique_id_t id;
  check(api().get_unique_id(&id), "ncclGetUniqueId");
  unique_id out;
  std::copy(std::begin(id.internal), std::end(id.internal), out.begin());
  return out;
}

std::vector<std::shared_ptr<communicator>> init_all(const std::vector<int>& gpus) {
  const nccl::api& a = api();
  std::vector<nccl::comm_t> comms(gpus.size(), nullptr);
  check(a.comm_init_all(comms.data(), static_cast<int>(gpus.size()), gpus.data()), "ncclCommInitAll");
  std::vector<std::shared_ptr<communicator>> out;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    auto c = std::make_shared<communicator>();
    c->comm = comms[i];
    c->rank = static_cast<int>(i);
    c->size = static_cast<int>(gpus.size());
    c->gpu = gpus[i];
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

// A nonblocking communicator's calls return before NCCL has finished them on the host side; this
// waits for that (never for the GPU work) or gives up at the deadline.
bool settle(nccl::comm_t comm, std::chrono::steady_clock::time_point deadline, const char* call) {
  const nccl::api& a = api();
  for (;;) {
    nccl::result_t state = nccl::success;
    check(a.comm_get_async_error(comm, &state), "ncclCommGetAsyncError", comm);
    if (state == nccl::success) return true;
    if (state != nccl::in_progress) fail(call, state, comm, {});
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

std::shared_ptr<communicator> init_rank(const unique_id& id, int size, int rank, int gpu,
                                        std::chrono::milliseconds timeout) {
  const nccl::api& a = api();
  cu::device_guard on(gpu);
  nccl::unique_id_t raw;
  std::copy(id.begin(), id.end(), raw.internal);
  nccl::config_v21400 config;
  config.blocking = 0;
  auto c = std::make_shared<communicator>();
  c->rank = rank;
  c->size = size;
  c->gpu = gpu;
  c->nonblocking = true;
  const std::string who = "rank " + std::to_string(rank) + " of " + std::to_string(size);
  check(a.comm_init_rank_config(&c->comm, size, raw, rank, &config), "ncclCommInitRankConfig", c->comm, who);
  if (!settle(c->comm, std::chrono::steady_clock::now() + timeout, "ncclCommInitRankConfig")) {
    a.comm_abort(c->comm);
    c->comm = nullptr;
    throw device_error("nf::distributed: " + who +
                       ": the other ranks did not finish setting up the NCCL "
                       "communicator within " +
                       std::to_string(timeout.count()) +
                       " ms (a rank that never "
                       "started, or a network NCCL cannot use)");
  }
  return c;
}

int rank_of(const communicator& c) {
  return c.rank;
}
int size_of(const communicator& c) {
  return c.size;
}
int gpu_of(const communicator& c) {
  return c.gpu;
}

void run(const std::vector<call>& calls) {
  const nccl::api& a = api();
  check(a.group_start(), "ncclGroupStart");
  nccl::result_t first_error = nccl::success;
  const call* failed = nullptr;
  for (const call& c : calls) {
    {
      cu::device_guard on(c.comm->gpu);
      cu::throw_if_unusable();  // a GPU with a sticky error reports it, not NCCL's consequence
    }
    const auto stream = reinterpret_cast<nccl::stream_t>(cu::stream_of(c.comm->gpu));
    const nccl::comm_t comm = c.comm->comm;
    const int type = static_cast<int>(c.wire), op = static_cast<int>(c.op);
    nccl::result_t rc = nccl::success;
    switch (c.kind) {
      case kind::all_reduce:
        rc = a.all_reduce(c.send, c.recv, c.count, type, op, comm, stream);
        break;
      case kind::reduce_scatter:
        rc = a.reduce_scatter(c.send, c.recv, c.count, type, op, comm, stream);
        break;
      case kind::all_gather:
        rc = a.all_gather(c.send, c.recv, c.count, type, comm, stream);
        break;
      case kind::broadcast:
        rc = a.broadcast(c.send, c.recv, c.count, type, c.peer, comm, stream);
        break;
      case kind::reduce:
        rc = a.reduce(c.send, c.recv, c.count, type, op, c.peer, comm, stream);
        break;
      case kind::send:
        rc = a.send(c.send, c.count, type, c.peer, comm, stream);
        break;
      case kind::recv:
        rc = a.recv(c.recv, c.count, type, c.peer, comm, stream);
        break;
    }
    if (rc != nccl::success && rc != nccl::in_progress && !failed) {
      first_error = rc;
      failed = &c;
    }
  }
  // The group is always closed, so that a failed call leaves NCCL usable.
  const nccl::result_t end = a.group_end();
  if (failed)
    fail("an NCCL collective", first_error, failed->comm->comm, "rank " + std::to_string(failed->comm->rank));
  if (end != nccl::success && end != nccl::in_progress) fail("ncclGroupEnd", end, nullptr, {});
  for (const call& c : calls)
    if (c.comm->nonblocking)
      settle(c.comm->comm, std::chrono::steady_clock::time_point::max(), "ncclGroupEnd");
}

}  // namespace ndfuse::detail::collectives
