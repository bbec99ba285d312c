// Shapes against a plane (the half-space n·x <= offset): the signed distance of each core point
// or vertex to the plane is exact, so the gap is exact too.
#include "collision/geometry.hpp"
#include "collision/narrowphase.hpp"

namespace sim::detail {

void collide_round_plane(const Collider& round, const Collider& plane, Real max_sep, NarrowScratch& s) {
  const Vec3& n = plane.normal;
  const int ends = round.segment() ? 2 : 1;
  for (int k = 0; k < ends; ++k) {
    const Vec3& c = k ? round.p1 : round.p0;
    const Real dist = n.dot(c) - plane.offset;
    if (dist - round.radius >= max_sep) continue;
    s.contacts.push_back({c - n * round.radius, c - n * dist, n,
                          feature_id(kTagRoundPlane, static_cast<std::uint32_t>(k))});
  }
}

void collide_poly_plane(const Collider& poly, const Collider& plane, Real max_sep, NarrowScratch& s) {
  const Vec3& n = plane.normal;
  const PolyView& p = *poly.poly;
  const std::size_t begin = s.contacts.size();
  for (int i = 0; i < p.vertex_count; ++i) {
    const Vec3& v = p.vertices[i];
    const Real dist = n.dot(v) - plane.offset;
    if (dist >= max_sep) continue;
    s.contacts.push_back({v, v - n * dist, n, feature_id(kTagPolyPlane, static_cast<std::uint32_t>(i))});
  }
  reduce_manifold(s.contacts, begin, kMaxPlaneManifold, s.keep);
}

}  // namespace sim::detail
