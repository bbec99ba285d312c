// The SDF cache checks itself (sdf/sdf_cache.hpp): an entry with 64 zeroed bytes (issue 13's
// vdb_cache_corrupt.sh), a truncated one, and the header-less file a bake on a full disk left
// (tests/data/bad-inputs/vdb_cache_truncated_by_full_disk.vdb) are each detected, reported,
// deleted and baked again to the same grid; a write that fails part way (a full disk, simulated
// by RLIMIT_FSIZE) is an error and leaves no entry and no temporary file.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "sdf/sdf_cache.hpp"
#include "sim/sdf.hpp"
#include "support/scratch_files.hpp"

using sim::Vec3;

namespace {

std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool has_warning(const sim::SdfBakeReport& r, const std::string& text) {
  for (const std::string& w : r.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

struct CacheFixture {
  std::filesystem::path dir;
  sim::SdfBakeOptions options;
  sim::TriangleMesh mesh = sim::make_cone_mesh(0.1, 0.25, 24);
  explicit CacheFixture(const std::string& name) : dir(test::scratch_dir(name)) {
    options.cache_dir = dir.string();
    options.resolution = 16;
  }
};

// Bakes, damages the entry with `damage`, bakes again: the damage is reported with `expected`,
// the entry re-baked to the same field, and a third bake reads it.
void expect_rebake(CacheFixture& f, const std::function<void(const std::string&)>& damage, const std::string& expected) {
  sim::SdfBakeReport first;
  auto a = sim::bake_sdf(f.mesh, f.options, &first);
  REQUIRE(a.ok());
  REQUIRE(std::filesystem::exists(first.cache_file));
  const std::string good = read_bytes(first.cache_file);
  damage(first.cache_file);
  sim::SdfBakeReport second;
  auto b = sim::bake_sdf(f.mesh, f.options, &second);
  REQUIRE(b.ok());
  INFO((second.warnings.empty() ? std::string("no warning") : second.warnings.front()));
  CHECK_FALSE(second.cache_hit);
  CHECK(has_warning(second, first.cache_file + ": " + expected));
  CHECK(has_warning(second, "entry deleted, baking again"));
  CHECK(second.cache_error.empty());
  CHECK(std::filesystem::file_size(first.cache_file) == good.size());  // re-written whole
  for (const Vec3& p : {Vec3(0, 0, 0.05), Vec3(0.12, 0, 0.1), Vec3(0.02, -0.03, 0.2)})
    CHECK(a.value()->sample(p) == b.value()->sample(p));
  sim::SdfBakeReport third;
  REQUIRE(sim::bake_sdf(f.mesh, f.options, &third).ok());
  CHECK(third.cache_hit);
  CHECK(third.warnings.empty());
}

}  // namespace

TEST_CASE("a damaged SDF cache entry is reported, deleted and baked again", "[unit][sdf][bad-inputs]") {
  SECTION("64 zero bytes at 75 % (vdb_cache_corrupt.sh)") {
    CacheFixture f("sdf_cache_zeroed");
    expect_rebake(
        f,
        [](const std::string& path) {
          std::string bytes = read_bytes(path);
          const std::size_t at = bytes.size() * 75 / 100;
          bytes.replace(at, 64, std::string(64, '\0'));
          test::write_file(path, bytes);
        },
        "damaged (checksum mismatch)");
  }
  SECTION("cut in half") {
    CacheFixture f("sdf_cache_cut");
    expect_rebake(
        f,
        [](const std::string& path) {
          const std::string bytes = read_bytes(path);
          test::write_file(path, bytes.substr(0, bytes.size() / 2));
        },
        "truncated or damaged (");
  }
  SECTION("what a bake on a full disk left (vdb_cache_truncated_by_full_disk.vdb)") {
    CacheFixture f("sdf_cache_full_disk_leftover");
    const std::string leftover = std::string(COULOMB_SOURCE_DIR) + "/tests/data/bad-inputs/vdb_cache_truncated_by_full_disk.vdb";
    expect_rebake(
        f, [&](const std::string& path) { std::filesystem::copy_file(leftover, path, std::filesystem::copy_options::overwrite_existing); },
        "not a cache entry");
  }
}

TEST_CASE("a cache entry whose write fails part way (full disk) is an error and leaves nothing", "[unit][sdf][bad-inputs]") {
  CacheFixture f("sdf_cache_write_fails");
  // RLIMIT_FSIZE makes write() stop at 256 bytes (a short write, then EFBIG), as a full disk stops at
  // its last free block; SIGXFSZ is ignored so the write returns instead of killing the process.
  rlimit saved{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
  auto* previous = ::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 256;  // the header and a little of the payload
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  sim::SdfBakeReport r;
  auto grid = sim::bake_sdf(f.mesh, f.options, &r);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, previous);
  REQUIRE(grid.ok());  // the grid itself is fine
  INFO(r.cache_error);
  CHECK(r.cache_error.rfind("sdf cache: " + r.cache_file + ": cannot write: File too large (nothing written)", 0) == 0);
  CHECK(has_warning(r, r.cache_error));
  CHECK(std::filesystem::is_empty(f.dir));  // no entry, no temporary file
  // With room again the next bake writes a good entry, which the one after reads.
  sim::SdfBakeReport again, hit;
  REQUIRE(sim::bake_sdf(f.mesh, f.options, &again).ok());
  CHECK(again.cache_error.empty());
  REQUIRE(sim::bake_sdf(f.mesh, f.options, &hit).ok());
  CHECK(hit.cache_hit);
}

TEST_CASE("cache entries carry their parameters and a checksum over header and payload", "[unit][sdf]") {
  const std::filesystem::path dir = test::scratch_dir("sdf_cache_entry");
  const std::string path = (dir / "entry.vdb").string();
  const sim::detail::SdfCacheKeyParams params{0.01, 3, true, true};
  const std::string payload = "not really vdb bytes, but any payload round-trips";
  REQUIRE(sim::detail::write_sdf_cache_entry(path, params, payload).empty());
  CHECK(std::filesystem::file_size(path) == sim::detail::kSdfCacheHeaderBytes + payload.size());
  auto back = sim::detail::read_sdf_cache_entry(path, params);
  CHECK(back.error.empty());
  CHECK(back.vdb_bytes == payload);
  sim::detail::SdfCacheKeyParams other = params;
  other.band = 4;
  CHECK(sim::detail::read_sdf_cache_entry(path, other).error == path + ": parameters differ from the header's");
  // Every single flipped bit of the file is detected (header or payload).
  const std::string good = read_bytes(path);
  int detected = 0;
  for (std::size_t byte = 0; byte < good.size(); ++byte) {
    std::string bad = good;
    bad[byte] = static_cast<char>(bad[byte] ^ 0x10);
    test::write_file(path, bad);
    detected += sim::detail::read_sdf_cache_entry(path, params).error.empty() ? 0 : 1;
  }
  CHECK(detected == static_cast<int>(good.size()));
}
