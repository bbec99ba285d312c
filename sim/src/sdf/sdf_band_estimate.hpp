// The size of an SDF bake's narrow band, estimated before baking (docs/LIMITS.md).
#pragma once

#include <array>
#include <vector>

#include "sim/math.hpp"

namespace sim {

// An estimate of the active voxels of the narrow band a bake of the mesh makes at `voxel_size`
// [m] with a band of `band` voxels, computed before baking (OpenVDB's cost grows with it: a
// 4-triangle tetrahedron with a band of 100 voxels baked for 13 s): both sides of the surface,
// 2 × area / voxel_size² × band, plus the ball of radius `band` voxels that the band around any
// point contains, (4π/3) band³. Triangles with an index out of range or a non-finite area are
// left out, as the bake leaves them out. The interior a signed bake fills is not counted (the
// grid box bounds it). compile_model and bake_sdf refuse a bake above limits::kMaxSdfBandVoxels.
double estimate_sdf_band_voxels(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                Real voxel_size, Real band);

// The interior voxels a signed bake with the interior filled (SdfBakeOptions::fill_interior, the
// scenes' default) makes active: the enclosed volume |Σ v0 · (v1 × v2)| / 6 (divergence theorem;
// triangles as above) over voxel_size³. compile_model and bake_sdf refuse a bake above
// limits::kMaxSdfInteriorVoxels.
double estimate_sdf_interior_voxels(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                    Real voxel_size);

}  // namespace sim
