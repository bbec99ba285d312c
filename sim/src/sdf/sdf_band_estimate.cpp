// estimate_sdf_band_voxels(): the active voxels a narrow-band bake will make, from the mesh's
// surface area, before OpenVDB runs (see sim/sdf.hpp and docs/LIMITS.md).
#include <cmath>

#include "sdf/sdf_band_estimate.hpp"

namespace sim {

double estimate_sdf_band_voxels(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                Real voxel_size, Real band) {
  if (!(voxel_size > 0) || !(band >= 0)) return 0;
  const int n = static_cast<int>(vertices.size());
  double area = 0;  // [m²], triangles with valid indices and finite corners only (as baked)
  for (const auto& t : triangles) {
    if (t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= n || t[1] >= n || t[2] >= n) continue;
    const double a = 0.5 * double((vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]).norm());
    if (std::isfinite(a)) area += a;
  }
  // The band of b voxels on both sides of the surface (first term of Steiner's formula for the
  // parallel body: area × width), plus the ball of radius b that the band around any point of
  // the surface contains (the last term, (4π/3) b³, which dominates for a small mesh in a wide
  // band: a 4-triangle tetrahedron in a band of 100 voxels).
  const double h = double(voxel_size), b = double(band);
  constexpr double kPi = 3.14159265358979323846;
  return 2 * area / (h * h) * b + 4.0 / 3.0 * kPi * b * b * b;
}

double estimate_sdf_interior_voxels(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                    Real voxel_size) {
  if (!(voxel_size > 0)) return 0;
  const int n = static_cast<int>(vertices.size());
  double six_volume = 0;  // Σ v0 · (v1 × v2): six times the signed enclosed volume
  for (const auto& t : triangles) {
    if (t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= n || t[1] >= n || t[2] >= n) continue;
    const double v = double(vertices[t[0]].dot(vertices[t[1]].cross(vertices[t[2]])));
    if (std::isfinite(v)) six_volume += v;
  }
  const double h = double(voxel_size);
  return std::abs(six_volume) / 6 / (h * h * h);
}

}  // namespace sim
