#include "runtime/device.hpp"

#include <atomic>
#include <charconv>
#include <ostream>
#include <string>

#include "ndfuse/error.hpp"
#include "runtime/device_guard.hpp"

namespace ndfuse {

namespace runtime {

namespace {

// The GPUs plans have run on (bit i: GPU i), for nf::synchronize().
std::atomic<std::uint64_t> used_gpus{0};

}  // namespace

device resolve(ir::placement p) {
  switch (p.kind) {
    case ir::placement::cpu:
      return device::cpu();
    case ir::placement::cuda:
      return device::cuda(p.index);
    default:
      return backend::default_device();
  }
}

void check_exists(device d) {
  backend::of(d);
}

void settle_device(ir::node& n) {
  const ir::node* first = nullptr;
  for (const auto& in : n.inputs) {
    n.reaches_move = n.reaches_move || in->reaches_move;
    if (in->place.kind == ir::placement::anywhere) continue;
    if (!first) {
      first = in.get();
    } else if (in->place != first->place) {
      const device a = device_of(*first), b = device_of(*in);
      if (a != b)
        throw device_error(std::string(ir::op_name(n.op)) + ": operands on two devices, " + a.str() +
                           " and " + b.str() + "; move one first (x.to(nf::device(\"" + a.str() +
                           "\")), or nf::asnumpy(x) for the CPU)");
    }
  }
  if (first) n.place = first->place;
}

device_guard::device_guard(device d) : backend_(backend::of(d)), previous_(backend_.activate(d.index())) {
  // A load first: every evaluation passes here, and a read-modify-write would make threads on
  // different GPUs contend for the line.
  const std::uint64_t bit = d.is_cuda() && d.index() < 64 ? std::uint64_t(1) << d.index() : 0;
  if (bit && !(used_gpus.load(std::memory_order_relaxed) & bit))
    used_gpus.fetch_or(bit, std::memory_order_relaxed);
}

device_guard::~device_guard() {
  try {
    backend_.activate(previous_);
  } catch (...) {
    // The previous GPU was active a moment ago; nothing sensible to do in a destructor.
  }
}

}  // namespace runtime

device::device(std::string_view spec) {
  if (spec == "cpu") return;
  if (spec.substr(0, 4) == "cuda") {
    int index = 0;
    const std::string_view rest = spec.substr(4);
    if (rest.empty() || (rest[0] == ':' && rest.size() > 1 &&
                         std::from_chars(rest.data() + 1, rest.data() + rest.size(), index).ptr ==
                             rest.data() + rest.size() &&
                         index >= 0 && index < 1 << 15)) {
      *this = cuda(index);
      return;
    }
  }
  throw value_error("nf::device: '" + std::string(spec) + "' is not a device (cpu, cuda or cuda:N)");
}

std::string device::str() const {
  return is_cpu() ? "cpu" : "cuda:" + std::to_string(index_);
}

std::ostream& operator<<(std::ostream& os, device d) {
  return os << d.str();
}

device current_device() {
  return runtime::resolve(ir::thread_placement());
}

device default_device() {
  return backend::default_device();
}

device_scope::device_scope(device d) {
  backend::of(d);  // a GPU that is not there throws here
  previous_ = ir::set_thread_placement(ir::placement::of(d)).bits();
}

device_scope::~device_scope() {
  ir::set_thread_placement(ir::placement::from_bits(previous_));
}

void synchronize() {
  backend::of(device::cpu()).synchronize();
  const std::uint64_t gpus = runtime::used_gpus.load(std::memory_order_relaxed);
  for (int i = 0; i < 64; ++i)
    if (gpus >> i & 1) {
      cuda::device g(i);
      cuda::synchronize();
    }
}

}  // namespace ndfuse
