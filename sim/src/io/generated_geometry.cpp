#include "io/generated_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace sim::io {

std::vector<Vec3> cylinder_vertices(Real radius, Real half_length, int segments) {
  std::vector<Vec3> v;
  segments = std::max(segments, 3);
  v.reserve(2 * static_cast<std::size_t>(segments));
  for (int side = 0; side < 2; ++side) {
    const Real z = side == 0 ? -half_length : half_length;
    for (int k = 0; k < segments; ++k) {
      const double a = 2.0 * std::numbers::pi * k / segments;
      v.emplace_back(radius * static_cast<Real>(std::cos(a)), radius * static_cast<Real>(std::sin(a)), z);
    }
  }
  return v;
}

std::vector<Vec3> ellipsoid_points(const Vec3& radii, int rings, int segments) {
  std::vector<Vec3> v;
  rings = std::max(rings, 2);
  segments = std::max(segments, 3);
  for (int i = 0; i <= rings; ++i) {
    const double theta = std::numbers::pi * i / rings;
    for (int k = 0; k < (i == 0 || i == rings ? 1 : segments); ++k) {
      const double phi = 2 * std::numbers::pi * k / segments;
      v.emplace_back(radii.x() * static_cast<Real>(std::sin(theta) * std::cos(phi)),
                     radii.y() * static_cast<Real>(std::sin(theta) * std::sin(phi)),
                     radii.z() * static_cast<Real>(std::cos(theta)));
    }
  }
  return v;
}

std::vector<Vec3> native_shape_points(ShapeType type, Real radius, Real half_length, const Vec3& radii) {
  if (type == ShapeType::Cylinder) return cylinder_vertices(radius, half_length, kNativeCylinderSegments);
  if (type == ShapeType::Ellipsoid) return ellipsoid_points(radii);
  return {};
}

Quat rotation_from_z(const Vec3& d) {
  const Vec3 n = d.normalized();
  if (n.z() < Real(-1) + Real(1e-12)) return Quat(0, 1, 0, 0);
  Quat q(Real(1) + n.z(), -n.y(), n.x(), 0);
  q.normalize();
  return q;
}

}  // namespace sim::io
