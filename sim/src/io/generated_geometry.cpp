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

Quat rotation_from_z(const Vec3& d) {
  const Vec3 n = d.normalized();
  if (n.z() < Real(-1) + Real(1e-12)) return Quat(0, 1, 0, 0);
  Quat q(Real(1) + n.z(), -n.y(), n.x(), 0);
  q.normalize();
  return q;
}

}  // namespace sim::io
