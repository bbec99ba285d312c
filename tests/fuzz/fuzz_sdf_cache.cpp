// libFuzzer target: the SDF cache reader (sdf/sdf_cache.hpp). The input is a cache entry's file
// (64-byte header: magic, payload size, bake parameters, FNV-1a 64; then the .vdb bytes), read
// with the parameters the seed corpus's entries were baked with (kParams). Only an entry whose
// checksum matches reaches OpenVDB's reader, so the fuzzer exercises our header and size checks;
// OpenVDB's reader behind a valid checksum reads only what this program wrote (docs/FUZZING.md).
// COULOMB_FUZZ_WRITE_SEED=<file> writes a valid entry there and exits: how
// tests/fuzz/corpus/sdf_cache/valid_entry was made.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_support.hpp"
#include "sdf/sdf_cache.hpp"

namespace {

constexpr double kVoxel = 0.05, kBand = 3;
const sim::detail::SdfCacheKeyParams kParams{kVoxel, kBand, /*fill_interior=*/false, /*signed_field=*/true};

void write_seed(const char* out) {
  // A valid entry as far as the reader is concerned (it checks, it does not parse): the header
  // for kParams over 256 payload bytes. A real bake's entry is 215 KB (OpenVDB's tree nodes),
  // too large to mutate usefully; its header is the same.
  std::string payload(256, '\0');
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>(i * 37 + 11);
  fuzz::finish_seed(sim::detail::write_sdf_cache_entry(out, kParams, payload), out);
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
