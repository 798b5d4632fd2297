#include "ir/node.hpp"

#include <cstring>

#include "support/stats.hpp"

namespace ndfuse::ir {

buffer::buffer(memory_owner* o, std::size_t n) : owner(o), nbytes(n) {
  data = owner->allocate(n == 0 ? 1 : n);
  support::note_allocation(nbytes);
}

buffer::buffer(memory_owner* o, void* lent, std::size_t n) : owner(o), data(lent), nbytes(n), adopted(true) {}

buffer::~buffer() {
  owner->deallocate(data, nbytes == 0 ? 1 : nbytes);
  if (!adopted) support::note_release(nbytes);
}

namespace {

// Freed node blocks (a node and its shared_ptr control block, one allocation), kept per thread.
// A block freed on another thread than the one that made it simply joins that thread's list: the
// blocks are plain operator new memory. The list is trivially destructible so that a node freed
// while the thread exits (after `drain` ran) still finds it, closed.
struct free_list {
  void* head = nullptr;
  std::size_t block = 0;  // the one size a list holds (all node blocks have it)
  int count = 0;
  bool closed = false;
};
constexpr int keep = 64;  // enough for a step's nodes; more go back to operator delete
thread_local free_list blocks;

// Freed shape and stride vectors, kept with their heap blocks per thread for the same reason: a
// node's shape is a std::vector (the public shape_t), so each new node would otherwise allocate
// one, and each evaluated one its strides. `slots` is made on first use and, like `blocks`, the
// struct is trivially destructible so that a node freed after the drain finds it closed.
struct vector_pool {
  std::vector<std::int64_t>* slots = nullptr;  // `keep` of them
  int count = 0;
  bool closed = false;
};
constexpr std::size_t pooled_capacity = 8;  // larger vectors are rare; they go back to the heap
thread_local vector_pool vectors;

struct drain_at_exit {
  ~drain_at_exit() {
    while (blocks.head) {
      void* p = blocks.head;
      blocks.head = *static_cast<void**>(p);
      ::operator delete(p);
    }
    blocks.count = 0;
    blocks.closed = true;
    delete[] vectors.slots;
    vectors.slots = nullptr;
    vectors.count = 0;
    vectors.closed = true;
  }
};
thread_local drain_at_exit drain;

// Under AddressSanitizer every block goes back to the allocator, which then finds use after free.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool pooled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool pooled = false;
#else
constexpr bool pooled = true;
#endif
#else
constexpr bool pooled = true;
#endif

void* take_block(std::size_t size) {
  free_list& l = blocks;
  if (pooled && l.head && l.block == size) {
    void* p = l.head;
    l.head = *static_cast<void**>(p);
    --l.count;
    return p;
  }
  return ::operator new(size);
}

void give_block(void* p, std::size_t size) {
  free_list& l = blocks;
  if (pooled && !l.closed && l.count < keep && (l.block == size || l.block == 0)) {
    if (l.block == 0) {  // the thread's first block: register its drain, once
      (void)&drain;
      l.block = size;
    }
    *static_cast<void**>(p) = l.head;
    l.head = p;
    ++l.count;
    return;
  }
  ::operator delete(p);
}

// An empty vector, with room for a few dimensions when the pool has one.
std::vector<std::int64_t> take_vector() {
  vector_pool& v = vectors;
  if (!pooled || v.count == 0) return {};
  return std::move(v.slots[--v.count]);
}

void give_vector(std::vector<std::int64_t>& x) {
  vector_pool& v = vectors;
  if (!pooled || v.closed || v.count == keep || x.capacity() == 0 || x.capacity() > pooled_capacity) return;
  if (!v.slots) {
    (void)&drain;
    v.slots = new std::vector<std::int64_t>[keep];
  }
  x.clear();
  v.slots[v.count++] = std::move(x);
}

template <class T>
struct block_allocator {
  using value_type = T;
  block_allocator() = default;
  template <class U>
  block_allocator(const block_allocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(take_block(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) { give_block(p, n * sizeof(T)); }
  friend bool operator==(const block_allocator&, const block_allocator&) { return true; }
};

}  // namespace

std::shared_ptr<node> new_node() {
  auto n = std::allocate_shared<node>(block_allocator<node>());
  n->shape = take_vector();
  n->place = thread_placement();
  return n;
}

node::~node() {
  give_vector(shape);
  give_vector(strides);
}

rare_params& node::params() {
  if (!rare) rare = std::make_unique<rare_params>();
  return *rare;
}

const rare_params& node::params() const {
  static const rare_params none;
  return rare ? *rare : none;
}

std::int64_t shape_size(const shape_t& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

void set_contiguous_strides(std::vector<std::int64_t>& strides, const shape_t& s) {
  if (strides.capacity() < s.size()) strides = take_vector();
  strides.resize(s.size());
  std::int64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    strides[i] = acc;
    acc *= s[i];
  }
}

std::vector<std::int64_t> contiguous_strides(const shape_t& s) {
  std::vector<std::int64_t> st(s.size());
  std::int64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i];
  }
  return st;
}

bool has_contiguous_strides(const shape_t& s, const std::vector<std::int64_t>& strides) {
  if (strides.size() != s.size()) return false;
  std::int64_t acc = 1;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (strides[i] != acc) return false;
    acc *= s[i];
  }
  return true;
}

int random_per_block(random_form f) {
  return f == random_form::bits32 || f == random_form::unit_float || f == random_form::normal_float ? 4 : 2;
}

std::int64_t node::size() const {
  return shape_size(shape);
}

const char* op_name(op_code op) {
  switch (op) {
    case op_code::buffer:
      return "buffer";
    case op_code::scalar:
      return "scalar";
    case op_code::iota:
      return "iota";
    case op_code::random:
      return "random";
    case op_code::cast:
      return "cast";
    case op_code::where:
      return "where";
    case op_code::reduce:
      return "reduce";
    case op_code::scan:
      return "scan";
    case op_code::view:
      return "view";
    case op_code::guard:
      return "guard";
    case op_code::gather:
      return "gather";
    case op_code::library:
      return "library";
    case op_code::move:
      return "move";
    case op_code::user:
      return "user";
    case op_code::reduced:
      return "reduced";
#define NDFUSE_OP_NAME(name, arity) \
  case op_code::name:               \
    return #name;
      NDFUSE_ALL_OPS(NDFUSE_OP_NAME)
#undef NDFUSE_OP_NAME
    case op_code::count:
      break;
  }
  return "?";
}

const char* library_op_name(library_op op) {
  switch (op) {
    case library_op::sort:
      return "sort";
    case library_op::flatnonzero:
      return "flatnonzero";
    case library_op::searchsorted:
      return "searchsorted";
    case library_op::scatter:
      return "scatter";
    case library_op::bincount:
      return "bincount";
    case library_op::gemm:
      return "gemm";
    case library_op::solve:
      return "solve";
    case library_op::inv:
      return "inv";
    case library_op::lu:
      return "lu";
    case library_op::cholesky:
      return "cholesky";
    case library_op::qr:
      return "qr";
    case library_op::eigh:
      return "eigh";
    case library_op::svd:
      return "svd";
    case library_op::eig:
      return "eig";
    case library_op::fft:
      return "fft";
  }
  return "?";
}

std::optional<std::complex<double>> float_scalar_value(const node& n) {
  if (n.op != op_code::scalar) return std::nullopt;
  switch (n.dt) {
    case dtype::float32:
    case dtype::complex64: {
      float f[2];
      std::memcpy(f, n.value.bytes, sizeof f);
      return std::complex<double>(f[0], n.dt == dtype::complex64 ? f[1] : 0.0f);
    }
    case dtype::float64:
    case dtype::complex128: {
      double d[2];
      std::memcpy(d, n.value.bytes, sizeof d);
      return std::complex<double>(d[0], n.dt == dtype::complex128 ? d[1] : 0.0);
    }
    default:
      return std::nullopt;
  }
}

std::recursive_mutex& graph_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

}  // namespace ndfuse::ir
