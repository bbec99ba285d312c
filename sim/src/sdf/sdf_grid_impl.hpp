// The inside of SdfGrid (sim/sdf.hpp): a NanoVDB float grid in its host buffer, and what the
// samplers need to know about it. Only the SDF sources include this (it pulls in NanoVDB).
#pragma once

#include <nanovdb/NanoVDB.h>
#include <nanovdb/util/GridHandle.h>
#include <nanovdb/util/HostBuffer.h>

#include <cstddef>

#include "sim/math.hpp"
#include "sim/sdf.hpp"

namespace sim {

struct SdfGridImpl {
  nanovdb::GridHandle<nanovdb::HostBuffer> handle;
  const nanovdb::FloatGrid* grid = nullptr;  // into handle's buffer
  Real voxel = 0;            // uniform voxel size [m]
  Vec3 origin = Vec3::Zero();// world position of index (0, 0, 0) (a voxel centre) [m]
  Real background = 0;       // |φ| outside the band [m]
  bool is_signed = true;
  std::size_t active_voxels = 0;
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // world box of the active voxels [m]
  // Coarse far field (nano_sdf.hpp): a wide band that guides the optimisers outside the fine one.
  nanovdb::GridHandle<nanovdb::HostBuffer> far_handle;
  const nanovdb::FloatGrid* far_grid = nullptr;  // null: none (a grid read from a foreign .vdb)
  Real far_voxel = 0;
  Vec3 far_origin = Vec3::Zero();
  Real far_background = 0;
};

namespace detail {

// Wraps a NanoVDB float grid (uniform axis-aligned voxels) into an SdfGrid, with `far` as its
// coarse far field (an empty handle, or one that is not such a grid: none); null when the main
// grid is not. `is_signed` comes from the baker's metadata.
std::shared_ptr<const SdfGrid> wrap_nanovdb(nanovdb::GridHandle<nanovdb::HostBuffer> handle,
                                            nanovdb::GridHandle<nanovdb::HostBuffer> far, bool is_signed);

}  // namespace detail
}  // namespace sim
