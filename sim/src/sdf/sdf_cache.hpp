// The on-disk cache of baked grids: file names are a 128-bit hash of the cleaned mesh (vertex
// coordinates as doubles, triangle indices) and of every bake parameter, so a changed mesh or
// option never reads a stale grid. Files are written atomically (temporary name, then rename).
#pragma once

#include <string>

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

// Peak resident set of this process [bytes] (VmHWM), 0 where unknown.
std::size_t peak_resident_bytes();

}  // namespace sim::detail
