// nf::savez, nf::savez_compressed and nf::load_npz against NumPy 2: archives ndfuse writes must
// np.load (and pass zipfile's CRC check) to the arrays NumPy builds (tests/oracle/check_npz.py);
// archives NumPy and zipfile write (tests/oracle/gen_npz.py) must load to the values NumPy lists;
// damaged archives throw nf::value_error naming the file, unreadable ones nf::io_error.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "ndfuse/ndfuse.hpp"
#include "npy_support.hpp"

namespace nf = ndfuse;
namespace fs = std::filesystem;
using namespace npy_support;

namespace {

constexpr int many_members = 70000;  // past the 65535 members the classic end record can count

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::string thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const nf::error& e) {
    return e.what();
  }
  return "no exception";
}

}  // namespace

TEST_CASE("nf::savez and nf::savez_compressed write archives NumPy loads exactly", "[npz][oracle]") {
  const std::string py = numpy_python();
  if (py.empty()) NDFUSE_SKIP("NDFUSE_PYTHON is unset or has no NumPy 2");
  const fs::path dir = scratch_dir("npz_save");
  auto at = [&](const std::string& name) { return (dir / name).string(); };

  nf::named_arrays cases;
  make_check_npy_cases([&](const std::string& name, const nf::array& a) { cases.emplace_back(name, a); });
  nf::savez(at("named.npz"), cases);
  nf::savez_compressed(at("named_compressed.npz"), cases);

  const std::vector<nf::array> positional = {nf::arange(5), nf::full({}, 2.5),
                                             nf::zeros({0, 4}, nf::dtype::float32)};
  nf::savez(at("positional.npz"), positional);
  nf::savez_compressed(at("positional_compressed.npz"), positional);
  // As np.savez, a path without the .npz suffix gets it.
  nf::savez(at("no_suffix"), {{"x", nf::asarray(std::vector<std::uint8_t>{1, 0}).astype(nf::dtype::bool_)}});
  CHECK(fs::exists(dir / "no_suffix.npz"));
  nf::savez(at("empty.npz"), nf::named_arrays{});

  // 16 MB that deflates over many output buffers, and a lazy expression evaluated by the save.
  nf::array big = nf::arange(0, 2000000, 1, nf::dtype::float64) * 0.5;
  nf::array index = nf::arange(2000000);
  big = nf::where(index % 7 == 0, -big, big);
  nf::savez_compressed(at("big_compressed.npz"),
                       {{"big", big}, {"tail", nf::asarray(std::vector<std::uint8_t>{7})}});

  nf::savez(at("unicode.npz"), {{"größe", nf::asarray(std::vector<double>{1.5, -2.0})},
                                {"a/b", nf::asarray(std::vector<std::int16_t>{3})}});

  std::vector<nf::array> many;
  for (int i = 0; i < many_members; ++i) many.push_back(nf::full({}, i, nf::dtype::int32));
  nf::savez(at("many.npz"), many);

  const fs::path log = dir / "check.log";
  const std::string cmd = quoted(py) + " " + quoted(oracle_script("check_npz.py").string()) + " " +
                          quoted(dir.string()) + " > " + quoted(log.string()) + " 2>&1";
  const int rc = std::system(cmd.c_str());
  INFO(read_text(log));
  REQUIRE(rc == 0);

  // And ndfuse reads its own archives back, zip64 end record included.
  const nf::npz_file m = nf::load_npz(at("many.npz"));
  REQUIRE(m.size() == std::size_t(many_members));
  CHECK(m.files()[69999] == "arr_69999");
  CHECK(m["arr_69999"].item<std::int32_t>() == 69999);
  const nf::npz_file b = nf::load_npz(at("big_compressed.npz"));
  CHECK(b.files() == std::vector<std::string>{"big", "tail"});
  CHECK(nf::array_equal(b["big"], big));
}

TEST_CASE("nf::load_npz reads archives NumPy and zipfile wrote", "[npz][oracle]") {
  const std::string oracle = env_or_empty("NDFUSE_ORACLE_DIR");
  if (oracle.empty()) NDFUSE_SKIP("NDFUSE_ORACLE_DIR is not set");
  const fs::path dir = fs::path(oracle) / "npz";
  if (!fs::exists(dir / "manifest.txt"))
    NDFUSE_SKIP("no npz oracle in " << dir << " (oracle_npz did not run)");

  std::ifstream manifest(dir / "manifest.txt");
  std::string archive, key, kind;
  int checked = 0;
  for (std::string line; std::getline(manifest, line);) {
    std::istringstream fields(line);
    fields >> archive >> key >> kind;
    const std::string path = (dir / (archive + ".npz")).string();
    INFO("archive " << archive << ", key " << key);
    const nf::npz_file f = nf::load_npz(path);
    CHECK(f.path() == path);
    if (key == "files") {
      std::vector<std::string> want;
      if (kind != "-") {
        std::istringstream keys(kind);
        for (std::string k; std::getline(keys, k, ',');) want.push_back(k);
      }
      CHECK(f.files() == want);
      CHECK(f.size() == want.size());
      for (const auto& k : want) CHECK(f.contains(k));
    } else if (kind == "value_error") {
      CHECK_THROWS_AS(f[key], nf::value_error);
      CHECK(thrown([&] { f[key]; }).find(path) != std::string::npos);
    } else {
      std::string case_name;
      fields >> case_name;
      std::ifstream expected(dir / (case_name + ".expected"));
      check_expected(f[key].to_host(), expected);
    }
    ++checked;
  }
  CHECK(checked > 150);
}

TEST_CASE("nf::load_npz throws value_error naming the file for damaged archives", "[npz]") {
  const fs::path dir = scratch_dir("npz_damaged");
  auto at = [&](const std::string& name) { return (dir / name).string(); };
  const nf::array x = nf::arange(0, 100, 1, nf::dtype::float64);
  nf::savez(at("good.npz"), {{"x", x}});
  nf::savez_compressed(at("good_compressed.npz"), {{"x", x}});
  const std::string good = read_text(dir / "good.npz");
  const std::string good_compressed = read_text(dir / "good_compressed.npz");
  const std::size_t data_at = good.find("\x93NUMPY");
  REQUIRE(data_at != std::string::npos);

  auto expect_value_error = [&](const std::string& name, const std::string& bytes, bool at_read) {
    INFO("case " << name);
    const std::string p = at(name);
    write_bytes(p, bytes);
    if (at_read) {
      const nf::npz_file f = nf::load_npz(p);
      CHECK_THROWS_AS(f["x"], nf::value_error);
      CHECK(thrown([&] { f["x"]; }).find(p) != std::string::npos);
    } else {
      CHECK_THROWS_AS(nf::load_npz(p), nf::value_error);
      CHECK(thrown([&] { nf::load_npz(p); }).find(p) != std::string::npos);
    }
  };
  expect_value_error("empty.npz", "", false);
  expect_value_error("text.npz", std::string(200, 'a'), false);
  expect_value_error("truncated_half.npz", good.substr(0, good.size() / 2), false);
  expect_value_error("no_end_record.npz", good.substr(0, good.size() - 10), false);
  // The directory is intact but a data byte changed: zipfile's CRC check catches it.
  std::string flipped = good;
  flipped[data_at + 200] = static_cast<char>(flipped[data_at + 200] ^ 0x40);
  expect_value_error("bad_crc.npz", flipped, true);
  // Damaged deflate data.
  std::string garbled = good_compressed;
  const std::size_t compressed_at = garbled.find("x.npy") + 5 + 20;  // past the name and the zip64 field
  for (std::size_t i = compressed_at; i < compressed_at + 40; ++i) garbled[i] = static_cast<char>(0xff);
  expect_value_error("bad_deflate.npz", garbled, true);
  // A member whose .npy header is damaged: the .npy reader's error names the archive and member.
  std::string header = good;
  header[data_at + 1] = 'X';
  const std::string p = at("bad_member.npz");
  write_bytes(p, header);
  CHECK_THROWS_AS(nf::load_npz(p)["x"], nf::value_error);
  CHECK(thrown([&] { nf::load_npz(p)["x"]; }).find(p + ":x.npy") != std::string::npos);

  const nf::npz_file f = nf::load_npz(at("good.npz"));
  CHECK_THROWS_AS(f["y"], nf::index_error);  // NumPy's KeyError
  CHECK(f["x.npy"].to_vector<double>() == x.to_vector<double>());
  CHECK_THROWS_AS(nf::load_npz(at("missing.npz")), nf::io_error);
  CHECK_THROWS_AS(nf::load_npz(dir.string()), nf::io_error);
  // np.load would return an NpzFile; nf::load returns one array and says where to go instead.
  CHECK_THROWS_AS(nf::load(at("good.npz")), nf::value_error);
  CHECK(thrown([&] { nf::load(at("good.npz")); }).find("load_npz") != std::string::npos);
}

TEST_CASE("nf::savez refuses bad input before writing anything", "[npz]") {
  const fs::path dir = scratch_dir("npz_refused");
  auto at = [&](const std::string& name) { return (dir / name).string(); };
  const nf::array x = nf::arange(4);
  nf::savez(at("kept.npz"), {{"x", x}});
  const std::string before = read_text(dir / "kept.npz");

  // A duplicate name (NumPy: ValueError) or a dtype the .npy format cannot name: the old archive stays.
  CHECK_THROWS_AS(nf::savez(at("kept.npz"), {{"x", x}, {"x", x}}), nf::value_error);
  CHECK_THROWS_AS(nf::savez_compressed(at("kept.npz"), {{"x", x}, {"b", x.astype(nf::dtype::bfloat16)}}),
                  nf::dtype_error);
  CHECK(read_text(dir / "kept.npz") == before);
  CHECK_THROWS_AS(nf::savez(at("no_such_dir/x.npz"), {{"x", x}}), nf::io_error);
  CHECK_THROWS_AS(nf::savez(at("kept.npz"), {{"x", x}, {"moved", nf::array()}}), nf::error);
  CHECK(read_text(dir / "kept.npz") == before);
  for (const auto& entry : fs::directory_iterator(dir)) {
    INFO("left behind: " << entry.path());
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
  }

  // As np.save, a path without the .npy suffix gets it.
  nf::save(at("plain"), x);
  CHECK(nf::load(at("plain.npy")).to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 1, 2, 3});
}
