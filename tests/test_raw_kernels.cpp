// nf::raw_kernel and nf::raw_module. Everywhere (NVRTC needs no GPU): compiles, template instances'
// lowered names, compile errors with the line, the disk cache keyed on included headers' contents,
// and the errors at the call (a CPU array, a grid of 0, a file that is not a module). On a GPU:
// seed 003's RawKernel matmul, a RawModule template and a PTX file against NumPy
// (tests/oracle/gen_raw_kernels.py), value semantics of outputs, strided views refused, large
// dynamic shared memory, and a launch on a stream of the user's.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "catch.hpp"
#include "ir/node.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace {

namespace fs = std::filesystem;

// Seed 003's RawKernel: a naive matrix product, one thread per output.
const std::string matmul_source = R"(
extern "C" __global__ void matmul(const float* a, const float* b, float* c, int m, int k, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float s = 0;
    for (int t = 0; t < k; ++t) s += a[row * k + t] * b[t * n + col];
    c[row * n + col] = s;
  }
}
)";

// Templates, found through name expressions.
const std::string scale_source = R"(
template <class T>
__global__ void scale(const T* x, T* y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * a + T(i);
}
)";

// `fill` of /tmp/fill.cu (`extern "C" __global__ void fill(float* p, float v, int n)`), as
// `nvcc -ptx -arch=compute_90` writes it.
const std::string fill_ptx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry fill(
	.param .u64 fill_param_0,
	.param .f32 fill_param_1,
	.param .u32 fill_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [fill_param_0];
	ld.param.f32 	%f1, [fill_param_1];
	ld.param.u32 	%r2, [fill_param_2];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.f32 	[%rd4], %f1;
$L__BB0_2:
	ret;
}
)";

const std::string twice_source = R"(
extern "C" __global__ void twice(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
)";

fs::path scratch(const std::string& name) {
  const char* tmp = std::getenv("NDFUSE_TEST_TMP");
  fs::path dir = fs::path(tmp ? tmp : fs::temp_directory_path().string()) / ("raw_kernels_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

bool gpu() {
  return nf::cuda::device_count() > 0;
}

unsigned blocks(std::int64_t n, unsigned per_block) {
  return static_cast<unsigned>((n + per_block - 1) / per_block);
}

}  // namespace

#if defined(NDFUSE_WITH_CUDA)
TEST_CASE("raw kernels compile through NVRTC without a GPU; template instances get their lowered names",
          "[raw_kernels][nvrtc]") {
  const nf::raw_kernel matmul(matmul_source, "matmul");
  CHECK_NOTHROW(matmul.compile(90));
  CHECK(matmul.lowered_name(90) == "matmul");  // extern "C": its own name
  const nf::raw_module m(scale_source, {"scale<float>", "scale<double>"});
  CHECK_NOTHROW(m.compile(90));
  const std::string f = m.lowered_name("scale<float>", 90), d = m.lowered_name("scale<double>", 90);
  CHECK(f.rfind("_Z5scaleIfEvPKT_PS0_S0_i", 0) == 0);  // the Itanium mangling of scale<float>
  CHECK(d.rfind("_Z5scaleIdEvPKT_PS0_S0_i", 0) == 0);
  CHECK(m.lowered_name("other", 90) == "other");  // not a name expression: looked up as it is
  // A raw_kernel named by a template instance finds it the same way.
  CHECK(nf::raw_kernel(scale_source, "scale<double>").lowered_name(90) == d);
}

TEST_CASE("a raw module that does not compile throws compile_error with NVRTC's line and the source's path",
          "[raw_kernels][nvrtc]") {
  const nf::raw_kernel broken(
      "extern \"C\" __global__ void broken(float* p) {\n  p[0] = 1;\n  p[1] = +* ;\n}\n", "broken");
  try {
    broken.compile(90);
    FAIL("no compile_error");
  } catch (const nf::compile_error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("broken.cu(3): error") != std::string::npos);
    CHECK(what.find("source: ") != std::string::npos);
  }
  // Options reach NVRTC: an unknown one is its error.
  CHECK_THROWS_AS(nf::raw_kernel(twice_source, "twice", {{"--no-such-option"}}).compile(90),
                  nf::compile_error);
  // -D reaches the source.
  const std::string guarded = "#ifndef WIDTH\n#error WIDTH is needed\n#endif\n" + twice_source;
  CHECK_THROWS_AS(nf::raw_kernel(guarded, "twice").compile(90), nf::compile_error);
  CHECK_NOTHROW(nf::raw_kernel(guarded, "twice", {{"-DWIDTH=4"}}).compile(90));
}

TEST_CASE("the disk cache keys a raw module on the contents of the headers it includes",
          "[raw_kernels][nvrtc]") {
  const fs::path dir = scratch("headers");
  fs::create_directories(dir / "inner");
  write(dir / "factor.cuh", "#include \"inner/value.cuh\"\n#define FACTOR (VALUE * 2)\n");
  write(dir / "inner" / "value.cuh", "#define VALUE 3\n");
  const std::string source =
      "#include \"factor.cuh\"\n#include <cuda_fp16.h>\n"
      "extern \"C\" __global__ void k(float* p) { p[0] = FACTOR; }\n";
  const nf::raw_options options{{"-I" + dir.string()}};
  auto compile = [&] {
    const nf::stats_t before = nf::stats();
    nf::raw_kernel(source, "k", options).compile(90);
    const nf::stats_t after = nf::stats();
    return std::pair(after.kernels_compiled - before.kernels_compiled,
                     after.cache_hits_disk - before.cache_hits_disk);
  };
  const auto first = compile();
  CHECK(first.first + first.second == 1);
  CHECK(compile() == std::pair<std::uint64_t, std::uint64_t>(0, 1));  // a new module, the same program: a hit
  // A header two levels down changes (to a value no earlier run stored in the disk cache).
  const auto fresh = std::chrono::system_clock::now().time_since_epoch().count() % 1000000007;
  write(dir / "inner" / "value.cuh", "#define VALUE " + std::to_string(fresh) + "\n");
  CHECK(compile() == std::pair<std::uint64_t, std::uint64_t>(1, 0));
  CHECK(compile() == std::pair<std::uint64_t, std::uint64_t>(0, 1));
}
#endif

TEST_CASE("raw kernels refuse bad calls at the call", "[raw_kernels]") {
  const nf::raw_kernel twice(twice_source, "twice");
  nf::array x = nf::asarray(nf::arange(8.0), nf::device::cpu());
  nf::array y = nf::asarray(nf::zeros({8}), nf::device::cpu());
  CHECK_THROWS_AS(twice(nf::dim3(0), nf::dim3(8), {x, nf::out(y), 8}), nf::value_error);
  CHECK_THROWS_AS(twice(nf::dim3(1), nf::dim3(8), {x, nf::out(y), 8}), nf::device_error);  // CPU arrays
  {
    nf::device_scope cpu(nf::device::cpu());
    CHECK_THROWS_AS(twice(nf::dim3(1), nf::dim3(8), {8}), nf::device_error);  // no array, the CPU current
  }
  CHECK(y.to_vector<double>() == std::vector<double>(8, 0.0));  // untouched
  CHECK_THROWS_AS(nf::raw_kernel("", "k"), nf::value_error);
  CHECK_THROWS_AS(nf::raw_kernel(twice_source, ""), nf::value_error);
  const fs::path dir = scratch("files");
  write(dir / "k.cu", twice_source);
  CHECK_THROWS_AS(nf::raw_module::from_file((dir / "k.cu").string()), nf::value_error);
  CHECK_THROWS_AS(nf::raw_module::from_file((dir / "missing.cubin").string()), nf::io_error);
  write(dir / "fill.ptx", fill_ptx);
  const nf::raw_module m = nf::raw_module::from_file((dir / "fill.ptx").string());
  CHECK_NOTHROW(m.compile(90));  // a PTX file has nothing to compile
  if (!gpu()) {
    nf::array z = nf::zeros({4}, nf::float32);
    CHECK_THROWS_AS(m.get_function("fill")(nf::dim3(1), nf::dim3(4), {nf::out(z), 1.0f, 4}),
                    nf::device_error);
  }
}

TEST_CASE("raw kernels on the GPU match NumPy", "[raw_kernels]") {
  if (!gpu()) NDFUSE_SKIP("no GPU: raw kernels need one");
  const std::string dir = oracle::oracle_dir("raw_kernels");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_raw_kernels.py writes it");
  const nf::raw_kernel matmul(matmul_source, "matmul", {{"--fmad=false"}});
  const nf::raw_module scale(scale_source, {"scale<float>", "scale<double>"});
  const fs::path files = scratch("gpu");
  write(files / "fill.ptx", fill_ptx);
  const nf::raw_module fill = nf::raw_module::from_file((files / "fill.ptx").string());
  const nf::raw_kernel twice(twice_source, "twice");
  int checked = 0;
  for (const auto& row : oracle::read_manifest(dir)) {
    const std::string& id = row[0];
    INFO(id);
    std::vector<nf::array> in;
    for (const auto& f : oracle::split(row[1], ',')) in.push_back(nf::load(dir + "/" + f));
    nf::array got;
    if (id == "matmul") {
      const int m = 67, k = 45, n = 53;
      got = nf::empty({m, n}, nf::float32);
      matmul(nf::dim3(blocks(n, 16), blocks(m, 16)), nf::dim3(16, 16), {in[0], in[1], nf::out(got), m, k, n});
    } else if (id == "scale_float" || id == "scale_double") {
      const bool f = id == "scale_float";
      got = nf::empty({1001}, f ? nf::float32 : nf::float64);
      const auto k = scale.get_function(f ? "scale<float>" : "scale<double>");
      if (f)
        k(nf::dim3(blocks(1001, 128)), nf::dim3(128), {in[0], nf::out(got), 2.5f, 1001});
      else
        k(nf::dim3(blocks(1001, 128)), nf::dim3(128), {in[0], nf::out(got), 2.5, 1001});
    } else if (id == "fill_ptx") {
      got = in[0];
      fill.get_function("fill")(nf::dim3(3), nf::dim3(128), {nf::out(got), 7.25f, 300});
    } else if (id == "inplace") {
      got = in[0];
      twice(nf::dim3(blocks(777, 256)), nf::dim3(256), {got, nf::out(got), 777});
    }
    CHECK(oracle::compare(got.to_host(), oracle::read_npy(dir + "/" + row[2]), oracle::tolerance{}) == "");
    ++checked;
  }
  CHECK(checked == 5);
}

TEST_CASE("a raw kernel's output keeps value semantics; strided views are refused", "[raw_kernels]") {
  if (!gpu()) NDFUSE_SKIP("no GPU: raw kernels need one");
  const nf::raw_kernel twice(twice_source, "twice");
  const nf::array x = nf::arange(6.0);
  const std::vector<double> doubled{0, 2, 4, 6, 8, 10}, zeros(6, 0.0);
  // A second handle, a pending expression and a view of the output's buffer all keep the old values.
  nf::array y = nf::zeros({6});
  y.eval();
  const nf::array alias = y;
  const nf::array pending = y + 1;
  nf::array base = nf::zeros({12});
  base.eval();
  nf::array view = base(nf::slice(0, 6));
  twice(nf::dim3(1), nf::dim3(64), {x, nf::out(y), 6});
  twice(nf::dim3(1), nf::dim3(64), {x, nf::out(view), 6});
  CHECK(y.to_vector<double>() == doubled);
  CHECK(alias.to_vector<double>() == zeros);
  CHECK(pending.to_vector<double>() == std::vector<double>(6, 1.0));
  CHECK(view.to_vector<double>() == doubled);
  CHECK(base.to_vector<double>() == std::vector<double>(12, 0.0));
  // An output no one else sees is written in place: its buffer stays.
  nf::array own = nf::zeros({6});
  own.eval();
  const void* before = own.node()->storage->data;
  twice(nf::dim3(1), nf::dim3(64), {x, nf::out(own), 6});
  CHECK(own.node()->storage->data == before);
  CHECK(own.to_vector<double>() == doubled);
  // A lazy input is evaluated first; a contiguous slice passes its first element.
  nf::array from_lazy = nf::zeros({6});
  twice(nf::dim3(1), nf::dim3(64), {x + 1, nf::out(from_lazy), 6});
  CHECK(from_lazy.to_vector<double>() == std::vector<double>{2, 4, 6, 8, 10, 12});
  nf::array tail = nf::zeros({3});
  twice(nf::dim3(1), nf::dim3(64), {x(nf::slice(3, 6)), nf::out(tail), 3});
  CHECK(tail.to_vector<double>() == std::vector<double>{6, 8, 10});
  // A strided view is not its base pointer: refused, and nothing is written.
  nf::array out = nf::zeros({3});
  CHECK_THROWS_AS(twice(nf::dim3(1), nf::dim3(64), {x(nf::slice(0, 6, 2)), nf::out(out), 3}),
                  nf::value_error);
  CHECK_THROWS_AS(twice(nf::dim3(1), nf::dim3(64), {x.reshape({2, 3}).T(), nf::out(out), 6}),
                  nf::value_error);
  CHECK(out.to_vector<double>() == std::vector<double>(3, 0.0));
  // A CPU array beside a GPU one, and a missing function.
  CHECK_THROWS_AS(twice(nf::dim3(1), nf::dim3(64), {x.to(nf::device::cpu()), nf::out(out), 3}),
                  nf::device_error);
  CHECK_THROWS_AS(nf::raw_kernel(twice_source, "thrice")(nf::dim3(1), nf::dim3(1), {x, nf::out(out), 3}),
                  nf::value_error);
}

TEST_CASE("raw kernels take large dynamic shared memory and a stream of the user's", "[raw_kernels]") {
  if (!gpu()) NDFUSE_SKIP("no GPU: raw kernels need one");
  // Reverses n values through shared memory: 64 KiB needs the kernel's opt-in, which the launch makes.
  const nf::raw_kernel reverse(R"(
extern "C" __global__ void reverse(const double* x, double* y, int n) {
  extern __shared__ double buffer[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) buffer[i] = x[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = buffer[n - 1 - i];
})",
                               "reverse");
  const int n = 8192;  // 64 KiB of doubles
  const nf::array x = nf::arange(double(n));
  nf::array y = nf::empty({n});
  reverse(nf::dim3(1), nf::dim3(256), {x, nf::out(y), n}, {.shared_mem = n * sizeof(double)});
  CHECK(y.to_vector<double>() ==
        nf::arange(double(n))(nf::slice(nf::none, nf::none, -1)).to_vector<double>());
  nf::cuda::stream s;
  nf::array z = nf::empty({n});
  reverse(nf::dim3(1), nf::dim3(256), {y, nf::out(z), n}, {.shared_mem = n * sizeof(double), .stream = &s});
  s.synchronize();
  CHECK(z.to_vector<double>() == x.to_vector<double>());
}
