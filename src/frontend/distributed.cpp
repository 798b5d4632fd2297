// nf::distributed: communicators and collectives on arrays. The checks, dtype plans, evaluation
// and output buffers are here; the NCCL calls go through backend/collectives.hpp.
#include "ndfuse/distributed.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "frontend/collective_plan.hpp"
#include "ir/node.hpp"
#include "ndfuse/error.hpp"
#include "runtime/device.hpp"
#include "runtime/realize.hpp"
#include "support/env.hpp"
#include "support/mpi_bootstrap.hpp"
#include "support/rendezvous.hpp"

namespace ndfuse {

namespace coll = detail::collectives;
using distributed::communicator;
using distributed::reduce_op;

struct communicator::state {
  std::shared_ptr<coll::communicator> impl;
  bool checks = true;
};

struct detail::communicator_access {
  static communicator make(std::shared_ptr<coll::communicator> impl) {
    communicator c;
    c.s_ = std::make_shared<communicator::state>();
    c.s_->impl = std::move(impl);
    return c;
  }
  static communicator::state& state(const communicator& c, const char* op) {
    if (!c.s_)
      throw value_error(std::string("nf::distributed::") + op + ": an empty communicator (default-made)");
    return *c.s_;
  }
};

namespace distributed {

namespace {

using access = detail::communicator_access;

std::string prefix(const char* op) {
  return std::string("nf::distributed::") + op + ": ";
}

std::vector<int> gpus_of(const std::vector<device>& devices, const char* op) {
  std::vector<int> gpus;
  for (const device& d : devices) {
    if (!d.is_cuda()) throw device_error(prefix(op) + d.str() + " is not a GPU: NCCL runs between GPUs");
    runtime::check_exists(d);
    if (std::find(gpus.begin(), gpus.end(), d.index()) != gpus.end())
      throw value_error(prefix(op) + d.str() + " is listed twice");
    gpus.push_back(d.index());
  }
  return gpus;
}

void require_nccl(const char* op) {
  const std::string why = unavailable_reason();
  if (!why.empty()) throw device_error(prefix(op) + why);
}

device gpu_device(device d, const char* op) {
  return device::cuda(gpus_of({d}, op)[0]);
}

// ---- inputs and outputs ------------------------------------------------------------------------------

std::string describe(const array& x) {
  return shape_str(x.shape()) + " " + std::string(dtype_name(x.dtype()));
}

// x evaluated in C order (cast through the plan's wider dtype first where it has one).
std::shared_ptr<ir::node> wire_input(const array& x, const frontend::collective_plan& p) {
  const array y = p.through ? x.astype(*p.through) : x;
  return runtime::in_c_order(y.node());
}

void* data_of(const ir::node& n) {
  return static_cast<char*>(n.storage->data) + n.offset * static_cast<std::int64_t>(itemsize(n.dt));
}

// The output back in the caller's dtype (a lazy cast where the plan went through a wider one).
array result_of(std::shared_ptr<ir::node> out, dtype t) {
  array r(std::move(out));
  return r.dtype() == t ? r : r.astype(t);
}

std::size_t wire_count(std::int64_t elements, const frontend::collective_plan& p) {
  return static_cast<std::size_t>(elements) * p.per_element;
}

void check_root(int root, int size, const char* op) {
  if (root < 0 || root >= size)
    throw value_error(prefix(op) + "root " + std::to_string(root) + " is not a rank of 0.." +
                      std::to_string(size - 1));
}

void check_on(const communicator& c, const array& x, const char* op) {
  if (x.device() != c.device())
    throw device_error(prefix(op) + "the array is on " + x.device().str() + ", rank " +
                       std::to_string(c.rank()) + "'s GPU is " + c.device().str() + "; move it with x.to(" +
                       c.device().str() + ")");
}

shape_t scattered_shape(const shape_t& s, int size, const char* op) {
  if (s.empty() || s[0] % size != 0)
    throw shape_error(prefix(op) + "the first axis of " + shape_str(s) + " must split into " +
                      std::to_string(size) + " equal parts, one per rank");
  shape_t out = s;
  out[0] /= size;
  return out;
}

shape_t gathered_shape(const shape_t& s, int size, const char* op) {
  if (s.empty())
    throw shape_error(prefix(op) + "a 0-d array has no first axis to gather along; reshape it to (1,)");
  shape_t out = s;
  out[0] *= size;
  return out;
}

// Whether a collective combines values (and so needs a reduction NCCL can run on the dtype).
bool reduces(coll::kind k) {
  return k == coll::kind::all_reduce || k == coll::kind::reduce_scatter || k == coll::kind::reduce;
}

// The output's shape for an input of shape s, checked; the roots of broadcast and reduce, too.
shape_t output_shape(coll::kind k, const shape_t& s, int size, int root, const char* op) {
  if (k == coll::kind::broadcast || k == coll::kind::reduce) check_root(root, size, op);
  if (k == coll::kind::reduce_scatter) return scattered_shape(s, size, op);
  if (k == coll::kind::all_gather) return gathered_shape(s, size, op);
  return s;
}

// One rank's call, from its input and output buffers (already in the plan's wire dtype).
coll::call call_of(coll::communicator* comm, coll::kind k, const frontend::collective_plan& plan, int root,
                   const ir::node& in, const ir::node& out) {
  coll::call call;
  call.comm = comm;
  call.kind = k;
  call.wire = plan.wire;
  call.op = plan.op;
  call.peer = root;
  // NCCL counts reduce_scatter's output and all_gather's input per rank: the smaller side.
  call.count = wire_count(k == coll::kind::reduce_scatter ? out.size() : in.size(), plan);
  call.send = data_of(in);
  call.recv = data_of(out);
  return call;
}

// ---- the cross-process check: every rank passed the same call ------------------------------------------

constexpr std::size_t descriptor_length = 16;  // kind, dtype, op, root, ndim, up to 11 dims

std::vector<std::int64_t> descriptor(coll::kind kind, const array& x, reduce_op op, int root,
                                     const char* name) {
  std::vector<std::int64_t> d(descriptor_length, -1);
  d[0] = static_cast<std::int64_t>(kind);
  d[1] = static_cast<std::int64_t>(x.dtype());
  d[2] = static_cast<std::int64_t>(op);
  d[3] = root;
  d[4] = x.ndim();
  if (x.ndim() > static_cast<std::int64_t>(descriptor_length) - 5)
    throw shape_error(prefix(name) + "arrays of more than 11 dimensions are not supported; reshape first");
  for (std::int64_t i = 0; i < x.ndim(); ++i) d[5 + i] = x.shape()[static_cast<std::size_t>(i)];
  return d;
}

std::string describe_descriptor(const std::int64_t* d) {
  shape_t s(d + 5, d + 5 + d[4]);
  return shape_str(s) + " " + std::string(dtype_name(static_cast<dtype>(d[1])));
}

void agree(const communicator& c, coll::kind kind, const array& x, reduce_op op, int root, const char* name) {
  if (!access::state(c, name).checks || c.size() == 1) return;
  const auto mine = descriptor(kind, x, op, root, name);
  std::shared_ptr<ir::node> in;
  {
    const device_scope on(c.device());
    in = array::from_host_copy(dtype::int64, {std::int64_t(descriptor_length)}, mine.data()).node();
  }
  auto all = runtime::allocate_on(c.device(), dtype::int64, {std::int64_t(descriptor_length) * c.size()});
  coll::call call;
  call.comm = access::state(c, name).impl.get();
  call.kind = coll::kind::all_gather;
  call.wire = coll::wire::int64;
  call.count = descriptor_length;
  call.send = data_of(*in);
  call.recv = data_of(*all);
  coll::run({call});
  const auto seen = array(all).to_vector<std::int64_t>();  // waits for the gather
  for (int r = 0; r < c.size(); ++r) {
    const std::int64_t* d = seen.data() + static_cast<std::size_t>(r) * descriptor_length;
    if (std::equal(d, d + descriptor_length, mine.data())) continue;
    std::string what = prefix(name) + "the ranks disagree: rank " + std::to_string(c.rank()) + " passed " +
                       describe(x) + ", rank " + std::to_string(r) + " " + describe_descriptor(d);
    if (d[0] != static_cast<std::int64_t>(kind))
      what = prefix(name) + "rank " + std::to_string(r) + " called a different collective";
    if (d[2] != static_cast<std::int64_t>(op)) what += " (and another reduce_op)";
    if (d[3] != root) what += " (and root " + std::to_string(d[3]) + ")";
    if (d[1] != mine[1]) throw dtype_error(what);
    throw shape_error(what);
  }
}

// ---- one rank -----------------------------------------------------------------------------------------

array run_one(const communicator& c, const array& x, reduce_op op, int root, coll::kind kind,
              const char* name, bool agree_first = true) {
  auto& st = access::state(c, name);
  check_on(c, x, name);
  const auto plan = frontend::plan_collective(x.dtype(), reduces(kind), op, name);
  const shape_t out_shape = output_shape(kind, x.shape(), c.size(), root, name);
  if (agree_first) agree(c, kind, x, op, root, name);
  const auto in = wire_input(x, plan);
  auto out = runtime::allocate_on(c.device(), in->dt, out_shape);
  const coll::call call = call_of(st.impl.get(), kind, plan, root, *in, *out);
  if (call.count > 0) coll::run({call});
  if (kind == coll::kind::reduce && c.rank() != root) return x;
  return result_of(std::move(out), x.dtype());
}

}  // namespace

// ---- availability and set-up ----------------------------------------------------------------------------

int nccl_version() {
  return coll::nccl_version();
}

std::string unavailable_reason() {
  std::string why;
  if (coll::nccl_version(&why) == 0) return why.empty() ? "NCCL cannot be loaded" : why;
  if (cuda::device_count() == 0) return "no GPU is usable here (NCCL runs between GPUs)";
  return {};
}

bool is_available() {
  return unavailable_reason().empty();
}

unique_id make_unique_id() {
  require_nccl("make_unique_id");
  return coll::make_unique_id();
}

int communicator::rank() const {
  return coll::rank_of(*access::state(*this, "communicator.rank").impl);
}
int communicator::size() const {
  return coll::size_of(*access::state(*this, "communicator.size").impl);
}
device communicator::device() const {
  return device::cuda(coll::gpu_of(*access::state(*this, "communicator.device").impl));
}
bool communicator::checks() const {
  return access::state(*this, "communicator.checks").checks;
}
void communicator::set_checks(bool on) {
  access::state(*this, "communicator.set_checks").checks = on;
}

namespace {

// What is left of `timeout` since `start` for NCCL's own set-up, at least a second: the rendezvous
// took the rest.
std::chrono::milliseconds time_left(std::chrono::steady_clock::time_point start,
                                    std::chrono::milliseconds timeout) {
  const auto spent =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  return std::max(timeout - spent, std::chrono::milliseconds(1000));
}

}  // namespace

std::vector<communicator> init_all(const std::vector<device>& devices) {
  constexpr const char* op = "init_all";
  if (devices.empty()) throw value_error(prefix(op) + "no devices given");
  const auto gpus = gpus_of(devices, op);
  require_nccl(op);
  std::vector<communicator> out;
  for (auto& impl : coll::init_all(gpus)) out.push_back(access::make(std::move(impl)));
  return out;
}

std::vector<communicator> init_all() {
  require_nccl("init_all");
  std::vector<device> all;
  for (int i = 0; i < cuda::device_count(); ++i) all.push_back(device::cuda(i));
  return init_all(all);
}

communicator init_rank(const unique_id& id, int size, int rank, device d, std::chrono::milliseconds timeout) {
  constexpr const char* op = "init_rank";
  if (size < 1 || rank < 0 || rank >= size)
    throw value_error(prefix(op) + "rank " + std::to_string(rank) + " of world size " + std::to_string(size));
  const device g = gpu_device(d, op);
  require_nccl(op);
  return access::make(coll::init_rank(id, size, rank, g.index(), timeout));
}

communicator init_from_file(const std::string& path, int size, int rank, device d,
                            std::chrono::milliseconds timeout) {
  const device g = gpu_device(d, "init_from_file");
  require_nccl("init_from_file");
  const auto start = std::chrono::steady_clock::now();
  const unique_id id =
      support::rendezvous_file(path, size, rank, timeout, [] { return coll::make_unique_id(); });
  return init_rank(id, size, rank, g, time_left(start, timeout));
}

communicator init_from_tcp(const std::string& host, int port, int size, int rank, device d,
                           std::chrono::milliseconds timeout) {
  const device g = gpu_device(d, "init_from_tcp");
  require_nccl("init_from_tcp");
  const auto start = std::chrono::steady_clock::now();
  const unique_id id =
      support::rendezvous_tcp(host, port, size, rank, timeout, [] { return coll::make_unique_id(); });
  return init_rank(id, size, rank, g, time_left(start, timeout));
}

namespace {

int parsed_int(const std::string& name, const std::string& v, const char* op) {
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < 0 || n > (1L << 30))
    throw value_error(prefix(op) + name + "='" + v + "' is not a non-negative integer");
  return static_cast<int>(n);
}

int env_int(const char* name, const char* op) {
  const char* v = std::getenv(name);
  if (!v || !*v)
    throw value_error(prefix(op) + name + " is not set (start the program with torchrun, or set it)");
  return parsed_int(name, v, op);
}

}  // namespace

communicator init_from_env(std::chrono::milliseconds timeout) {
  constexpr const char* op = "init_from_env";
  const int rank = env_int("RANK", op), size = env_int("WORLD_SIZE", op), local = env_int("LOCAL_RANK", op);
  const char* addr = std::getenv("MASTER_ADDR");
  if (!addr || !*addr)
    throw value_error(prefix(op) + "MASTER_ADDR is not set (start the program with torchrun, or set it)");
  int port = env_int("MASTER_PORT", op);
  // torchrun's agent may hold MASTER_PORT with its own store; ndfuse's rank 0 then takes the next.
  if (const char* agent = std::getenv("TORCHELASTIC_USE_AGENT_STORE"); agent && std::string(agent) == "True")
    ++port;
  // (init_from_tcp checks the port's range.)
  if (const auto& own = support::env::raw(support::env::var::master_port); own && !own->empty())
    port = parsed_int("NDFUSE_MASTER_PORT", *own, op);
  return init_from_tcp(addr, port, size, rank, device::cuda(local), timeout);
}

communicator init_from_mpi(std::optional<device> d, std::chrono::milliseconds timeout) {
  constexpr const char* op = "init_from_mpi";
  if (d) gpu_device(*d, op);
  require_nccl(op);
  const auto start = std::chrono::steady_clock::now();
  const auto r = support::rendezvous_mpi([] { return coll::make_unique_id(); });
  const device g = d ? *d : device::cuda(r.local_rank % cuda::device_count());
  return init_rank(r.token, r.size, r.rank, g, time_left(start, timeout));
}

// ---- collectives of one rank ------------------------------------------------------------------------------

array all_reduce(const communicator& c, const array& x, reduce_op op) {
  return run_one(c, x, op, 0, coll::kind::all_reduce, "all_reduce");
}
array reduce_scatter(const communicator& c, const array& x, reduce_op op) {
  return run_one(c, x, op, 0, coll::kind::reduce_scatter, "reduce_scatter");
}
array all_gather(const communicator& c, const array& x) {
  return run_one(c, x, reduce_op::sum, 0, coll::kind::all_gather, "all_gather");
}
array broadcast(const communicator& c, const array& x, int root) {
  return run_one(c, x, reduce_op::sum, root, coll::kind::broadcast, "broadcast");
}
array reduce(const communicator& c, const array& x, int root, reduce_op op) {
  return run_one(c, x, op, root, coll::kind::reduce, "reduce");
}

namespace {

void check_peer(const communicator& c, int peer, const char* op) {
  if (peer < 0 || peer >= c.size() || peer == c.rank())
    throw value_error(prefix(op) + "peer " + std::to_string(peer) + " is not another rank of 0.." +
                      std::to_string(c.size() - 1) + " (this is rank " + std::to_string(c.rank()) + ")");
}

coll::call p2p(const communicator& c, coll::kind k, int peer, std::size_t count, const void* send,
               void* recv) {
  coll::call call;
  call.comm = access::state(c, "send").impl.get();
  call.kind = k;
  call.wire = coll::wire::uint8;
  call.count = count;
  call.peer = peer;
  call.send = send;
  call.recv = recv;
  return call;
}

}  // namespace

void send(const communicator& c, const array& x, int peer) {
  check_on(c, x, "send");
  check_peer(c, peer, "send");
  const auto in = runtime::in_c_order(x.node());
  if (x.size() > 0) coll::run({p2p(c, coll::kind::send, peer, x.nbytes(), data_of(*in), nullptr)});
}

array recv(const communicator& c, const shape_t& shape, dtype t, int peer) {
  check_peer(c, peer, "recv");
  auto out = runtime::allocate_on(c.device(), t, shape);
  if (out->size() > 0)
    coll::run({p2p(c, coll::kind::recv, peer, out->storage->nbytes, nullptr, data_of(*out))});
  return array(std::move(out));
}

array send_recv(const communicator& c, const array& x, int to, int from) {
  check_on(c, x, "send_recv");
  check_peer(c, to, "send_recv");
  check_peer(c, from, "send_recv");
  const auto in = runtime::in_c_order(x.node());
  auto out = runtime::allocate_on(c.device(), x.dtype(), x.shape());
  if (x.size() > 0)
    coll::run({p2p(c, coll::kind::send, to, x.nbytes(), data_of(*in), nullptr),
               p2p(c, coll::kind::recv, from, x.nbytes(), nullptr, data_of(*out))});
  return array(std::move(out));
}

void barrier(const communicator& c) {
  array one;
  {
    const device_scope on(c.device());
    one = array::from_host_copy(dtype::int32, {1}, std::vector<std::int32_t>{1}.data());
  }
  // The barrier's own all_reduce needs no agreement first: every rank passes the same.
  const array r = run_one(c, one, reduce_op::sum, 0, coll::kind::all_reduce, "barrier", false);
  (void)r.item<std::int32_t>();  // waits for the all_reduce, and so for everything queued before it
}

// ---- every rank of this process
// ----------------------------------------------------------------------------

namespace {

// The communicators must be exactly the ranks of one group, each once; parts[i] on comms[i]'s GPU,
// all of one shape and dtype (the one-process form checks on the host, at no cost).
void check_group(const std::vector<communicator>& comms, const std::vector<array>& parts, const char* op) {
  if (comms.empty()) throw value_error(prefix(op) + "no communicators given");
  if (parts.size() != comms.size())
    throw value_error(prefix(op) + std::to_string(parts.size()) + " arrays for " +
                      std::to_string(comms.size()) + " ranks: give one array per rank");
  const int size = comms[0].size();
  std::vector<bool> seen(static_cast<std::size_t>(size), false);
  for (const auto& c : comms) {
    if (c.size() != size) throw value_error(prefix(op) + "the communicators are of different groups");
    if (seen[static_cast<std::size_t>(c.rank())])
      throw value_error(prefix(op) + "rank " + std::to_string(c.rank()) + " is given twice");
    seen[static_cast<std::size_t>(c.rank())] = true;
  }
  if (static_cast<int>(comms.size()) != size)
    throw value_error(prefix(op) + "every rank of the group must take part: " + std::to_string(comms.size()) +
                      " of " + std::to_string(size) + " given (the others would wait forever)");
  for (std::size_t i = 0; i < comms.size(); ++i) {
    check_on(comms[i], parts[i], op);
    if (parts[i].dtype() != parts[0].dtype())
      throw dtype_error(prefix(op) + "rank " + std::to_string(comms[i].rank()) + "'s array is " +
                        describe(parts[i]) + ", rank " + std::to_string(comms[0].rank()) + "'s " +
                        describe(parts[0]));
    if (parts[i].shape() != parts[0].shape())
      throw shape_error(prefix(op) + "rank " + std::to_string(comms[i].rank()) + "'s array is " +
                        describe(parts[i]) + ", rank " + std::to_string(comms[0].rank()) + "'s " +
                        describe(parts[0]));
  }
}

std::vector<array> run_group(const std::vector<communicator>& comms, const std::vector<array>& parts,
                             reduce_op op, int root, coll::kind kind, const char* name) {
  check_group(comms, parts, name);
  const array& x0 = parts[0];
  const auto plan = frontend::plan_collective(x0.dtype(), reduces(kind), op, name);
  const shape_t out_shape = output_shape(kind, x0.shape(), comms[0].size(), root, name);
  std::vector<std::shared_ptr<ir::node>> ins, outs;
  std::vector<coll::call> calls;
  for (std::size_t i = 0; i < comms.size(); ++i) {
    ins.push_back(wire_input(parts[i], plan));
    outs.push_back(runtime::allocate_on(comms[i].device(), ins.back()->dt, out_shape));
    calls.push_back(
        call_of(access::state(comms[i], name).impl.get(), kind, plan, root, *ins.back(), *outs.back()));
  }
  if (calls[0].count > 0) coll::run(calls);
  std::vector<array> result;
  for (std::size_t i = 0; i < comms.size(); ++i) {
    if (kind == coll::kind::reduce && comms[i].rank() != root)
      result.push_back(parts[i]);
    else
      result.push_back(result_of(std::move(outs[i]), x0.dtype()));
  }
  return result;
}

}  // namespace

std::vector<array> all_reduce(const std::vector<communicator>& comms, const std::vector<array>& parts,
                              reduce_op op) {
  return run_group(comms, parts, op, 0, coll::kind::all_reduce, "all_reduce");
}
std::vector<array> reduce_scatter(const std::vector<communicator>& comms, const std::vector<array>& parts,
                                  reduce_op op) {
  return run_group(comms, parts, op, 0, coll::kind::reduce_scatter, "reduce_scatter");
}
std::vector<array> all_gather(const std::vector<communicator>& comms, const std::vector<array>& parts) {
  return run_group(comms, parts, reduce_op::sum, 0, coll::kind::all_gather, "all_gather");
}
std::vector<array> broadcast(const std::vector<communicator>& comms, const std::vector<array>& parts,
                             int root) {
  return run_group(comms, parts, reduce_op::sum, root, coll::kind::broadcast, "broadcast");
}
std::vector<array> reduce(const std::vector<communicator>& comms, const std::vector<array>& parts, int root,
                          reduce_op op) {
  return run_group(comms, parts, op, root, coll::kind::reduce, "reduce");
}

void barrier(const std::vector<communicator>& comms) {
  std::vector<array> ones;
  for (const auto& c : comms) {
    const device_scope on(c.device());
    ones.push_back(array::from_host_copy(dtype::int32, {1}, std::vector<std::int32_t>{1}.data()));
  }
  for (const array& r : all_reduce(comms, ones)) (void)r.item<std::int32_t>();
}

}  // namespace distributed
}  // namespace ndfuse
