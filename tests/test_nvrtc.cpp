// Compile-only tests of the CUDA code generator (jit/): kernel IR is rendered to CUDA source and
// compiled by NVRTC for sm_90, with no GPU and no driver. Covers every op x dtype loop, every cast
// pair, where, iota, every index class over ndim 1..4, 32- and 64-bit indexing and multi-output
// kernels, plus the kernel ABI, nf::jit::source on the seed chain and compile_error reporting.
// Kernels are batched into a few NVRTC programs, compiled on all cores, to keep the test fast.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include "ir/kernel_ir.hpp"
#include "ir/node.hpp"
#include "ir/op_info.hpp"
#include "jit/kernel_abi.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "jit/render.hpp"
#include "ndfuse/jit.hpp"
#include "ndfuse/reduce.hpp"
#include "schedule/plan.hpp"
#endif

#if !defined(NDFUSE_WITH_CUDA)

TEST_CASE("NVRTC compile-only tests", "[nvrtc]") {
  NDFUSE_SKIP("ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF)");
}

#else

namespace {

namespace jit = ndfuse::jit;
namespace ir = ndfuse::ir;
using ir::index_class;
using ir::op_code;
using nf::dtype;

constexpr int test_sm = 90;
constexpr index_class flat = index_class::index_class_flat;
constexpr index_class broadcast = index_class::index_class_broadcast;
constexpr index_class strided = index_class::index_class_strided;
constexpr index_class transposed = index_class::index_class_transposed;

std::vector<dtype> all_dtypes() {
  std::vector<dtype> out;
  for (int i = 0; i < nf::dtype_count; ++i) out.push_back(static_cast<dtype>(i));
  return out;
}

// Builds kernel IR by hand, as the fuser would.
struct ir_builder {
  ir::kernel_ir k;
  explicit ir_builder(int ndim = 1, bool index_64 = false) {
    k.ndim = ndim;
    k.index_64 = index_64;
  }
  int push(ir::instr i) {
    k.code.push_back(std::move(i));
    return static_cast<int>(k.code.size()) - 1;
  }
  static ir::instr make(op_code op, dtype dt, const std::string&) {
    ir::instr i;
    i.op = op;
    i.dt = i.operand_dt = dt;
    return i;
  }
  int input(dtype t, index_class c = flat) {
    auto i = make(op_code::op_code_buffer, t, "buffer");
    i.slot = static_cast<int>(k.inputs.size());
    k.inputs.push_back({t, c});
    return push(i);
  }
  // An input read only where `guard` holds (concatenate, pad): the element code gets its address.
  int guarded_input(dtype t, int guard) {
    auto i = make(op_code::op_code_buffer, t, "buffer");
    i.slot = static_cast<int>(k.inputs.size());
    i.args[0] = guard;
    k.inputs.push_back({t, strided, true});
    return push(i);
  }
  int scalar(dtype t) {
    auto i = make(op_code::op_code_scalar, t, "scalar");
    i.slot = static_cast<int>(k.scalars.size());
    k.scalars.push_back(t);
    return push(i);
  }
  int iota(dtype t, index_class c = flat) {
    auto i = make(op_code::op_code_iota, t, "iota");
    i.slot = static_cast<int>(k.iotas.size());
    k.iotas.push_back(c);
    return push(i);
  }
  int op(op_code code, dtype out, dtype operand, std::initializer_list<int> args) {
    auto i = make(code, out, ir::op_name(code));
    i.operand_dt = operand;
    int a = 0;
    for (int v : args) i.args[a++] = v;
    return push(i);
  }
  int cast(int v, dtype to) { return op(op_code::op_code_cast, to, k.code.at(v).dt, {v}); }
  int where(int c, int a, int b) {
    return op(op_code::op_code_where, k.code.at(a).dt, k.code.at(a).dt, {c, a, b});
  }
  void output(int v) { k.outputs.push_back({v, k.code.at(v).dt}); }
};

struct program {
  std::string name;
  std::vector<std::pair<std::string, ir::kernel_ir>> kernels;
};

// Compiles every program (in parallel: NVRTC is thread-safe) and reports each failure with the
// compile_error's message, which names the dumped source.
void compile_programs(const std::vector<program>& programs) {
  std::vector<std::string> sources;
  for (const auto& p : programs) {
    std::vector<jit::named_kernel> named;
    for (const auto& [name, k] : p.kernels) named.push_back({&k, name});
    sources.push_back(jit::render_program(named));
  }
  std::vector<std::string> errors(programs.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < programs.size();) {
      try {
        auto bin = jit::compile_to_cubin(sources[i], programs[i].name, test_sm);
        if (bin.cubin.empty()) errors[i] = "empty CUBIN";
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
  };
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  for (std::size_t i = 0; i < programs.size(); ++i) {
    INFO("program " << programs[i].name << " (" << programs[i].kernels.size() << " kernels)");
    CHECK(errors[i] == "");
  }
}

std::string kname(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return "k_" + s;
}

}  // namespace

TEST_CASE("every op compiles for every dtype loop it has", "[nvrtc]") {
  std::vector<program> programs;
  // Several ops share a program: NVRTC's fixed cost per program dominates small kernels.
  constexpr int ops_per_program = 6;
  // The registry ops: from the first (add) to the end; the structural codes come before.
  const int first_op = static_cast<int>(op_code::op_code_add);
  for (int c = first_op; c < static_cast<int>(op_code::op_code_count); ++c) {
    const auto op = static_cast<op_code>(c);
    const auto& info = ir::info(op);
    if ((c - first_op) % ops_per_program == 0)
      programs.push_back({"k_ops_from_" + std::string(info.name), {}});
    REQUIRE(!info.loops.empty());
    for (const auto& loop : info.loops) {
      ir_builder b;
      std::vector<int> args;
      for (int a = 0; a < info.arity; ++a) args.push_back(b.input(loop.in));
      const int v = info.arity == 1 ? b.op(op, loop.out, loop.in, {args[0]})
                                    : b.op(op, loop.out, loop.in, {args[0], args[1]});
      b.output(v);
      programs.back().kernels.emplace_back(
          kname(std::string(info.name) + "_" + std::string(nf::dtype_name(loop.in))), std::move(b.k));
    }
  }
  compile_programs(programs);
}

// Reduction and scan kernels as the fuser plans them (prologue, fold, epilogue), rendered and
// compiled: every fold over every dtype it supports, in each strategy (full, inner, outer, scan),
// arg reductions with their nan forms, and a fused prologue/epilogue with strided inputs.
// The kernel of a reduction as the fuser plans it (the sizes passed to reduce_dims are separate).
ir::kernel_ir reduction_kernel(const nf::array& result) {
  const auto plan = ndfuse::schedule::make_plan({result.node()});
  REQUIRE(plan.steps.size() == 1);
  REQUIRE(plan.steps[0].kernel.reduction);
  return plan.steps[0].kernel;
}

TEST_CASE("reduction launch shape: lanes, split and grid", "[nvrtc]") {
  const nf::array x = nf::asarray(std::vector<float>(32, 1.5f), {8, 4});
  const int sms = 132;  // an H100
  const std::int64_t device_blocks = std::int64_t(sms) * jit::blocks_per_sm;

  // Rows of four floats in 16-byte units (one unit per row): one thread per output, one block per
  // 256 outputs over the whole grid, no split.
  const ir::kernel_ir rows = reduction_kernel(nf::sum(x, 1));
  REQUIRE(rows.reduction->strategy == ir::reduce_strategy::reduce_strategy_inner);
  auto c = jit::reduce_dims(rows, std::int64_t(1) << 26, 1, sms);
  CHECK(c.block_x == 1);
  CHECK(c.block_y == 256);
  CHECK(c.grid_x == (1u << 26) / 256);
  CHECK(c.grid_y == 1);
  CHECK(c.partial_bytes == 0);
  CHECK(c.arrival_count == 0);
  // Long rows: a block per row; the grid is capped only by CUDA's limit on gridDim.x.
  c = jit::reduce_dims(rows, 16384, 4096, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == 16384);
  CHECK(c.grid_y == 1);
  c = jit::reduce_dims(rows, std::int64_t(1) << 40, 1, sms);
  CHECK(c.grid_x == unsigned(jit::max_grid));

  // A full reduction splits over one device of resident blocks; the last block folds their
  // partials (one accumulator each), with one arrival counter.
  const ir::kernel_ir full = reduction_kernel(nf::sum(x.astype(nf::float64)));
  REQUIRE(full.reduction->strategy == ir::reduce_strategy::reduce_strategy_full);
  c = jit::reduce_dims(full, 1, 125'000'000, sms);
  CHECK(c.block_x == 256);
  CHECK(c.grid_x == 1);
  CHECK(c.grid_y == unsigned(device_blocks));
  CHECK(c.partial_bytes == std::size_t(device_blocks) * sizeof(double));
  CHECK(c.arrival_count == 1);
  // ... but never so finely that a thread gets fewer than four elements.
  c = jit::reduce_dims(full, 1, 256 * 4 * 10, sms);
  CHECK(c.grid_y == 10);

  // Columns: a warp takes 32 neighbouring outputs, 8 lanes split the rows; 512 blocks do not fill
  // the device, so each column's rows are split over 3 blocks.
  const ir::kernel_ir columns = reduction_kernel(nf::sum(x, 0));
  REQUIRE(columns.reduction->strategy == ir::reduce_strategy::reduce_strategy_outer);
  c = jit::reduce_dims(columns, 16384, 16384, sms);
  CHECK(c.block_x == 32);
  CHECK(c.block_y == 8);
  CHECK(c.grid_x == 512);
  CHECK(c.grid_y == unsigned((device_blocks + 511) / 512));
  CHECK(c.arrival_count == 512);
  // Short columns: one thread per output, 256 outputs per block, the whole grid.
  c = jit::reduce_dims(columns, std::int64_t(1) << 26, 4, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == (1u << 26) / 256);
  CHECK(c.grid_y == 1);
}

TEST_CASE("reduction and scan kernels compile for every fold, dtype and strategy", "[nvrtc]") {
  std::vector<program> programs;
  auto add_plan = [&](const std::string& group, const nf::array& result) {
    if (programs.empty() || programs.back().kernels.size() >= 24)
      programs.push_back({"k_reduce_" + group, {}});
    const auto plan = ndfuse::schedule::make_plan({result.node()});
    for (const auto& step : plan.steps)
      programs.back().kernels.emplace_back(step.name + "_" + std::to_string(programs.back().kernels.size()),
                                           step.kernel);
  };
  nf::array base = nf::asarray(std::vector<double>(24, 1.5), {2, 3, 4});
  base.eval();
  for (dtype t : all_dtypes()) {
    nf::array x = base.astype(t);
    x.eval();
    const std::string tn(nf::dtype_name(t));
    add_plan(tn, nf::sum(x));                // full
    add_plan(tn, nf::prod(x, -1));           // inner
    add_plan(tn, nf::max(x, 0));             // outer
    add_plan(tn, nf::min(x, {0, 2}, true));  // strided kept and reduced dims
    add_plan(tn, nf::any(x, 1));
    add_plan(tn, nf::all(x));
    add_plan(tn, nf::argmax(x, 1));
    add_plan(tn, nf::argmin(x));
    add_plan(tn, nf::cumsum(x, 1));
    add_plan(tn, nf::cumprod(x));
    if (nf::is_inexact(t)) {
      add_plan(tn, nf::nanmax(x, -1));
      add_plan(tn, nf::nanargmin(x, 0));
      add_plan(tn, nf::nanargmax(x));
      add_plan(tn, nf::mean(x * 2.0, 1));  // fused prologue and epilogue
      add_plan(tn, nf::linalg::norm(x, 2, 2));
    }
  }
  REQUIRE(programs.size() > 5);
  compile_programs(programs);
}

TEST_CASE("every cast pair, where and iota compile for every dtype", "[nvrtc]") {
  program casts{"k_casts", {}}, others{"k_where_iota", {}};
  for (dtype from : all_dtypes()) {
    // One kernel per source dtype casting to every dtype: also a 14-output kernel.
    ir_builder multi;
    const int x = multi.input(from);
    for (dtype to : all_dtypes()) multi.output(multi.cast(x, to));
    casts.kernels.emplace_back(kname("cast_from_" + std::string(nf::dtype_name(from))), std::move(multi.k));
    // And each pair alone, so the vector path sees every pair of widths.
    for (dtype to : all_dtypes()) {
      ir_builder b;
      b.output(b.cast(b.input(from), to));
      casts.kernels.emplace_back(
          kname("cast_" + std::string(nf::dtype_name(from)) + "_" + std::string(nf::dtype_name(to))),
          std::move(b.k));
    }
    ir_builder w;
    const int cond = w.input(dtype::bool_);
    w.output(w.where(cond, w.input(from), w.scalar(from)));
    others.kernels.emplace_back(kname("where_" + std::string(nf::dtype_name(from))), std::move(w.k));
    for (index_class c : {flat, strided}) {
      ir_builder io(c == flat ? 1 : 2);
      io.output(io.iota(from, c));
      others.kernels.emplace_back(
          kname("iota_" + std::string(ir::index_class_name(c)) + "_" + std::string(nf::dtype_name(from))),
          std::move(io.k));
    }
  }
  compile_programs({casts, others});
}

TEST_CASE("every index class over ndim 1..4 with 32- and 64-bit indexing compiles", "[nvrtc]") {
  program p{"k_index_classes", {}};
  for (int nd = 1; nd <= 4; ++nd) {
    for (bool wide : {false, true}) {
      const std::string tag = std::to_string(nd) + "d_" + (wide ? "64" : "32");
      // Mixed classes: flat, broadcast and strided inputs, a strided iota, two outputs.
      ir_builder b(nd, wide);
      const int a = b.input(dtype::float32, flat);
      const int x = b.input(dtype::float64, broadcast);
      const int y = b.input(dtype::int32, strided);
      const int s = b.scalar(dtype::float64);
      const int it = b.iota(dtype::int64, strided);
      const int sum = b.op(
          op_code::op_code_add, dtype::float64, dtype::float64,
          {b.op(op_code::op_code_multiply, dtype::float64, dtype::float64, {b.cast(a, dtype::float64), s}),
           x});
      const int pos =
          b.op(op_code::op_code_greater, dtype::bool_, dtype::int64, {b.cast(y, dtype::int64), it});
      b.output(sum);
      b.output(b.where(pos, sum, b.cast(it, dtype::float64)));
      p.kernels.emplace_back(kname("mixed_" + tag), std::move(b.k));
      // Each class alone.
      for (index_class c : {flat, broadcast, strided}) {
        ir_builder one(nd, wide);
        one.output(one.op(op_code::op_code_negative, dtype::complex64, dtype::complex64,
                          {one.input(dtype::complex64, c)}));
        p.kernels.emplace_back(kname(std::string(ir::index_class_name(c)) + "_" + tag), std::move(one.k));
      }
      // Tiled over (tile_dim, last): two transposed inputs of different sizes staged in shared
      // memory, next to a flat, a strided and a guarded input and a strided iota.
      for (int tile = 0; tile + 1 < nd; ++tile) {
        ir_builder t(nd, wide);
        t.k.tile_dim = tile;
        const int h = t.input(dtype::float16, transposed);
        const int z = t.input(dtype::complex128, transposed);
        const int f = t.input(dtype::float64, flat);
        const int g = t.input(dtype::bool_, strided);
        const int it = t.iota(dtype::float64, strided);
        const int guard = t.op(op_code::op_code_greater, dtype::bool_, dtype::float64, {f, it});
        const int sum =
            t.op(op_code::op_code_add, dtype::float64, dtype::float64,
                 {t.op(op_code::op_code_add, dtype::float64, dtype::float64, {t.cast(h, dtype::float64), f}),
                  t.guarded_input(dtype::float64, guard)});
        t.output(t.where(g, sum, it));
        t.output(t.op(op_code::op_code_negative, dtype::complex128, dtype::complex128, {z}));
        p.kernels.emplace_back(kname("tiled_" + std::to_string(tile) + "_" + tag), std::move(t.k));
      }
    }
  }
  // Flat kernels with a flat iota and mixed widths: the vector path with several element sizes.
  for (bool wide : {false, true}) {
    ir_builder b(1, wide);
    const int h = b.input(dtype::float16);
    const int i = b.iota(dtype::float16);
    const int sum = b.op(op_code::op_code_add, dtype::float16, dtype::float16, {h, i});
    b.output(sum);
    b.output(b.op(op_code::op_code_isnan, dtype::bool_, dtype::float16, {sum}));
    b.output(b.cast(sum, dtype::float64));
    p.kernels.emplace_back(kname(std::string("flat_mixed_widths_") + (wide ? "64" : "32")), std::move(b.k));
  }
  compile_programs({p});
}

TEST_CASE("the ABI: params follow param_layout and fold offsets into pointers", "[nvrtc]") {
  ir_builder b(2, false);
  const int x = b.input(dtype::float64, strided);
  const int y = b.input(dtype::float32, flat);
  const int s = b.scalar(dtype::complex64);
  const int it = b.iota(dtype::int64, strided);
  const int sum = b.op(op_code::op_code_add, dtype::float64, dtype::float64, {x, b.cast(y, dtype::float64)});
  b.output(b.op(op_code::op_code_add, dtype::float64, dtype::float64, {sum, b.cast(it, dtype::float64)}));
  b.output(b.cast(s, dtype::complex128));
  const ir::kernel_ir& k = b.k;

  std::vector<std::string> names;
  for (const auto& p : jit::param_layout(k)) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"n", "shape", "out0", "out1", "in0", "in0_strides", "in1", "s0",
                                          "it0", "it0_coeffs"});

  double xs[64] = {};
  float ys[64] = {};
  double o0[15];
  std::complex<double> o1[15];
  ir::kernel_args a;
  a.shape = {3, 5};
  a.inputs.push_back({xs, 7, {1, 3}});
  a.inputs.push_back({ys, 2, {5, 1}});
  ir::scalar_bits sb;
  const std::complex<float> sv(1.5f, -2.0f);
  std::memcpy(sb.bytes, &sv, sizeof sv);
  a.scalars.push_back(sb);
  ir::iota_params io;
  io.coeffs = {5, 1};
  io.offset = -1;
  io.start = 2.5;
  io.step = 3.0;
  a.iotas.push_back(io);
  a.outputs = {o0, o1};

  jit::kernel_params p = jit::build_params(k, a);
  REQUIRE(p.count() == names.size());
  auto get = [&](std::size_t i, auto value) {
    std::memcpy(&value, p.bytes(i), sizeof value);
    return value;
  };
  CHECK(get(0, 0u) == 15u);
  CHECK(get(1, std::array<unsigned, 2>{}) == std::array<unsigned, 2>{3, 5});
  CHECK(get(2, static_cast<void*>(nullptr)) == static_cast<void*>(o0));
  CHECK(get(3, static_cast<void*>(nullptr)) == static_cast<void*>(o1));
  CHECK(get(4, static_cast<const void*>(nullptr)) == static_cast<const void*>(xs + 7));
  CHECK(get(5, std::array<int, 2>{}) == std::array<int, 2>{1, 3});
  CHECK(get(6, static_cast<const void*>(nullptr)) == static_cast<const void*>(ys + 2));
  CHECK(get(7, std::complex<float>{}) == sv);
  struct iota_block {
    double start_re, start_im, step_re, step_im;
    std::int64_t start_int, step_int, offset;
    std::int32_t equals;
  };
  const auto blk = get(8, iota_block{});
  CHECK(blk.start_re == 2.5);
  CHECK(blk.step_re == 3.0);
  CHECK(blk.start_int == 2);
  CHECK(blk.step_int == 3);
  CHECK(blk.offset == -1);
  CHECK(blk.equals == 0);
  CHECK(get(9, std::array<std::int64_t, 2>{}) == std::array<std::int64_t, 2>{5, 1});
  for (std::size_t i = 0; i < p.count(); ++i) CHECK(reinterpret_cast<std::uintptr_t>(p.bytes(i)) % 4 == 0);

  // A 32-bit kernel refuses a stride it cannot hold.
  a.inputs[0].strides = {std::int64_t(1) << 33, 1};
  CHECK_THROWS_AS(jit::build_params(k, a), nf::error);
}

TEST_CASE("launch shape: vector width and grid size", "[nvrtc]") {
  ir_builder seed;
  seed.output(seed.op(op_code::op_code_add, dtype::float64, dtype::float64,
                      {seed.input(dtype::float64), seed.scalar(dtype::float64)}));
  CHECK(jit::vectorized(seed.k));
  CHECK(jit::vector_width(seed.k) == 2);
  // A small array runs one element per thread (the scalar path), a large one 2 per thread.
  CHECK(jit::launch_dims(seed.k, {1000}).grid == 4);
  CHECK(jit::launch_dims(seed.k, {jit::vector_min_elements - 1}).grid ==
        (jit::vector_min_elements + jit::block_threads - 2) / jit::block_threads);
  CHECK(jit::launch_dims(seed.k, {jit::vector_min_elements}).grid ==
        jit::vector_min_elements / 2 / jit::block_threads);
  CHECK(jit::launch_dims(seed.k, {std::int64_t(1) << 28}).grid == (1u << 27) / jit::block_threads);
  CHECK(jit::launch_dims(seed.k, {0}).grid == 1);
  CHECK(jit::launch_dims(seed.k, {1}).block == unsigned(jit::block_threads));
  ir_builder tiled(3);
  tiled.k.tile_dim = 1;
  tiled.output(tiled.input(dtype::float32, transposed));
  CHECK(jit::launch_dims(tiled.k, {3, 40, 70}).grid == 3 * 2 * 3);  // one block per tile, edges included

  ir_builder bytes;
  bytes.output(
      bytes.op(op_code::op_code_logical_not, dtype::bool_, dtype::bool_, {bytes.input(dtype::bool_)}));
  CHECK(jit::vector_width(bytes.k) == 16);

  ir_builder gather(2);
  gather.output(gather.cast(gather.input(dtype::float32, strided), dtype::float64));
  CHECK(!jit::vectorized(gather.k));
  CHECK(jit::vector_width(gather.k) == 1);
  CHECK(jit::needs_multi_index(gather.k));
}

namespace {

nf::array evaluated(std::vector<double> v, const nf::shape_t& shape) {
  nf::array x = nf::asarray(v, shape);
  x.eval();
  return x;
}

// A strided view of an evaluated buffer (the frontend's view ops build the same node).
nf::array strided_view(const nf::array& base, const nf::shape_t& shape,
                       const std::vector<std::int64_t>& strides, std::int64_t offset) {
  auto n = std::make_shared<ir::node>();
  n->op = op_code::op_code_buffer;
  n->dt = base.dtype();
  n->shape = shape;
  n->storage = base.node()->storage;
  n->strides = strides;
  n->offset = offset;
  return nf::array(n);
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("nf::jit::source of the seed chain: one vectorized kernel with the three ops", "[nvrtc]") {
  nf::array x = evaluated(std::vector<double>(1000, 1.5), {1000});
  x *= 5;
  x *= x;
  x += x;
  const std::string src = nf::jit::source(x);
  INFO(src);
  CHECK(count(src, "extern \"C\" __global__") == 1);
  CHECK(count(src, "= nf_multiply(") == 2);
  CHECK(count(src, "= nf_add(") == 1);
  CHECK(count(src, "nf_load_vec<2>(in0") == 1);
  CHECK(count(src, "nf_store_vec<2>(out0") == 1);
  CHECK(src.find("k_") != std::string::npos);
  CHECK(src.find("// multiply float64") != std::string::npos);  // the DAG node of each line
  CHECK(src.find("unsigned long long") == std::string::npos);   // 32-bit indexing
  CHECK(!x.is_evaluated());                                     // inspection runs nothing
  CHECK(nf::jit::compile_check(x, test_sm) == 1);
  x.eval();
  CHECK(nf::jit::source(x).find("already evaluated") != std::string::npos);
}

TEST_CASE("plans from the frontend compile: broadcast, strided views, creation ops, multi-output",
          "[nvrtc]") {
  nf::array a = evaluated(std::vector<double>(24, 2.0), {2, 3, 4});
  nf::array b = evaluated(std::vector<double>(3, 3.0), {3, 1});
  nf::array c = evaluated(std::vector<double>(12, 0.5), {3, 4});
  nf::array t = strided_view(a, {4, 3, 2}, {1, 4, 12}, 0);   // a.transpose()
  nf::array s = strided_view(a, {2, 2, 2}, {12, 8, -2}, 7);  // steps and a negative stride
  nf::array big = evaluated(std::vector<double>(40 * 37, 1.0), {40, 37});
  nf::array c3 = evaluated(std::vector<double>(37 * 40 * 2, 1.0), {37, 40, 2});
  nf::array big3 = evaluated(std::vector<double>(3 * 20 * 33, 1.0), {3, 20, 33});
  std::vector<nf::array> cases = {
      a.astype(nf::float32) * c + 1,                // broadcast input (zero and contiguous strides)
      a * b,                                        // broadcast along a middle axis: strided
      t * 2 + nf::arange(2).astype(nf::float64),    // strided input, broadcast iota
      nf::where(s > 2.0, s, 0.0) - nf::sqrt(s),     // strided with offset
      nf::eye(5, 7, 1, nf::int32) + 1,              // eye: an iota with equals
      nf::linspace(0.0, 1.0, 11) * nf::arange(11),  // flat iotas only
      nf::exp(a.astype(nf::complex64)) * b,         // complex math, broadcast
      big.T().astype(nf::float32) + c3(nf::all, nf::all, 1) * 2,  // tiled: transposed + strided
      nf::transpose(big3, {0, 2, 1})(nf::all, nf::all, nf::slice(nf::none, nf::none, -1)).copy(),
  };
  std::vector<std::string> seen_classes;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << "\n" << nf::jit::source(cases[i]));
    const auto plan = ndfuse::schedule::make_plan({cases[i].node()});
    REQUIRE(plan.steps.size() == 1);
    for (const auto& in : plan.steps[0].kernel.inputs) seen_classes.push_back(ir::index_class_name(in.cls));
    CHECK(nf::jit::compile_check(cases[i], test_sm) == 1);
  }
  for (const char* cls : {"flat", "broadcast", "strided", "transposed"}) {
    INFO("index class " << cls);
    CHECK(std::count(seen_classes.begin(), seen_classes.end(), cls) > 0);
  }

  // Two held results of one shape: one kernel, two outputs.
  nf::array y = a * 2 + 1;
  nf::array z = y * y;
  const auto plan = ndfuse::schedule::make_plan({y.node(), z.node()});
  REQUIRE(plan.steps.size() == 1);
  CHECK(plan.steps[0].kernel.outputs.size() == 2);
  CHECK_NOTHROW(jit::compile_to_cubin(jit::render(plan.steps[0].kernel, plan.steps[0].name),
                                      plan.steps[0].name, test_sm));
}

TEST_CASE("a failed compile throws compile_error naming the dumped source", "[nvrtc]") {
  const std::string broken = "extern \"C\" __global__ void k_broken(int* p) { this is not CUDA; }\n";
  auto message = [&] {
    try {
      jit::compile_to_cubin(broken, "k_broken", test_sm);
    } catch (const nf::compile_error& e) {
      return std::string(e.what());
    }
    return std::string("(no exception)");
  };
  // Without NDFUSE_DUMP_DIR the source goes to a fresh temporary directory.
  const char* user_dump_dir = std::getenv("NDFUSE_DUMP_DIR");
  const std::string saved = user_dump_dir ? user_dump_dir : "";
  ::unsetenv("NDFUSE_DUMP_DIR");
  std::string msg = message();
  INFO(msg);
  REQUIRE(msg.find("k_broken") != std::string::npos);
  const auto at = msg.find("source: ");
  REQUIRE(at != std::string::npos);
  const std::string path = msg.substr(at + 8, msg.find('\n', at) - at - 8);
  CHECK(path.ends_with("k_broken.cu"));
  CHECK(std::filesystem::exists(path));
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());  // this process's fresh directory
  CHECK(msg.find("error") != std::string::npos);                           // NVRTC's log

  // With NDFUSE_DUMP_DIR, there (next to the prelude headers it includes).
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  const std::filesystem::path dir = std::filesystem::path(tmp ? tmp : "/tmp") / "nvrtc_dump";
  ::setenv("NDFUSE_DUMP_DIR", dir.c_str(), 1);
  msg = message();
  if (saved.empty())
    ::unsetenv("NDFUSE_DUMP_DIR");
  else
    ::setenv("NDFUSE_DUMP_DIR", saved.c_str(), 1);
  CHECK(msg.find((dir / "k_broken.cu").string()) != std::string::npos);
  CHECK(std::filesystem::exists(dir / jit::prelude_header));
}

TEST_CASE("NVRTC facts: version, arch list, fingerprint", "[nvrtc]") {
  CHECK(!jit::nvrtc_version().empty());
  const auto sms = jit::supported_sms();
  CHECK(std::find(sms.begin(), sms.end(), test_sm) != sms.end());
  CHECK(jit::compile_fingerprint(90) == jit::compile_fingerprint(90));
  CHECK(jit::compile_fingerprint(90) != jit::compile_fingerprint(80));
  CHECK(jit::compile_fingerprint(90).size() == 16);
}

#endif  // NDFUSE_WITH_CUDA
