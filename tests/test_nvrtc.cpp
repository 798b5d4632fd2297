// Compile-only tests of the CUDA code generator (jit/): kernel IR is rendered to CUDA source and
// compiled by NVRTC for sm_90, with no GPU and no driver. Covers every op x dtype loop, every cast
// pair, where, iota, every index class over ndim 1..4, 32- and 64-bit indexing and multi-output
// kernels, plus nf::jit::source on the seed chain and compile_error reporting. The kernel ABI and
// launch shapes (no compile) are in test_kernel_abi.cpp.
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
#include "child_process.hpp"
#include "ndfuse/ndfuse.hpp"

#if defined(NDFUSE_WITH_CUDA)
#include "ir/kernel_ir.hpp"
#include "ir/node.hpp"
#include "ir/op_info.hpp"
#include "jit/kernel_abi.hpp"
#include "jit/nvrtc_compiler.hpp"
#include "jit/render.hpp"
#include "kernel_ir_builder.hpp"
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
using namespace ndfuse_test;

constexpr int test_sm = 90;
std::vector<dtype> all_dtypes() {
  std::vector<dtype> out;
  for (int i = 0; i < nf::dtype_count; ++i) out.push_back(static_cast<dtype>(i));
  return out;
}

struct program {
  std::string name;
  std::vector<std::pair<std::string, jit::tuned_ir>> kernels;
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
  const int first_op = static_cast<int>(op_code::add);
  for (int c = first_op; c < static_cast<int>(op_code::count); ++c) {
    const auto op = static_cast<op_code>(c);
    const auto& info = ir::info(op);
    if ((c - first_op) % ops_per_program == 0)
      programs.push_back({"k_ops_from_" + std::string(info.name), {}});
    REQUIRE(!info.loops.empty());
    for (const auto& loop : info.loops) {
      ir_builder b;
      std::vector<int> args;
      for (int a = 0; a < info.arity; ++a) args.push_back(b.input(loop.in));
      const int v = info.arity == 1   ? b.op(op, loop.out, loop.in, {args[0]})
                    : info.arity == 2 ? b.op(op, loop.out, loop.in, {args[0], args[1]})
                                      : b.op(op, loop.out, loop.in, {args[0], args[1], args[2]});
      b.output(v);
      programs.back().kernels.emplace_back(
          kname(std::string(info.name) + "_" + std::string(nf::dtype_name(loop.in))), std::move(b.k));
    }
  }
  compile_programs(programs);
}

// Reduction and scan kernels as the fuser plans them (prologue, fold, epilogue), rendered and
// compiled: every fold over every dtype it supports, in each strategy (full, inner, outer, scan),
// arg reductions with their nan forms, and a fused prologue/epilogue with strided inputs. Each in
// two fold layouts: the one its (small) sizes get, mostly one thread per output with the fold's
// length a constant of the kernel, and the other driver with units switched where the fold can
// have them (outer folds: output units, whose wide loads read through strides, and an iota beside
// an input, which only loads elements); staged; and full folds with a tail.
TEST_CASE("reduction and scan kernels compile for every fold, dtype and strategy", "[nvrtc]") {
  std::vector<program> programs;
  auto add_plan = [&](const std::string& group, const nf::array& result) {
    if (programs.empty() || programs.back().kernels.size() >= 24)
      programs.push_back({"k_reduce_" + group, {}});
    const auto plan = ndfuse::schedule::make_plan({result.node()});
    auto add = [&](const jit::tuned_ir& k, const std::string& name) {
      programs.back().kernels.emplace_back(name + "_" + std::to_string(programs.back().kernels.size()), k);
    };
    for (const auto& step : plan.steps) {
      const jit::tuned_ir planned = jit::tuned(step);
      add(planned, step.name);
      auto& r = step.kernel.reduction;
      if (!r || r->strategy == ir::reduce_strategy::scan) continue;
      jit::tuned_ir other = planned;
      other.fold.per_thread = !planned.fold.per_thread;
      other.fold.per_thread_n_red = 0;  // the per-thread driver with the length read at run time
      other.fold.units = jit::reduce_unit_width(*r) > 1 && !planned.fold.units;
      other.fold.output_units = !other.fold.per_thread && jit::reduce_output_width(*r) > 1;
      other.fold.staged = false;
      add(other, step.name + "_other_layout");
      // And the staged fold (long rows and full folds in units) wherever units are possible.
      if (jit::reduce_staged(r->strategy, jit::reduce_unit_width(*r) > 1, jit::reduce_stage_units * 2)) {
        jit::tuned_ir staged = planned;
        staged.fold.units = true;
        staged.fold.per_thread = false;
        staged.fold.staged = true;
        add(staged, step.name + "_staged");
      }
      // A full fold in units has a tail at lengths that do not divide: in each of its three drivers.
      if (r->strategy == ir::reduce_strategy::full && jit::reduce_unit_width(*r) > 1) {
        for (int layout = 0; layout < 3; ++layout) {
          jit::tuned_ir tail = planned;
          tail.fold.units = tail.fold.tail = true;
          tail.fold.per_thread = layout == 0;
          tail.fold.staged = layout == 2;
          add(tail, step.name + "_tail" + std::to_string(layout));
        }
      }
    }
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
      add_plan(tn, nf::sum(x * nf::arange(4.0), 0));  // an iota in an outer fold's prologue
    }
  }
  REQUIRE(programs.size() > 5);
  compile_programs(programs);
}

// The staged fold (nf_reduce_staged) as the plan picks it for long folds: one input, two inputs of
// different widths in one stage, an iota beside a staged input, an input read through strides (no
// staging, loads only), and an epilogue input; for sm_90 (bulk copies) and sm_80 (loads only).
TEST_CASE("staged reduction kernels compile, with and without the bulk copy engine", "[nvrtc]") {
  const std::int64_t n = jit::reduce_stage_units * 8 * 3 + 40;  // three float64 chunks' worth and a tail
  nf::array a = nf::ones({n});
  nf::array b = nf::ones({n}, nf::dtype::float32);
  nf::array m = nf::ones({6, n});
  nf::array mt = nf::ones({n, 6});
  for (auto* x : {&a, &b, &m, &mt}) x->eval();
  const std::vector<nf::array> results = {
      nf::sum(a),
      nf::sum(a * b),
      nf::sum(a * nf::arange(double(n))),
      nf::mean(m * 2.0, 1),
      nf::sum(mt.T() * m, 1),
      nf::linalg::norm(b),
      nf::sum(b, nf::none, false, nf::dtype::float64),
  };
  std::vector<std::pair<std::string, jit::tuned_ir>> kernels;
  int staged = 0;
  for (const auto& result : results) {
    const auto plan = ndfuse::schedule::make_plan({result.node()});
    for (const auto& step : plan.steps) {
      const jit::tuned_ir k = jit::tuned(step);
      if (!k.reduction || !k.fold.staged) continue;
      kernels.emplace_back(kname(step.name + "_" + std::to_string(kernels.size())), k);
      staged += jit::reduce_stage_bytes(k) > 0;
    }
  }
  REQUIRE(kernels.size() == results.size());
  CHECK(staged == int(results.size()) - 1);  // all but the strided operand's
  std::vector<jit::named_kernel> named;
  for (const auto& [name, k] : kernels) named.push_back({&k, name});
  const std::string source = jit::render_program(named);
  CHECK(source.find("nf_bulk_copy_shifted(") != std::string::npos);
  CHECK(source.find("nf_load_staged<") != std::string::npos);
  for (int sm : {90, 80}) {
    INFO("sm_" << sm);
    CHECK_NOTHROW(jit::compile_to_cubin(source, "k_staged_" + std::to_string(sm), sm));
  }
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
      const int sum =
          b.op(op_code::add, dtype::float64, dtype::float64,
               {b.op(op_code::multiply, dtype::float64, dtype::float64, {b.cast(a, dtype::float64), s}), x});
      const int pos = b.op(op_code::greater, dtype::bool_, dtype::int64, {b.cast(y, dtype::int64), it});
      b.output(sum);
      b.output(b.where(pos, sum, b.cast(it, dtype::float64)));
      p.kernels.emplace_back(kname("mixed_" + tag), std::move(b.k));
      // Each class alone.
      for (index_class c : {flat, broadcast, strided}) {
        ir_builder one(nd, wide);
        one.output(
            one.op(op_code::negative, dtype::complex64, dtype::complex64, {one.input(dtype::complex64, c)}));
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
        const int guard = t.op(op_code::greater, dtype::bool_, dtype::float64, {f, it});
        const int sum =
            t.op(op_code::add, dtype::float64, dtype::float64,
                 {t.op(op_code::add, dtype::float64, dtype::float64, {t.cast(h, dtype::float64), f}),
                  t.guarded_input(dtype::float64, guard)});
        t.output(t.where(g, sum, it));
        t.output(t.op(op_code::negative, dtype::complex128, dtype::complex128, {z}));
        p.kernels.emplace_back(kname("tiled_" + std::to_string(tile) + "_" + tag), std::move(t.k));
      }
    }
  }
  // Flat kernels with a flat iota and mixed widths: the vector path with several element sizes.
  for (bool wide : {false, true}) {
    ir_builder b(1, wide);
    const int h = b.input(dtype::float16);
    const int i = b.iota(dtype::float16);
    const int sum = b.op(op_code::add, dtype::float16, dtype::float16, {h, i});
    b.output(sum);
    b.output(b.op(op_code::isnan, dtype::bool_, dtype::float16, {sum}));
    b.output(b.cast(sum, dtype::float64));
    p.kernels.emplace_back(kname(std::string("flat_mixed_widths_") + (wide ? "64" : "32")), std::move(b.k));
  }
  compile_programs({p});
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
  n->op = op_code::buffer;
  n->dt = base.dtype();
  n->shape = shape;
  n->storage = base.node()->storage;
  n->strides = strides;
  n->offset = offset;
  n->publish();  // storage, strides and offset are set: the node is materialized
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
    const jit::tuned_ir k = jit::tuned(plan.steps[0]);
    for (std::size_t in = 0; in < k.inputs.size(); ++in)
      seen_classes.push_back(k.is_transposed(in) ? "transposed" : ir::index_class_name(k.inputs[in].cls));
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
  CHECK_NOTHROW(jit::compile_to_cubin(jit::render(jit::tuned(plan.steps[0]), plan.steps[0].name),
                                      plan.steps[0].name, test_sm));
}

// NDFUSE_DUMP_DIR is read once per process, so each setting runs in a child process of its own.
TEST_CASE("a failed compile throws compile_error naming the dumped source", "[nvrtc]") {
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  const std::filesystem::path dir = std::filesystem::path(tmp ? tmp : "/tmp") / "nvrtc_dump";
  const std::string child = "nvrtc child: a failed compile names its dumped source";
  CHECK(ndfuse_test::run_self(child, {"NDFUSE_TEST_CHILD=no_dump_dir", "NDFUSE_DUMP_DIR="}) == 0);
  CHECK(ndfuse_test::run_self(child, {"NDFUSE_TEST_CHILD=dump_dir", "NDFUSE_DUMP_DIR=" + dir.string()}) == 0);
}

TEST_CASE("nvrtc child: a failed compile names its dumped source", "[.][nvrtc_child]") {
  const bool with_dir = ndfuse_test::is_child("dump_dir");
  if (!with_dir && !ndfuse_test::is_child("no_dump_dir"))
    NDFUSE_SKIP("runs only as a child process of another test case");
  const std::string broken = "extern \"C\" __global__ void k_broken(int* p) { this is not CUDA; }\n";
  std::string msg = "(no exception)";
  try {
    jit::compile_to_cubin(broken, "k_broken", test_sm);
  } catch (const nf::compile_error& e) {
    msg = e.what();
  }
  INFO(msg);
  REQUIRE(msg.find("k_broken") != std::string::npos);
  CHECK(msg.find("error") != std::string::npos);  // NVRTC's log
  const auto at = msg.find("source: ");
  REQUIRE(at != std::string::npos);
  const std::filesystem::path path = msg.substr(at + 8, msg.find('\n', at) - at - 8);
  CHECK(path.filename() == "k_broken.cu");
  CHECK(std::filesystem::exists(path));
  if (with_dir) {  // there, next to the prelude headers it includes
    const char* dir = std::getenv("NDFUSE_DUMP_DIR");
    REQUIRE(dir != nullptr);
    CHECK(path == std::filesystem::path(dir) / "k_broken.cu");
    CHECK(std::filesystem::exists(std::filesystem::path(dir) / jit::prelude_header));
  } else {  // a fresh temporary directory of this process
    std::filesystem::remove_all(path.parent_path());
  }
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
