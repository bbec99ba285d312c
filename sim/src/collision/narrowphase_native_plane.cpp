// Cylinders and ellipsoids against a plane (the half-space n·x <= offset), from their own
// geometry rather than their hulls: the support points are closed forms, so depths are exact and
// the contact count is what the resting shape needs (an ellipsoid 1, a cylinder standing 4 on
// its bottom rim, lying 2, one per cap).
#include <cmath>

#include "collision/geometry.hpp"
#include "collision/narrowphase.hpp"

namespace sim::detail {

namespace {

void push_if_near(const Vec3& point, const Collider& plane, Real max_sep, std::uint32_t id, NarrowScratch& s) {
  const Vec3& n = plane.normal;
  const Real dist = n.dot(point) - plane.offset;
  if (dist >= max_sep) return;
  s.contacts.push_back({point, point - n * dist, n, feature_id(kTagNativePlane, id)});
}

}  // namespace

void collide_native_plane(const Collider& native, const Collider& plane, Real max_sep, NarrowScratch& s) {
  const Vec3& n = plane.normal;
  const Mat3 r = native.native_pose.rot.toRotationMatrix();
  const Vec3& c = native.native_pose.pos;
  if (native.native == NativeShape::Ellipsoid) {
    // Support of the ellipsoid {c + R A u : |u| <= 1} along -n: c - R A² m / |A m|, m = Rᵀ n.
    const Vec3 a = native.native_size;
    const Vec3 m = r.transpose() * n;
    const Vec3 am = a.cwiseProduct(m);
    const Real norm = am.norm();
    if (!(norm > 0)) return;
    push_if_near(c - r * (a.cwiseProduct(am) / norm), plane, max_sep, 0, s);
    return;
  }
  // Cylinder: axis a, radius ρ, half height h. On each cap the rim point deepest along -n lies in
  // the direction d = (n·a) a - n (n's part across the axis, reversed); quarter turns from it give
  // the square a standing cylinder rests on. When n is along the axis, d is the local x axis.
  const Real radius = native.native_size.x(), h = native.native_size.y();
  const Vec3 axis = r.col(2);
  Vec3 d = axis * n.dot(axis) - n;
  const Real across = d.norm();
  d = across > Real(1e-9) ? Vec3(d / across) : Vec3(r.col(0));
  const Vec3 e = axis.cross(d);
  const Vec3 spokes[4] = {d, e, -d, -e};
  for (int cap = 0; cap < 2; ++cap) {
    const Vec3 centre = c + axis * (cap == 0 ? -h : h);
    for (int k = 0; k < 4; ++k)
      push_if_near(centre + radius * spokes[k], plane, max_sep, static_cast<std::uint32_t>(4 * cap + k), s);
  }
}

}  // namespace sim::detail
