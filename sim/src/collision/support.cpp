#include "collision/support.hpp"

#include <cmath>

#include "collision/narrowphase.hpp"

namespace sim::detail {

Vec3 SupportShape::support(const Vec3& d) const {
  switch (kind) {
    case Kind::Points: {
      const Vec3* p = points ? points : core;
      int best = 0;
      Real best_dot = p[0].dot(d);
      for (int i = 1; i < count; ++i) {
        const Real x = p[i].dot(d);
        if (x > best_dot) best_dot = x, best = i;
      }
      return p[best];
    }
    case Kind::Box: {
      const Vec3 m = rotation.transpose() * d;
      Vec3 local;
      for (int i = 0; i < 3; ++i) local[i] = m[i] >= 0 ? size[i] : -size[i];
      return center + rotation * local;
    }
    case Kind::Cylinder: {
      // The cap facing d, the rim point in d's direction across the axis (the cap's centre when d
      // is along the axis: every cap point is a support point then).
      const Vec3 m = rotation.transpose() * d;
      const Real across = std::hypot(m.x(), m.y());
      Vec3 local(0, 0, m.z() >= 0 ? size.y() : -size.y());
      if (across > 0) local.x() = size.x() * m.x() / across, local.y() = size.x() * m.y() / across;
      return center + rotation * local;
    }
    case Kind::Ellipsoid: {
      // {c + R A u : |u| <= 1} is farthest along d at c + R A² m / |A m|, m = Rᵀ d.
      const Vec3 am = size.cwiseProduct(rotation.transpose() * d);
      const Real norm = am.norm();
      if (!(norm > 0)) return center;
      return center + rotation * (size.cwiseProduct(am) / norm);
    }
  }
  return center;
}

Vec3 SupportShape::interior() const {
  if (kind != Kind::Points) return center;
  const Vec3* p = points ? points : core;
  Vec3 sum = Vec3::Zero();
  for (int i = 0; i < count; ++i) sum += p[i];
  return sum / static_cast<Real>(count > 0 ? count : 1);
}

SupportShape support_of_points(const Vec3* points, int count) {
  SupportShape s;
  s.kind = SupportShape::Kind::Points;
  s.points = points;
  s.count = count;
  return s;
}

SupportShape support_of(const Collider& c) {
  SupportShape s;
  if (c.kind == ColliderKind::Round) {
    s.kind = SupportShape::Kind::Points;
    s.core[0] = c.p0;
    s.core[1] = c.p1;
    s.count = c.segment() ? 2 : 1;
    s.radius = c.radius;
    return s;
  }
  if (c.native != NativeShape::None) {
    s.kind = c.native == NativeShape::Cylinder ? SupportShape::Kind::Cylinder : SupportShape::Kind::Ellipsoid;
    s.center = c.native_pose.pos;
    s.rotation = c.native_pose.rot.toRotationMatrix();
    s.size = c.native_size;
    return s;
  }
  const PolyView& p = *c.poly;
  if (p.is_box) {
    s.kind = SupportShape::Kind::Box;
    s.center = p.center;
    s.rotation = p.rotation;
    s.size = p.half_extents;
    return s;
  }
  return support_of_points(p.vertices, p.vertex_count);
}

}  // namespace sim::detail
