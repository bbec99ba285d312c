// The on-disk cache of baked grids: file names are a 128-bit hash of the cleaned mesh (vertex
// coordinates as doubles, triangle indices) and of every bake parameter, so a changed mesh or
// option never reads a stale grid. Each entry is a 64-byte header (magic, payload size, the bake
// parameters, an FNV-1a 64 checksum of header and payload) and the .vdb bytes; entries are written
// atomically (temporary file in the same directory, fsync, rename), so a crash or a full disk
// leaves no entry, and a damaged or truncated one is detected before OpenVDB reads a byte of it.
#pragma once

#include <string>
#include <string_view>

#include "sim/sdf.hpp"

namespace sim::detail {

struct SdfCacheKeyParams {
  double voxel_size = 0;
  double band = 0;
  bool fill_interior = true;
  bool signed_field = true;
};

// 32 hex digits.
std::string sdf_cache_key(const TriangleMesh& mesh, const SdfCacheKeyParams& params);

// Creates `dir` (and parents); returns an error message, empty on success.
std::string ensure_directory(const std::string& dir);

// "<dir>/<key>.vdb"
std::string sdf_cache_path(const std::string& dir, const std::string& key);

inline constexpr std::size_t kSdfCacheHeaderBytes = 64;

// Writes a cache entry (header + `vdb_bytes`) through sim::write_file_atomically
// (sim/atomic_file.hpp); an error message, empty on success.
std::string write_sdf_cache_entry(const std::string& path, const SdfCacheKeyParams& params, std::string_view vdb_bytes);

// Reads and checks a cache entry: the .vdb bytes, or (error non-empty) what is wrong with it:
// "not a cache entry", "truncated (N of M bytes)", "checksum mismatch (damaged)", "parameters
// differ". Never allocates more than the file's own length.
struct SdfCacheEntry {
  std::string vdb_bytes;
  std::string error;
};
SdfCacheEntry read_sdf_cache_entry(const std::string& path, const SdfCacheKeyParams& params);

// Peak resident set of this process [bytes] (VmHWM), 0 where unknown.
std::size_t peak_resident_bytes();

}  // namespace sim::detail
