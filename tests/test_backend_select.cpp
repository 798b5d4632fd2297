// Backend selection where no CUDA device is present: asking for the cuda backend, or for an unknown
// one, fails loudly at first use, and the device API reports no device. The tests skip on a GPU
// machine, where test_cuda_backend.cpp covers the device.
#include "catch.hpp"
#include "child_process.hpp"
#include "ndfuse/device.hpp"
#include "ndfuse/ndfuse.hpp"

using ndfuse_test::is_child;
using ndfuse_test::run_self;

TEST_CASE("NDFUSE_BACKEND=cuda without a usable device fails loudly", "[cuda][cpu]") {
  if (nf::cuda::device_count() > 0) NDFUSE_SKIP("a CUDA device is present");
  CHECK(run_self("cuda child: asking for cuda without a device throws device_error",
                 {"NDFUSE_BACKEND=cuda", "NDFUSE_TEST_CHILD=no_device"}) == 0);
  CHECK(run_self("cuda child: asking for cuda without a device throws device_error",
                 {"NDFUSE_BACKEND=gpu", "NDFUSE_TEST_CHILD=no_device"}) == 0);
}

TEST_CASE("cuda child: asking for cuda without a device throws device_error", "[.][cuda_child]") {
  if (!is_child("no_device")) NDFUSE_SKIP("runs only as a child process of another test case");
  CHECK_THROWS_AS(nf::backend_name(), nf::device_error);
  CHECK_THROWS_AS(nf::array({1.0, 2.0}), nf::device_error);
}

TEST_CASE("without a device the cuda API reports none", "[cuda][cpu]") {
  if (nf::cuda::device_count() > 0) NDFUSE_SKIP("a CUDA device is present");
  CHECK_THROWS_AS(nf::cuda::set_device(0), nf::device_error);
  CHECK_THROWS_AS(nf::cuda::stream(), nf::device_error);
}
