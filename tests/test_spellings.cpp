// NumPy's spellings in ndfuse: every dtype spelling numpy.dtype() accepts for a supported dtype
// (tests/oracle/gen_spellings.py lists them with NumPy's answers), astype with those strings,
// variadic reshape and transpose, and the dtype of initializer lists.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "oracle_support.hpp"

namespace {

std::vector<std::vector<std::string>> read_tsv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      row.push_back(line.substr(start, tab - start));
    row.push_back(line.substr(start));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("dtype spellings are numpy.dtype's", "[spellings]") {
  const std::string dir = oracle::oracle_dir("spellings");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_spellings.py writes it");
  int checked = 0;
  const nf::array x = nf::array({1.5, -2.0});
  for (const auto& row : read_tsv(dir + "/dtypes.tsv")) {
    INFO("spelling '" << row[0] << "'");
    if (row[1] == "RAISES") {
      CHECK_THROWS_AS(nf::dtype_from_name(row[0]), nf::dtype_error);
      CHECK_THROWS_AS(x.astype(row[0]), nf::dtype_error);
    } else {
      CHECK(nf::dtype_name(nf::dtype_from_name(row[0])) == row[1]);
      CHECK(nf::dtype_name(x.astype(row[0]).dtype()) == row[1]);
    }
    ++checked;
  }
  CHECK(checked > 90);
}

TEST_CASE("initializer lists take NumPy's dtypes for Python literals", "[spellings]") {
  const std::string dir = oracle::oracle_dir("spellings");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_spellings.py writes it");
  const std::map<std::string, nf::array> built{{"ints", nf::array({1, 2, 3})},
                                               {"floats", nf::array({1.0, 2.5})},
                                               {"bools", nf::array({true, false})},
                                               {"int_rows", nf::array({{1, 2}, {3, 4}})},
                                               {"float_rows", nf::array({{1.0}, {2.0}})}};
  for (const auto& row : read_tsv(dir + "/lists.tsv")) {
    INFO(row[0]);
    const nf::array& a = built.at(row[0]);
    CHECK(nf::dtype_name(a.dtype()) == row[1]);
    std::ostringstream shape;
    for (std::size_t i = 0; i < a.shape().size(); ++i) shape << (i ? " " : "") << a.shape()[i];
    CHECK(shape.str() == row[2]);
  }
  CHECK(nf::array({1, 2, 3}).to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 2, 3});
  CHECK(nf::array({true, false}).to_vector<bool>() == std::vector<bool>{true, false});
}

TEST_CASE("reshape and transpose take their sizes and axes as arguments", "[spellings]") {
  const nf::array x = nf::arange(6);
  CHECK(x.reshape(2, 3).shape() == nf::shape_t{2, 3});
  CHECK(x.reshape(3, -1).shape() == nf::shape_t{3, 2});
  CHECK(x.reshape(6).shape() == nf::shape_t{6});
  CHECK(nf::array_equal(x.reshape(2, 3), x.reshape({2, 3})));
  const nf::array t = x.reshape(1, 2, 3).transpose(2, 0, 1);
  CHECK(t.shape() == nf::shape_t{3, 1, 2});
  CHECK(nf::array_equal(t, nf::transpose(x.reshape(1, 2, 3), {2, 0, 1})));
  CHECK(nf::array_equal((x * 2).reshape(3, 2).transpose(1, 0), (x * 2).reshape(3, 2).T()));
  CHECK_THROWS_AS(x.reshape(4, 2), nf::shape_error);
}

TEST_CASE("finfo and iinfo give NumPy's limits", "[spellings]") {
  const std::string dir = oracle::oracle_dir("spellings");
  if (dir.empty()) NDFUSE_SKIP("no NumPy oracle data: tests/oracle/gen_spellings.py writes it");
  int checked = 0;
  for (const auto& row : read_tsv(dir + "/finfo.tsv")) {
    INFO("finfo " << row[0]);
    if (row[1] == "RAISES") {
      CHECK_THROWS_AS(nf::finfo(row[0]), nf::value_error);
      continue;
    }
    const nf::finfo f(row[0]);
    CHECK(nf::dtype_name(f.dtype) == row[1]);
    const std::vector<double> got{double(f.bits),
                                  f.eps,
                                  f.epsneg,
                                  f.max,
                                  f.min,
                                  f.tiny,
                                  f.smallest_normal,
                                  f.smallest_subnormal,
                                  f.resolution,
                                  double(f.precision),
                                  double(f.maxexp),
                                  double(f.minexp),
                                  double(f.nexp),
                                  double(f.nmant),
                                  double(f.machep),
                                  double(f.negep),
                                  double(f.iexp)};
    REQUIRE(row.size() == got.size() + 2);
    // strtod, not stod: stod refuses subnormals (5e-324) as out of range.
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == std::strtod(row[i + 2].c_str(), nullptr));
    ++checked;
  }
  for (const auto& row : read_tsv(dir + "/iinfo.tsv")) {
    INFO("iinfo " << row[0]);
    if (row[1] == "RAISES") {
      CHECK_THROWS_AS(nf::iinfo(row[0]), nf::value_error);
      continue;
    }
    const nf::iinfo i(row[0]);
    CHECK(i.bits == std::stoi(row[1]));
    CHECK(i.min == std::stoll(row[2]));
    CHECK(i.max == std::stoull(row[3]));
    ++checked;
  }
  CHECK(checked == 13);
}
