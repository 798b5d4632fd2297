// The kernel ABI and launch shapes of jit/kernel_abi.cpp, on the host (no compile, no GPU): the
// parameter block a launch passes, and the grid and block of elementwise and reduction kernels.
#include <cstdint>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include "ir/kernel_ir.hpp"
#include "jit/kernel_abi.hpp"
#include "kernel_ir_builder.hpp"
#include "ndfuse/reduce.hpp"
#include "schedule/plan.hpp"
#endif

#if !defined(NDFUSE_WITH_CUDA)

TEST_CASE("kernel ABI tests", "[kernel_abi]") {
  NDFUSE_SKIP("ndfuse was built without CUDA (NDFUSE_WITH_CUDA=OFF)");
}

#else

namespace {

namespace jit = ndfuse::jit;
namespace ir = ndfuse::ir;
using namespace ndfuse_test;

// The kernel of a reduction as the fuser plans it (the sizes passed to reduce_dims are separate).
jit::tuned_ir reduction_kernel(const nf::array& result) {
  const auto plan = ndfuse::schedule::make_plan({result.node()});
  REQUIRE(plan.steps.size() == 1);
  REQUIRE(plan.steps[0].kernel.reduction);
  return jit::tuned(plan.steps[0]);
}

}  // namespace

TEST_CASE("the ABI: params follow param_layout and fold offsets into pointers", "[kernel_abi]") {
  ir_builder b(2, false);
  const int x = b.input(dtype::float64, strided);
  const int y = b.input(dtype::float32, flat);
  const int s = b.scalar(dtype::complex64);
  const int it = b.iota(dtype::int64, strided);
  const int sum = b.op(op_code::add, dtype::float64, dtype::float64, {x, b.cast(y, dtype::float64)});
  b.output(b.op(op_code::add, dtype::float64, dtype::float64, {sum, b.cast(it, dtype::float64)}));
  b.output(b.cast(s, dtype::complex128));
  const jit::tuned_ir& k = b.k;

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

TEST_CASE("launch shape: vector width and grid size", "[kernel_abi]") {
  ir_builder seed;
  seed.output(seed.op(op_code::add, dtype::float64, dtype::float64,
                      {seed.input(dtype::float64), seed.scalar(dtype::float64)}));
  CHECK(jit::vectorized(seed.k));
  CHECK(jit::vector_width(seed.k) == 2);
  // A small array runs one element per thread (the scalar path), a large one 2 per thread.
  CHECK(jit::launch_dims(seed.k, {1000}, 132).grid == 4);
  CHECK(jit::launch_dims(seed.k, {jit::vector_min_elements - 1}, 132).grid ==
        (jit::vector_min_elements + jit::block_threads - 2) / jit::block_threads);
  CHECK(jit::launch_dims(seed.k, {jit::vector_min_elements}, 132).grid ==
        jit::vector_min_elements / 2 / jit::block_threads);
  CHECK(jit::launch_dims(seed.k, {std::int64_t(1) << 28}, 132).grid == (1u << 27) / jit::block_threads);
  CHECK(jit::launch_dims(seed.k, {0}, 132).grid == 1);
  CHECK(jit::launch_dims(seed.k, {1}, 132).block == unsigned(jit::block_threads));
  ir_builder tiled(3);
  tiled.k.tile_dim = 1;
  tiled.output(tiled.input(dtype::float32, transposed));
  CHECK(jit::launch_dims(tiled.k, {3, 40, 70}, 132).grid == 3 * 2 * 3);  // one block per tile, edges included
  // A kernel that draws loops over at most random_blocks_per_sm blocks per SM: a thread's key
  // schedule is then paid once for many elements. Small draws keep one element per thread.
  ir_builder draw;
  draw.output(draw.random(dtype::float64));
  CHECK(jit::launch_dims(draw.k, {std::int64_t(1) << 28}, 132).grid == 132 * jit::random_blocks_per_sm);
  CHECK(jit::launch_dims(draw.k, {std::int64_t(1) << 28}, 8).grid == 8 * jit::random_blocks_per_sm);
  CHECK(jit::launch_dims(draw.k, {1000}, 132).grid == 4);

  ir_builder bytes;
  bytes.output(bytes.op(op_code::logical_not, dtype::bool_, dtype::bool_, {bytes.input(dtype::bool_)}));
  CHECK(jit::vector_width(bytes.k) == 16);

  ir_builder gather(2);
  gather.output(gather.cast(gather.input(dtype::float32, strided), dtype::float64));
  CHECK(!jit::vectorized(gather.k));
  CHECK(jit::vector_width(gather.k) == 1);
  CHECK(jit::needs_multi_index(gather.k));
}

TEST_CASE("reduction launch shape: lanes, split and grid", "[kernel_abi]") {
  const nf::array x = nf::asarray(std::vector<float>(32, 1.5f), {8, 4});
  const int sms = 132;  // an H100
  const std::int64_t device_blocks = std::int64_t(sms) * jit::blocks_per_sm;

  // Rows of four floats: one 16-byte unit per row, so the plan gives each output one thread
  // (nf_reduce_per_thread): 256 outputs per block over the whole grid, never split.
  const jit::tuned_ir rows = reduction_kernel(nf::sum(x, 1));
  REQUIRE(rows.reduction->strategy == ir::reduce_strategy::inner);
  REQUIRE(rows.fold.units);
  REQUIRE(rows.fold.per_thread);
  // The row's length (one unit) is a constant of the kernel: rows of two units are another kernel.
  CHECK(rows.fold.per_thread_n_red == 1);
  const jit::tuned_ir rows_of_8 = reduction_kernel(nf::sum(nf::ones({8, 8}, nf::float32), 1));
  CHECK(rows_of_8.fold.per_thread_n_red == 2);
  CHECK(rows_of_8.key() != rows.key());  // the tuning is part of the compiled kernel's key
  CHECK(reduction_kernel(nf::sum(nf::ones({8, 7}, nf::float32), 1)).fold.per_thread_n_red == 7);
  CHECK(reduction_kernel(nf::sum(nf::ones({8, 64}, nf::float32), 1)).fold.per_thread_n_red == 0);
  auto c = jit::reduce_dims(rows, std::int64_t(1) << 26, 1, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == (1u << 26) / 256);
  CHECK(c.grid_y == 1);
  CHECK(c.partial_bytes == 0);
  CHECK(c.arrival_count == 0);
  // Few short rows: still one thread each, no split (1000 outputs: 4 blocks).
  c = jit::reduce_dims(rows, 1000, 3, sms);
  CHECK(c.grid_x == 4);
  CHECK(c.grid_y == 1);
  CHECK(c.arrival_count == 0);
  // The grid is capped only by CUDA's limit on gridDim.x (the driver loops beyond it).
  c = jit::reduce_dims(rows, std::int64_t(1) << 40, 1, sms);
  CHECK(c.grid_x == unsigned(jit::max_grid));

  // The general layout with the same sizes (a kernel planned for rows of 16 units or more): the
  // lanes of a block share each row. Rows of one unit get one lane each, 256 rows per block.
  jit::tuned_ir shared_rows = rows;
  shared_rows.fold.per_thread = false;
  c = jit::reduce_dims(shared_rows, std::int64_t(1) << 26, 1, sms);
  CHECK(c.block_x == 1);
  CHECK(c.block_y == 256);
  CHECK(c.grid_x == (1u << 26) / 256);
  CHECK(c.grid_y == 1);
  // Long rows: a block per row.
  c = jit::reduce_dims(shared_rows, 16384, 4096, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == 16384);
  CHECK(c.grid_y == 1);

  // A full reduction splits over one device of resident blocks; the last block folds their
  // partials (one accumulator each), with one arrival counter.
  const jit::tuned_ir full = reduction_kernel(nf::sum(x.astype(nf::float64)));
  REQUIRE(full.reduction->strategy == ir::reduce_strategy::full);
  REQUIRE(full.fold.units);  // 32 float64: 16 units of two
  REQUIRE(!full.fold.per_thread);
  c = jit::reduce_dims(full, 1, 125'000'000, sms);
  CHECK(c.block_x == 256);
  CHECK(c.grid_x == 1);
  CHECK(c.grid_y == unsigned(device_blocks));
  CHECK(c.partial_bytes == std::size_t(device_blocks) * sizeof(double));
  CHECK(c.arrival_count == 1);
  // ... but never so finely that a thread gets fewer than four elements.
  c = jit::reduce_dims(full, 1, 256 * 4 * 10, sms);
  CHECK(c.grid_y == 10);

  // Columns of float32 in output units: each lane folds four neighbouring columns side by side, a
  // warp spans 32 lanes (128 columns) and 8 lanes split the rows; 128 blocks, and each column's rows
  // are split over 4 blocks (half a device of resident blocks).
  const jit::tuned_ir columns = reduction_kernel(nf::sum(x, 0));
  REQUIRE(columns.reduction->strategy == ir::reduce_strategy::outer);
  REQUIRE(!columns.fold.units);        // outer folds have no units of elements
  REQUIRE(columns.fold.output_units);  // 4 columns
  REQUIRE(!columns.fold.per_thread);   // columns of 8
  CHECK(jit::reduce_output_width(*columns.reduction) == 4);
  CHECK(jit::reduce_lane_outputs(columns) == 4);
  CHECK(jit::reduce_layout_name(columns) ==
        "element by element, 4 neighbouring outputs per lane, the lanes of a block share each output");
  c = jit::reduce_dims(columns, 16384, 16384, sms);
  CHECK(c.block_x == 32);
  CHECK(c.block_y == 8);
  CHECK(c.grid_x == 128);
  CHECK(c.grid_y == unsigned(device_blocks / 2 / 128));
  CHECK(c.arrival_count == 128);
  CHECK(c.partial_bytes == std::size_t(c.grid_y) * 16384 * sizeof(float));
  // The same sizes one output per lane (as for a width no unit divides): four times the blocks
  // along the outputs, the same lanes down each column and the same split, so each column folds in
  // the same order. The layout is part of the kernel's key.
  jit::tuned_ir element_columns = columns;
  element_columns.fold.output_units = false;
  CHECK(element_columns.key() != columns.key());
  const auto e = jit::reduce_dims(element_columns, 16384, 16384, sms);
  CHECK(e.block_x == c.block_x);
  CHECK(e.block_y == c.block_y);
  CHECK(e.grid_y == c.grid_y);
  CHECK(e.grid_x == 512);
  CHECK(e.arrival_count == 512);
  CHECK(e.partial_bytes == c.partial_bytes);
  // Short columns in the general layout: lanes of four outputs, 256 lanes per block, the whole grid.
  c = jit::reduce_dims(columns, std::int64_t(1) << 26, 4, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == (1u << 26) / 1024);
  CHECK(c.grid_y == 1);
  // The plan takes output units only where a lane's outputs stay within one row of the innermost
  // kept dim, in folds that have a value accumulator of at most 8 bytes: float64 two per lane,
  // complex128 and arg folds one.
  CHECK(!reduction_kernel(nf::sum(nf::ones({8, 6}, nf::float32), 0)).fold.output_units);
  CHECK(reduction_kernel(nf::sum(nf::ones({8, 6}), 0)).fold.output_units);
  CHECK(jit::reduce_output_width(*reduction_kernel(nf::sum(nf::ones({8, 6}), 0)).reduction) == 2);
  CHECK(!reduction_kernel(nf::sum(nf::ones({8, 6}, nf::complex128), 0)).fold.output_units);
  CHECK(!reduction_kernel(nf::argmax(x, 0)).fold.output_units);
  CHECK(reduction_kernel(nf::sum(nf::ones({3, 8, 4}, nf::float32), 1)).fold.output_units);   // kept (3, 4)
  CHECK(!reduction_kernel(nf::sum(nf::ones({3, 8, 6}, nf::float32), 1)).fold.output_units);  // kept (3, 6)
  // ... and as planned for them: one thread each, never split, even with few outputs.
  const jit::tuned_ir short_columns = reduction_kernel(nf::sum(x.reshape({4, 8}), 0));
  REQUIRE(short_columns.reduction->strategy == ir::reduce_strategy::outer);
  REQUIRE(short_columns.fold.per_thread);  // columns of 4
  CHECK(short_columns.fold.per_thread_n_red == 4);
  c = jit::reduce_dims(short_columns, 100, 4, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == 1);
  CHECK(c.grid_y == 1);
  CHECK(c.arrival_count == 0);

  // jit::reduce_per_thread (the plan's rule) picks exactly the folds to which the general layout
  // would give one lane: rows under 16, columns under 8 (in units where the fold has them).
  for (std::int64_t n_red : {1, 7, 8, 15, 16, 17, 100}) {
    INFO("n_red " << n_red);
    const auto row = jit::reduce_dims(shared_rows, 1 << 20, n_red, sms);
    CHECK((row.block_x == 1) == jit::reduce_per_thread(ir::reduce_strategy::inner, n_red));
    const auto column = jit::reduce_dims(element_columns, 1 << 20, n_red, sms);
    CHECK((column.block_y == 1) == jit::reduce_per_thread(ir::reduce_strategy::outer, n_red));
  }
}

// The staged fold (nf_reduce_staged): which folds the plan stages, their launch shape, the bytes of
// a stage and the stages in flight for a device's shared memory.
TEST_CASE("staged reductions: layout, launch shape, stage bytes and stages", "[kernel_abi]") {
  const int sms = 132;  // an H100
  const std::int64_t target = std::int64_t(sms) * jit::staged_blocks_per_sm;
  nf::array a = nf::ones({4096});               // float64: 2048 units of two, two chunks
  nf::array b = nf::ones({4096}, nf::float32);  // 1024 units of four: one chunk, not staged
  nf::array short_a = nf::ones({4094});         // 2047 units
  nf::array m = nf::ones({3, 4096});
  for (auto* x : {&a, &b, &short_a, &m}) x->eval();

  const jit::tuned_ir full = reduction_kernel(nf::sum(a));
  REQUIRE(full.fold.units);
  CHECK(full.fold.staged);
  CHECK(jit::reduce_layout_name(full).find("staged") != std::string::npos);
  CHECK(!reduction_kernel(nf::sum(b)).fold.staged);
  CHECK(!reduction_kernel(nf::sum(short_a)).fold.staged);
  CHECK(!reduction_kernel(nf::max(m, 0)).fold.staged);  // columns are never staged
  CHECK(!reduction_kernel(nf::argmax(a)).fold.staged);  // arg folds have no units
  CHECK(!full.fold.tail);
  // An odd-length float64 fold (x[1:] of an even-length x): units of two and one element after
  // them, staged; rows of that length fold element by element (each row would start at another
  // alignment); the tail is in the key.
  nf::array odd = nf::ones({4097});
  odd.eval();
  const jit::tuned_ir full_odd = reduction_kernel(nf::sum(odd));
  CHECK(full_odd.fold.units);
  CHECK(full_odd.fold.tail);
  CHECK(full_odd.fold.staged);
  CHECK(full_odd.key() != full.key());
  const jit::tuned_ir rows_odd = reduction_kernel(nf::sum(odd.reshape({17, 241}), 1));
  CHECK(!rows_odd.fold.units);
  CHECK(!rows_odd.fold.tail);
  CHECK(full.key() != [&] {
    jit::tuned_ir k = full;
    k.fold.staged = false;
    return k.key();
  }());

  // Stage bytes: one chunk of every prologue input in its own dtype, and 128 bytes each for the
  // aligned span around a shifted input (keeping areas 128-byte aligned); none for a strided operand.
  CHECK(jit::reduce_prologue_inputs(full) == std::vector<int>{0});
  CHECK(jit::reduce_stage_bytes(full) == 1024 * 16 + 128);
  const jit::tuned_ir mixed = reduction_kernel(nf::sum(a * b));
  REQUIRE(mixed.fold.staged);
  CHECK(jit::reduce_stage_bytes(mixed) == 1024 * (16 + 8) + 2 * 128);
  const jit::tuned_ir strided = reduction_kernel(nf::sum(m.T(), 0));
  if (strided.fold.staged) CHECK(jit::reduce_stage_bytes(strided) == 0);
  const jit::tuned_ir rows = reduction_kernel(nf::sum(m, 1));
  REQUIRE(rows.fold.staged);
  REQUIRE(rows.reduction->strategy == ir::reduce_strategy::inner);

  // Launch: 256 lanes along one output; few outputs split over two blocks per SM, never finer
  // than a chunk per block; many outputs one block each, unsplit.
  auto c = jit::reduce_dims(full, 1, 125'000'000, sms);
  CHECK(c.block_x == 256);
  CHECK(c.block_y == 1);
  CHECK(c.grid_x == 1);
  CHECK(c.grid_y == unsigned(target));
  CHECK(c.partial_bytes == std::size_t(target) * sizeof(double));
  CHECK(c.arrival_count == 1);
  c = jit::reduce_dims(full, 1, 1024 * 10 + 5, sms);  // ten whole chunks (n_red in units)
  CHECK(c.grid_y == 10);
  c = jit::reduce_dims(rows, 3, 1'000'000, sms);
  CHECK(c.grid_x == 3);
  CHECK(c.grid_y == unsigned((target + 2) / 3));
  CHECK(c.arrival_count == 3);
  c = jit::reduce_dims(rows, 16384, 4096, sms);
  CHECK(c.grid_x == 16384);
  CHECK(c.grid_y == 1);
  CHECK(c.partial_bytes == 0);

  // Stages: up to four while two blocks fit an SM (H100: 228 KB an SM, 227 KB a block), two when
  // only one block fits, none when two stages do not fit a block.
  const std::size_t h100_sm = 233472, h100_block = 232448;
  CHECK(jit::reduce_stages(16384, h100_sm, h100_block) == 4);
  CHECK(jit::reduce_stages(24576, h100_sm, h100_block) == 4);
  CHECK(jit::reduce_stages(32768, h100_sm, h100_block) == 3);
  CHECK(jit::reduce_stages(65536, h100_sm, h100_block) == 2);
  CHECK(jit::reduce_stages(131072, h100_sm, h100_block) == 0);
  CHECK(jit::reduce_stages(0, h100_sm, h100_block) == 0);
  CHECK(jit::reduce_stages(16384, 167936, 166912) == 4);  // an A100
}

#endif  // NDFUSE_WITH_CUDA
