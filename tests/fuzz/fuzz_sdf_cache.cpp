// libFuzzer target: the SDF cache reader (sdf/sdf_cache.hpp). The input is a cache entry's file
// (64-byte header: magic, payload size, bake parameters, FNV-1a 64; then the .vdb bytes), read
// with the parameters the seed corpus's entries were baked with (kParams). Only an entry whose
// checksum matches reaches OpenVDB's reader, so the fuzzer exercises our header and size checks;
// OpenVDB's reader behind a valid checksum reads only what this program wrote (docs/FUZZING.md).
// COULOMB_FUZZ_WRITE_SEED=<file> writes a valid entry (a baked box) there and exits: how
// tests/fuzz/corpus/sdf_cache/ was made.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "fuzz_support.hpp"
#include "sdf/sdf_cache.hpp"
#include "sim/sdf.hpp"

namespace {

constexpr double kVoxel = 0.05, kBand = 3;
const sim::detail::SdfCacheKeyParams kParams{kVoxel, kBand, /*fill_interior=*/false, /*signed_field=*/true};

void write_seed(const char* out) {
  sim::SdfBakeOptions o;
  o.voxel_size = kVoxel;
  o.band = kBand;
  o.cache_dir = fuzz::scratch_dir() + "/seed-cache";
  auto baked = sim::bake_sdf(sim::make_box_mesh(sim::Vec3(0.1, 0.1, 0.1)), o);
  if (!baked) {
    std::fprintf(stderr, "bake failed: %s\n", baked.error().c_str());
    std::exit(1);
  }
  for (const auto& e : std::filesystem::directory_iterator(o.cache_dir)) {
    std::filesystem::copy_file(e.path(), out, std::filesystem::copy_options::overwrite_existing);
    std::printf("wrote %s (%ju bytes)\n", out, static_cast<std::uintmax_t>(std::filesystem::file_size(out)));
    std::exit(0);
  }
  std::fprintf(stderr, "no cache entry was written\n");
  std::exit(1);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::prepare_process();
  if (const char* out = std::getenv("COULOMB_FUZZ_WRITE_SEED")) write_seed(out);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::write_scratch("entry.vdb", std::string_view(reinterpret_cast<const char*>(data), size));
  const sim::detail::SdfCacheEntry entry = sim::detail::read_sdf_cache_entry(path, kParams);
  // A checked entry holds exactly the bytes after the header; a failed one holds none.
  if (entry.error.empty() ? entry.vdb_bytes.size() + sim::detail::kSdfCacheHeaderBytes != size : !entry.vdb_bytes.empty())
    std::abort();
  return 0;
}
