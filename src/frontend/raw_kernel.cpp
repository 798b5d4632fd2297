// nf::raw_kernel and nf::raw_module (include/ndfuse/raw_kernel.hpp): the arguments' checks, their
// evaluation, copy-on-write of outputs, and the launch through the CUDA backend
// (src/backend/raw_program.hpp).
#include "ndfuse/raw_kernel.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "backend/raw_program.hpp"
#include "ir/node.hpp"
#include "ndfuse/error.hpp"
#include "runtime/device.hpp"
#include "runtime/device_guard.hpp"

namespace ndfuse {

namespace {

// A template instance or a qualified name is looked up through NVRTC's name expressions.
bool needs_expression(const std::string& name) {
  return name.find_first_of("<:") != std::string::npos;
}

std::shared_ptr<detail::raw_program> source_program(std::string source, std::string name,
                                                    std::vector<std::string> expressions,
                                                    raw_options options) {
  if (source.empty()) throw value_error("raw module: the source is empty");
  auto p = std::make_shared<detail::raw_program>();
  p->source = std::move(source);
  p->name = std::move(name);
  p->options = std::move(options.options);
  p->name_expressions = std::move(expressions);
  return p;
}

// Whether the memory from the first element is the elements in C order (size-1 dims aside).
bool c_contiguous(const ir::node& n) {
  std::int64_t expected = 1;
  for (std::size_t d = n.shape.size(); d-- > 0;) {
    if (n.shape[d] == 0) return true;
    if (n.shape[d] != 1 && n.strides[d] != expected) return false;
    expected *= n.shape[d];
  }
  return true;
}

std::string argument_name(std::size_t i) {
  return "raw kernel argument " + std::to_string(i + 1);
}

// The device every array argument is on (device_error for two, or for the CPU).
device launch_device(std::initializer_list<raw_arg> args) {
  std::optional<device> d;
  std::size_t first = 0, i = 0;
  for (const raw_arg& a : args) {
    const array* x = a.in ? a.in : a.target;
    if (x) {
      const device here = x->device();
      if (!d) {
        d = here;
        first = i;
      } else if (here != *d) {
        throw device_error(argument_name(first) + " is on " + d->str() + " and " + argument_name(i) + " on " +
                           here.str() + ": move one with .to(" + d->str() + ")");
      }
    }
    ++i;
  }
  const device on = d.value_or(current_device());
  if (on.is_cpu())
    throw device_error(
        "raw kernels need a GPU: " +
        (d ? argument_name(first) + " is on the CPU device; move it with .to(nf::device::cuda(0))"
           : std::string("this thread's current device is the CPU")));
  return on;
}

// Whether writing z's buffer could be seen through anything but z.
bool shared(const array& z) {
  const auto& n = z.node();
  return n.use_count() > 1 || n->storage.use_count() > 1;
}

}  // namespace

raw_kernel::raw_kernel(std::string source, std::string name, raw_options options) : name_(std::move(name)) {
  if (name_.empty()) throw value_error("raw_kernel: the kernel's name is empty");
  std::vector<std::string> expressions;
  if (needs_expression(name_)) expressions.push_back(name_);
  program_ = source_program(std::move(source), name_.substr(0, name_.find_first_of("<:")),
                            std::move(expressions), std::move(options));
}

raw_kernel::raw_kernel(std::shared_ptr<detail::raw_program> program, std::string name)
    : program_(std::move(program)), name_(std::move(name)) {}

void raw_kernel::compile(int sm) const {
  detail::compile(*program_, sm);
}

std::string raw_kernel::lowered_name(int sm) const {
  return detail::lowered_name(*program_, name_, sm);
}

void raw_kernel::operator()(dim3 grid, dim3 block, std::initializer_list<raw_arg> args,
                            launch_options launch) const {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    throw value_error("raw kernel " + name_ + ": a grid or block dimension is 0");
  std::optional<cuda::stream_scope> on_stream;
  if (launch.stream) on_stream.emplace(*launch.stream);
  const device d = launch_device(args);
  runtime::device_guard guard(d);
  // Outputs first: each gets a buffer only it sees (copied where another handle could see it), so
  // that an argument passed both plainly and as nf::out(z) reads the buffer the kernel writes.
  for (const raw_arg& a : args)
    if (a.target) {
      array& z = *a.target;
      z.eval();
      if (shared(z)) {
        z = z.copy();
        z.eval();
      }
    }
  std::vector<std::shared_ptr<ir::node>> nodes;  // alive until the launch is enqueued
  std::vector<void*> pointers(args.size(), nullptr);
  std::vector<void*> params;
  params.reserve(args.size());
  std::size_t i = 0;
  for (const raw_arg& a : args) {
    if (const array* x = a.in ? a.in : a.target) {
      x->eval();
      const auto& n = x->node();
      if (!c_contiguous(*n))
        throw value_error(argument_name(i) + " is a strided view (shape " + shape_str(n->shape) +
                          "): a raw kernel reads its memory in C order; pass nf::ascontiguousarray(x)");
      if (n->storage && n->storage->data)
        pointers[i] =
            static_cast<char*>(n->storage->data) + n->offset * static_cast<std::int64_t>(itemsize(n->dt));
      nodes.push_back(n);
      params.push_back(&pointers[i]);
    } else {
      params.push_back(const_cast<std::max_align_t*>(a.value.data()));
    }
    ++i;
  }
  detail::raw_launch l{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, launch.shared_mem};
  detail::launch(*program_, name_, d.index(), l, params.data());
}

raw_module::raw_module(std::string source, std::vector<std::string> name_expressions, raw_options options)
    : program_(
          source_program(std::move(source), "raw_module", std::move(name_expressions), std::move(options))) {}

raw_module raw_module::from_file(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext != ".cubin" && ext != ".ptx" && ext != ".fatbin")
    throw value_error("raw_module::from_file: " + path +
                      " is not a .cubin, .ptx or .fatbin file (CUDA source goes to raw_module(source))");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw io_error("raw_module::from_file: cannot read " + path);
  std::ostringstream os;
  os << f.rdbuf();
  auto p = std::make_shared<detail::raw_program>();
  p->image = os.str();
  if (p->image.empty()) throw value_error("raw_module::from_file: " + path + " is empty");
  p->image_path = path;
  p->name = std::filesystem::path(path).stem().string();
  return raw_module(std::move(p));
}

raw_kernel raw_module::get_function(const std::string& name) const {
  if (name.empty()) throw value_error("raw_module::get_function: the name is empty");
  return raw_kernel(program_, name);
}

void raw_module::compile(int sm) const {
  detail::compile(*program_, sm);
}

std::string raw_module::lowered_name(const std::string& name, int sm) const {
  return detail::lowered_name(*program_, name, sm);
}

}  // namespace ndfuse
