// Ops on existing arrays run on their arrays' device whatever the current device is (DESIGN.md §10),
// composites included: the coordinates, zeros and constants a composite makes for itself land on its
// operands' device, not on the current one. Each case builds the same call twice on CPU arrays: once
// with the CPU current, once with cuda:0 current (only the thread's placement is set, so no GPU is
// needed: a helper placed on cuda:0 throws device_error when it meets a CPU operand, or gives a
// result on cuda:0). The second must not throw, must be on the CPU, and must equal the first bit for
// bit; the values themselves are checked against NumPy by each function's own test.
#include <functional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ir/placement.hpp"
#include "ndfuse/ndfuse.hpp"

namespace {

// cuda:0 as this thread's current device for the scope's life, whether or not a GPU is present.
class gpu_current {
 public:
  gpu_current() : previous_(nf::ir::set_thread_placement(nf::ir::placement::of(nf::device::cuda(0)))) {}
  ~gpu_current() { nf::ir::set_thread_placement(previous_); }
  gpu_current(const gpu_current&) = delete;
  gpu_current& operator=(const gpu_current&) = delete;

 private:
  nf::ir::placement previous_;
};

void same_with_gpu_current(const std::string& what, const std::function<nf::array()>& call) {
  INFO(what);
  const nf::array want = call();
  nf::array got;
  {
    gpu_current other;
    try {
      got = call();
      got.eval();
    } catch (const std::exception& e) {
      FAIL_CHECK(what << " threw with cuda:0 current: " << e.what());
      return;
    }
  }
  CHECK(got.device() == nf::device::cpu());
  CHECK(got.shape() == want.shape());
  CHECK(got.dtype() == want.dtype());
  CHECK(got.to_host().bytes == want.to_host().bytes);
}

}  // namespace

TEST_CASE("composites make their own arrays on their operands' device", "[devices]") {
  nf::device_scope cpu(nf::device::cpu());
  const nf::array m = nf::arange(12.0).reshape({3, 4}) * 0.5 - 2.0;
  const nf::array v = nf::array({3.0, -1.0, 2.0, 2.0, 0.5, 7.0});
  const nf::array sq = nf::array({4.0, 1.0, 0.5, 1.0, 3.0, 0.25, 0.5, 0.25, 2.0}).reshape({3, 3});
  const nf::array iv = nf::array({0, 3, 1, 3, 2});
  const nf::array c = v.astype(nf::dtype::complex128);
  // Every other operand, made before cuda:0 is current: a call's arrays all live on the CPU.
  const nf::array nine = nf::array({9.0});
  const nf::array one = nf::array({1.0});
  const nf::array picks = nf::array({0, 1, 1, 0});
  const nf::array rows_kept = nf::array({true, false, true});
  const nf::array two_seven = nf::array({2.0, 7.0});
  const nf::array two = nf::array({2.0});
  const nf::array two_eight = nf::array({2.0, 8.0});
  const nf::array tenths = nf::array({0.1, 0.9});
  const nf::array weights = nf::array({1.0, 2.0, 3.0});
  const nf::array bins = nf::array({0.0, 1.0, 3.0});
  const nf::array xp = nf::array({0.0, 1.0, 5.0});
  const nf::array fp = nf::array({0.0, 2.0, 3.0});
  const nf::array kernel = nf::array({1.0, 0.5});
  const nf::array quadratic = nf::array({1.0, -2.0, 0.5});
  const nf::array linear = nf::array({1.0, 2.0});
  const nf::array x6 = nf::arange(6.0), r4 = nf::arange(4.0);
  const nf::array roots_1_2 = nf::array({1.0, -3.0, 2.0});
  const std::vector<std::pair<std::string, std::function<nf::array()>>> calls = {
      // joining, padding, moving
      {"concatenate",
       [&] {
         return nf::concatenate({m, m * 2.0}, 1);
       }},
      {"concatenate flat",
       [&] {
         return nf::concatenate({m, v}, nf::none);
       }},
      {"stack",
       [&] {
         return nf::stack({v, v + 1.0});
       }},
      {"hstack",
       [&] {
         return nf::hstack({v, v});
       }},
      {"vstack",
       [&] {
         return nf::vstack({m, m});
       }},
      {"dstack",
       [&] {
         return nf::dstack({m, m});
       }},
      {"column_stack",
       [&] {
         return nf::column_stack({v, v});
       }},
      {"append", [&] { return nf::append(v, v); }},
      {"pad constant", [&] { return nf::pad(m, 2); }},
      {"pad reflect", [&] { return nf::pad(m, 1, "reflect"); }},
      {"pad edge", [&] { return nf::pad(m, 1, "edge"); }},
      {"roll", [&] { return nf::roll(m, 3); }},
      {"roll axis", [&] { return nf::roll(m, -1, 1); }},
      {"tile", [&] { return nf::tile(v, 3); }},
      {"repeat", [&] { return nf::repeat(m, 2, 0); }},
      {"insert", [&] { return nf::insert(v, 2, nine); }},
      {"delete",
       [&] {
         return nf::delete_(v, std::vector<std::int64_t>{0, 3});
       }},
      {"resize",
       [&] {
         return nf::resize(v, {4, 4});
       }},
      {"trim_zeros", [&] { return nf::trim_zeros(nf::pad(v, 2)); }},
      {"rot90", [&] { return nf::rot90(m); }},
      {"flip", [&] { return nf::flip(m); }},
      {"array_split", [&] { return nf::array_split(v, 4)[3]; }},
      {"diff", [&] { return nf::diff(m, 2); }},
      {"ediff1d", [&] { return nf::ediff1d(v, one); }},
      // triangles and diagonals
      {"diag", [&] { return nf::diag(v, 1); }},
      {"diagflat", [&] { return nf::diagflat(v); }},
      {"tril", [&] { return nf::tril(m, -1); }},
      {"triu", [&] { return nf::triu(m, 1); }},
      {"trace", [&] { return nf::trace(m); }},
      {"vander", [&] { return nf::vander(v, 3); }},
      // selection and indexing
      {"where", [&] { return nf::where(m > 0.0, m, 0.0); }},
      {"select",
       [&] {
         return nf::select({v > 2.0, v < 0.0}, {v, -v}, 5);
       }},
      {"choose",
       [&] {
         return nf::choose(picks, {m(0), m(1)});
       }},
      {"clip", [&] { return nf::clip(m, -1.0, 1.0); }},
      {"take", [&] { return nf::take(v, iv); }},
      {"take_along_axis", [&] { return nf::take_along_axis(v, nf::argsort(v), 0); }},
      {"extract", [&] { return nf::extract(v > 1.0, v); }},
      {"nonzero", [&] { return nf::nonzero(m > 0.0)[1]; }},
      {"argwhere", [&] { return nf::argwhere(m > 0.0); }},
      {"flatnonzero", [&] { return nf::flatnonzero(v - 2.0); }},
      {"compress", [&] { return nf::compress(rows_kept, m, 0); }},
      {"ravel_multi_index",
       [&] {
         return nf::ravel_multi_index({iv, iv}, {4, 4});
       }},
      {"unravel_index",
       [&] {
         return nf::unravel_index(iv, {2, 2})[1];
       }},
      // sorting, sets, searching
      {"sort", [&] { return nf::sort(m, 0); }},
      {"argsort", [&] { return nf::argsort(v); }},
      {"partition", [&] { return nf::partition(v, 2); }},
      {"argpartition", [&] { return nf::argpartition(v, 2); }},
      {"lexsort",
       [&] {
         return nf::lexsort({v, -v});
       }},
      {"searchsorted", [&] { return nf::searchsorted(nf::sort(v), v); }},
      {"unique", [&] { return nf::unique(v); }},
      {"unique_counts", [&] { return nf::unique_counts(v).counts; }},
      {"unique_inverse", [&] { return nf::unique_inverse(v).inverse_indices; }},
      {"isin", [&] { return nf::isin(v, two_seven); }},
      {"union1d", [&] { return nf::union1d(v, nine); }},
      {"intersect1d", [&] { return nf::intersect1d(v, two_seven); }},
      {"setdiff1d", [&] { return nf::setdiff1d(v, two); }},
      {"setxor1d", [&] { return nf::setxor1d(v, two_eight); }},
      {"sort_complex", [&] { return nf::sort_complex(c); }},
      // statistics
      {"median", [&] { return nf::median(m, 1); }},
      {"nanmedian", [&] { return nf::nanmedian(v); }},
      {"percentile", [&] { return nf::percentile(v, 30.0); }},
      {"quantile array", [&] { return nf::quantile(m, tenths, 0); }},
      {"average", [&] { return nf::average(m, 0, weights); }},
      {"var", [&] { return nf::var(m, 1, 1.0); }},
      {"nanstd", [&] { return nf::nanstd(v); }},
      {"cov", [&] { return nf::cov(m); }},
      {"corrcoef", [&] { return nf::corrcoef(m); }},
      {"histogram", [&] { return nf::histogram(v, 4).hist; }},
      {"histogram edges", [&] { return nf::histogram(v, 4).bin_edges; }},
      {"bincount", [&] { return nf::bincount(iv, 6); }},
      {"digitize", [&] { return nf::digitize(v, bins); }},
      {"cumsum", [&] { return nf::cumsum(m, 1); }},
      {"nancumprod", [&] { return nf::nancumprod(v); }},
      // numerical and polynomials
      {"gradient", [&] { return nf::gradient(m)[0]; }},
      {"trapezoid", [&] { return nf::trapezoid(v); }},
      {"interp", [&] { return nf::interp(v, xp, fp); }},
      {"convolve", [&] { return nf::convolve(v, kernel); }},
      {"correlate", [&] { return nf::correlate(v, kernel, "same"); }},
      {"unwrap", [&] { return nf::unwrap(v * 2.0); }},
      {"i0", [&] { return nf::i0(v); }},
      {"sinc", [&] { return nf::sinc(v); }},
      {"nan_to_num", [&] { return nf::nan_to_num(v / 0.0); }},
      {"isclose", [&] { return nf::isclose(v, v + 1e-9); }},
      {"polyval", [&] { return nf::polyval(quadratic, v); }},
      {"polyadd", [&] { return nf::polyadd(linear, v); }},
      {"polymul", [&] { return nf::polymul(linear, v); }},
      {"poly", [&] { return nf::poly(linear); }},
      {"roots", [&] { return nf::roots(roots_1_2); }},
      {"polyfit", [&] { return nf::polyfit(x6, v, 2); }},
      {"cross", [&] { return nf::cross(sq, sq * 2.0 + 1.0); }},
      // products and linear algebra
      {"matmul", [&] { return nf::matmul(m.T(), m); }},
      {"dot", [&] { return nf::dot(v, v); }},
      {"outer", [&] { return nf::outer(v, v); }},
      {"kron", [&] { return nf::kron(sq, sq); }},
      {"tensordot", [&] { return nf::tensordot(m, m, std::vector<int>{1}, std::vector<int>{1}); }},
      {"einsum",
       [&] {
         return nf::einsum("ij,kj->ik", {m, m});
       }},
      {"norm", [&] { return nf::linalg::norm(m); }},
      {"norm 2", [&] { return nf::linalg::norm(sq, 2); }},
      {"det", [&] { return nf::linalg::det(sq); }},
      {"inv", [&] { return nf::linalg::inv(sq); }},
      {"solve", [&] { return nf::linalg::solve(sq, v(nf::slice(0, 3))); }},
      {"cholesky", [&] { return nf::linalg::cholesky(sq); }},
      {"qr", [&] { return nf::linalg::qr(m).R; }},
      {"svd", [&] { return nf::linalg::svd(m, false).S; }},
      {"eigh", [&] { return nf::linalg::eigh(sq).eigenvalues; }},
      {"eigvals", [&] { return nf::linalg::eigvals(sq); }},
      {"pinv", [&] { return nf::linalg::pinv(m); }},
      {"lstsq", [&] { return nf::linalg::lstsq(m.T(), r4).x; }},
      {"matrix_rank", [&] { return nf::linalg::matrix_rank(m); }},
      {"matrix_power", [&] { return nf::linalg::matrix_power(sq, 0); }},
      {"matrix_power -2", [&] { return nf::linalg::matrix_power(sq, -2); }},
      {"cond", [&] { return nf::linalg::cond(sq); }},
      {"slogdet", [&] { return nf::linalg::slogdet(sq).logabsdet; }},
      // fft
      {"fft", [&] { return nf::fft::fft(v, 8); }},
      {"rfft", [&] { return nf::fft::rfft(m); }},
      {"irfft", [&] { return nf::fft::irfft(c, 10); }},
      {"fft2", [&] { return nf::fft::fft2(m); }},
      {"fftshift", [&] { return nf::fft::fftshift(v); }},
      // reductions
      {"sum", [&] { return nf::sum(m, 0); }},
      {"argmax", [&] { return nf::argmax(m, 1); }},
      {"mean", [&] { return nf::mean(m); }},
  };
  for (const auto& [what, call] : calls) same_with_gpu_current(what, call);
}

namespace {

// An in-place call on a copy of a CPU array (the copy, an op on `start`, is made on its device).
void same_edit_with_gpu_current(const std::string& what, const nf::array& start,
                                const std::function<void(nf::array&)>& edit) {
  same_with_gpu_current(what, [&] {
    nf::array a = nf::copy(start);
    edit(a);
    return a;
  });
}

}  // namespace

TEST_CASE("indexing, in-place routines and edge cases stay on their operands' device", "[devices]") {
  nf::device_scope cpu(nf::device::cpu());
  const nf::array m = nf::arange(12.0).reshape({3, 4}) * 0.5 - 2.0;
  const nf::array v = nf::array({3.0, -1.0, 2.0, 2.0, 0.5, 7.0});
  const nf::array small = nf::array({1, -2, 3}).astype(nf::dtype::int8);
  const nf::array picks = nf::array({0, 2, 2});
  const nf::array mask = v > 1.0;
  const nf::array ones3 = nf::ones({3});
  const nf::array empty_rows = nf::zeros({0, 3});
  const nf::array empty_ints = nf::zeros({0}, nf::dtype::int64);
  const nf::array singular = nf::ones({2, 2});
  const nf::array empty_stack = nf::zeros({2, 0, 3}), no_rows = nf::zeros({0, 2}),
                  empty_values = nf::zeros({0});
  const nf::array zero_column = nf::zeros({3, 1});
  const std::vector<std::pair<std::string, std::function<nf::array()>>> calls = {
      {"boolean index", [&] { return v(mask); }},
      {"integer array index", [&] { return m(picks); }},
      {"index of a 0-d bool", [&] { return v(nf::slice(0, 1))(0)(mask(0)); }},
      {"int8 against an out-of-range constant", [&] { return small > 1000; }},
      {"int8 equal to an out-of-range constant", [&] { return small == -1000; }},
      {"ldexp by an integer", [&] { return nf::ldexp(v, 3); }},
      {"searchsorted scalar", [&] { return nf::searchsorted(nf::sort(v), 2.0); }},
      {"piecewise",
       [&] {
         return nf::piecewise(v, {v > 1.0}, {nf::piece(1.0), nf::piece(-1.0)});
       }},
      {"bincount of nothing", [&] { return nf::bincount(empty_ints, 3); }},
      {"unique of nothing", [&] { return nf::unique_inverse(empty_ints).inverse_indices; }},
      {"cov of nothing", [&] { return nf::cov(empty_rows); }},
      {"matmul of an empty sum", [&] { return nf::matmul(empty_rows.T(), empty_rows); }},
      {"norm of an empty stack",
       [&] {
         return nf::linalg::norm(empty_stack, 2, std::vector<int>{1, 2});
       }},
      {"lstsq of nothing", [&] { return nf::linalg::lstsq(no_rows, empty_values).x; }},
      {"matrix_rank with tol", [&] { return nf::linalg::matrix_rank(m, 0.1); }},
      {"pinv of nothing", [&] { return nf::linalg::pinv(no_rows); }},
      {"apply_along_axis",
       [&] { return nf::apply_along_axis([](const nf::array& r) { return nf::sum(r); }, 1, m); }},
      {"kron", [&] { return nf::kron(v, ones3); }},
      {"ifft with n", [&] { return nf::fft::ifft(v, 9); }},
      {"hfft", [&] { return nf::fft::hfft(v, 7); }},
      {"irfftn with s",
       [&] {
         return nf::fft::irfftn(m, {4, 5});
       }},
      {"ifftshift", [&] { return nf::fft::ifftshift(m); }},
  };
  for (const auto& [what, call] : calls) same_with_gpu_current(what, call);

  same_edit_with_gpu_current("fill", m, [](nf::array& a) { a.fill(3.5); });
  same_edit_with_gpu_current("masked assignment", m, [](nf::array& a) { a(a > 0.0) = 1.0; });
  same_edit_with_gpu_current("index assignment", v, [&](nf::array& a) { a(picks) = 9.0; });
  same_edit_with_gpu_current("compound index assignment", v, [&](nf::array& a) { a(picks) += 1.0; });
  same_edit_with_gpu_current("place", v, [&](nf::array& a) { nf::place(a, mask, ones3); });
  same_edit_with_gpu_current("put", v, [&](nf::array& a) { nf::put(a, picks, ones3); });
  same_edit_with_gpu_current("putmask", v, [&](nf::array& a) { nf::putmask(a, mask, ones3); });
  same_edit_with_gpu_current("put_along_axis", m, [&](nf::array& a) {
    nf::put_along_axis(a, nf::argsort(a, 1)(nf::slice(0, 3), nf::slice(0, 1)), zero_column, 1);
  });
  same_edit_with_gpu_current("fill_diagonal", m, [](nf::array& a) { nf::fill_diagonal(a, 7.0); });
  same_edit_with_gpu_current("copyto", m, [&](nf::array& a) { nf::copyto(a, m * 2.0); });
  same_edit_with_gpu_current("in-place add", m, [](nf::array& a) { a += 2.0; });

  // A failing solver names the matrix, as on the current device.
  gpu_current other;
  CHECK_THROWS_AS(nf::linalg::inv(singular).eval(), nf::linalg_error);
}

TEST_CASE("the rest of the surface stays on its operands' device", "[devices]") {
  nf::device_scope cpu(nf::device::cpu());
  const nf::array m = nf::arange(12.0).reshape({3, 4}) * 0.5 - 2.0;
  const nf::array v = nf::array({3.0, -1.0, 2.0, 2.0, 0.5, 7.0});
  const nf::array sq = nf::array({4.0, 1.0, 0.5, 1.0, 3.0, 0.25, 0.5, 0.25, 2.0}).reshape({3, 3});
  const nf::array with_nan = nf::array({1.0, std::nan(""), -3.0, 2.0});
  const nf::array cube = nf::arange(24.0).reshape({2, 3, 4});
  const nf::array spacing = nf::array({0.0, 1.0, 3.0});
  const nf::array picks = nf::array({0, 2, 5});
  const nf::array tensor = nf::eye(6).reshape({6, 2, 3}) * 2.0 + 1.0;
  const nf::array rhs = nf::arange(6.0);
  const nf::array sample = nf::arange(12.0).reshape({6, 2});
  const std::vector<std::pair<std::string, std::function<nf::array()>>> calls = {
      {"cumulative_sum with the initial 0", [&] { return nf::cumulative_sum(v, 0, std::nullopt, true); }},
      {"cumulative_prod with the initial 1", [&] { return nf::cumulative_prod(v, 0, std::nullopt, true); }},
      {"meshgrid",
       [&] {
         return nf::meshgrid({v, spacing})[1];
       }},
      {"ix_",
       [&] {
         return nf::ix_({picks, picks})[1];
       }},
      {"broadcast_arrays",
       [&] {
         return nf::broadcast_arrays({m, v(nf::slice(0, 4))})[1];
       }},
      {"tensorsolve", [&] { return nf::linalg::tensorsolve(tensor, rhs); }},
      {"tensorinv",
       [&] {
         return nf::linalg::tensorinv(tensor.reshape({6, 6}) * 1.0, 1);
       }},
      {"multi_dot",
       [&] {
         return nf::linalg::multi_dot({m.T(), m, v(nf::slice(0, 4))});
       }},
      {"histogramdd",
       [&] {
         return nf::histogramdd(sample, {3, 2}).hist;
       }},
      {"histogramdd edges",
       [&] {
         return nf::histogramdd(sample, {3, 2}).edges[0];
       }},
      {"nanpercentile", [&] { return nf::nanpercentile(with_nan, 40.0); }},
      {"eigvalsh", [&] { return nf::linalg::eigvalsh(sq); }},
      {"svdvals", [&] { return nf::linalg::svdvals(m); }},
      {"take along an axis", [&] { return nf::take(cube, picks(nf::slice(0, 2)), 2); }},
      {"repeat", [&] { return nf::repeat(v, 3); }},
      {"round", [&] { return nf::round(v * 1.2345, 2); }},
      {"real_if_close", [&] { return nf::real_if_close(v.astype(nf::dtype::complex128)); }},
      {"diag_indices_from", [&] { return nf::diag_indices_from(sq)[0]; }},
      {"tril_indices_from", [&] { return nf::tril_indices_from(sq)[1]; }},
      {"gradient with coordinates",
       [&] {
         return nf::gradient(sq, {spacing, spacing})[1];
       }},
      {"polysub", [&] { return nf::polysub(v, spacing); }},
      {"argpartition", [&] { return nf::argpartition(m, 1, 0); }},
      {"nanmax", [&] { return nf::nanmax(with_nan); }},
      {"nanargmax", [&] { return nf::nanargmax(with_nan); }},
      {"ptp", [&] { return nf::ptp(m, 1); }},
      {"count_nonzero", [&] { return nf::count_nonzero(m); }},
      {"nan_to_num with limits", [&] { return nf::nan_to_num(with_nan / 0.0, 1.0, 2.0, -2.0); }},
      {"apply_over_axes",
       [&] {
         return nf::apply_over_axes([](const nf::array& a, int ax) { return nf::sum(a, ax, true); }, cube,
                                    {0, 2});
       }},
      {"fftn with s",
       [&] {
         return nf::fft::fftn(cube, {3, 3}, {0, 1});
       }},
      {"irfft2", [&] { return nf::fft::irfft2(m.astype(nf::dtype::complex128)); }},
      {"matrix_transpose", [&] { return nf::matrix_transpose(cube); }},
      {"sort in place",
       [&] {
         nf::array a = nf::copy(v);
         a.sort();
         return a;
       }},
  };
  for (const auto& [what, call] : calls) same_with_gpu_current(what, call);
  {
    gpu_current other;
    CHECK(nf::array_equal(v, v));
    CHECK(nf::allclose(m, m + 1e-12));
  }
}
