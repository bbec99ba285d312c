// Round shapes (sphere, capsule, particle) against convex polyhedra. The core (point or segment)
// is usually outside the polyhedron: GJK gives its exact closest points. When they lie on a face
// (the GJK distance equals that face's separation) a capsule's segment is clipped to the face's
// side planes, giving a point at each end of a capsule lying on the face. A core inside the
// polyhedron (deep penetration) is pushed out along the SAT axis of least penetration.
#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/geometry.hpp"
#include "collision/gjk.hpp"
#include "collision/narrowphase.hpp"

namespace sim::detail {
namespace {

// Contacts of the core's part above `face`: the segment clipped to the face's side planes (a
// point core is not clipped), each end kept when within max_sep.
void face_contacts(const Collider& round, const PolyView& poly, int face, Real max_sep,
                   NarrowScratch& s) {
  // A face index derived from non-finite separations (-1) never indexes the hull (issue 13).
  if (face < 0 || face >= poly.face_count) return;
  const Vec3 n = poly.normals[face];
  const Real d = poly.offsets[face];
  Vec3 ends[2] = {round.p0, round.p1};
  std::uint32_t ids[2] = {0, 1};
  int count = 1;
  if (round.segment()) {
    Real t0 = 0, t1 = 1;
    const int m = poly.face_size(face);
    for (int k = 0; k < m && t0 <= t1; ++k) {
      const Vec3 a = poly.face_vertex(face, k), b = poly.face_vertex(face, (k + 1) % m);
      const Vec3 side = (b - a).cross(n);  // outward in the face plane
      const Real d0 = side.dot(round.p0 - a), d1 = side.dot(round.p1 - a);
      if (d0 > 0 && d1 > 0) t0 = 2, t1 = -1;
      else if (d0 > 0) t0 = std::max(t0, d0 / (d0 - d1)), ids[0] = 2 + static_cast<std::uint32_t>(k);
      else if (d1 > 0) t1 = std::min(t1, d0 / (d0 - d1)), ids[1] = 2 + static_cast<std::uint32_t>(k);
    }
    if (t0 <= t1) {
      ends[0] = round.p0 + t0 * (round.p1 - round.p0);
      ends[1] = round.p0 + t1 * (round.p1 - round.p0);
      count = 2;
    } else {
      // The segment's shadow misses the face: keep its end deepest along -n.
      if (n.dot(round.p1) < n.dot(round.p0)) ends[0] = round.p1, ids[0] = 1;
      count = 1;
    }
  }
  for (int k = 0; k < count; ++k) {
    const Real dist = n.dot(ends[k]) - d;
    if (dist - round.radius >= max_sep) continue;
    s.contacts.push_back({ends[k] - n * round.radius, ends[k] - n * dist, n,
                          feature_id(kTagRoundPolyFace, static_cast<std::uint32_t>(face), ids[k])});
  }
}

}  // namespace

void collide_round_poly(const Collider& round, const Collider& poly_collider, Real max_sep,
                        NarrowScratch& s) {
  const PolyView& poly = *poly_collider.poly;
  const Real reach = max_sep + round.radius;  // core separations below this make contact
  const bool segment = round.segment();

  // SAT of the core against the face planes.
  int best_face = -1;
  Real face_sep = -std::numeric_limits<Real>::infinity();
  for (int f = 0; f < poly.face_count; ++f) {
    const Vec3& n = poly.normals[f];
    const Real sep = std::min(n.dot(round.p0), n.dot(round.p1)) - poly.offsets[f];
    if (sep > face_sep) face_sep = sep, best_face = f;
  }
  if (face_sep >= reach) return;

  // Cross axes of the segment with the polyhedron's edges, oriented from the polyhedron to the core.
  int best_edge = -1;
  Vec3 edge_axis = Vec3::UnitZ();
  Real edge_sep = -std::numeric_limits<Real>::infinity();
  if (segment) {
    const Vec3 u = round.p1 - round.p0;
    const Vec3 mid = Real(0.5) * (round.p0 + round.p1);
    for (int e = 0; e < poly.edge_count; ++e) {
      const Vec3 ev = poly.vertices[poly.hull->edge_vertices[2 * e + 1]] -
                      poly.vertices[poly.hull->edge_vertices[2 * e]];
      Vec3 axis = u.cross(ev);
      const Real len = axis.norm();
      if (len <= Real(1e-6) * u.norm() * ev.norm()) continue;
      axis /= len;
      if (axis.dot(mid - poly.centroid) < 0) axis = -axis;
      const Real sep = std::min(axis.dot(round.p0), axis.dot(round.p1)) + poly_min_projection(poly, -axis);
      if (sep > edge_sep) edge_sep = sep, best_edge = e, edge_axis = axis;
    }
    if (edge_sep >= reach) return;
  }

  const Real size = poly_collider.size;
  if (std::max(face_sep, edge_sep) > Real(1e-4) * size) {
    // The core is outside: exact closest points.
    const Vec3 core[2] = {round.p0, round.p1};
    const GjkResult g = gjk_distance({core, segment ? 2 : 1}, {poly.vertices, poly.vertex_count});
    if (!g.overlap) {
      if (g.distance >= reach) return;
      // The face manifold's gap is the face separation (<= the distance): accept it when it is
      // within 0.1 % of the gap (GJK is far more accurate than that).
      const Real tol =
          Real(1e-3) * std::max(g.distance - round.radius, Real(0)) + roundoff_tolerance(size, poly.centroid.norm());
      if (g.distance <= face_sep + tol) {
        // The clipped segment must keep the closest point (it may not, when that lies on an
        // edge of the face and the segment leaves the face's prism there).
        const std::size_t begin = s.contacts.size();
        face_contacts(round, poly, best_face, max_sep, s);
        Real closest = std::numeric_limits<Real>::infinity();
        for (std::size_t k = begin; k < s.contacts.size(); ++k) closest = std::min(closest, s.contacts[k].separation());
        if (closest <= g.distance - round.radius + tol) return;
        s.contacts.resize(begin);
      }
      const Vec3 n = (g.point_a - g.point_b) / g.distance;
      s.contacts.push_back({g.point_a - n * round.radius, g.point_b, n, feature_id(kTagRoundPolyPoint, 0)});
      return;
    }
  }

  // The core touches or is inside: least penetration, preferring faces.
  if (!segment || face_sep >= edge_sep - Real(1e-3) * size) return face_contacts(round, poly, best_face, max_sep, s);
  // Edge axis: among the edges parallel to the best one, the one farthest along the axis.
  const auto edge_points = [&](int e, Vec3& a, Vec3& b) {
    a = poly.vertices[poly.hull->edge_vertices[2 * e]];
    b = poly.vertices[poly.hull->edge_vertices[2 * e + 1]];
  };
  Vec3 a, b;
  edge_points(best_edge, a, b);
  const Vec3 dir = (b - a).normalized();
  int chosen = best_edge;
  Real chosen_proj = edge_axis.dot(a + b);
  for (int e = 0; e < poly.edge_count; ++e) {
    Vec3 ea, eb;
    edge_points(e, ea, eb);
    const Vec3 ed = eb - ea;
    if (ed.cross(dir).norm() > Real(1e-6) * ed.norm()) continue;
    const Real proj = edge_axis.dot(ea + eb);
    if (proj > chosen_proj) chosen_proj = proj, chosen = e;
  }
  edge_points(chosen, a, b);
  Real t_seg = 0, t_edge = 0;
  Vec3 c_seg, c_edge;
  closest_points_segments(round.p0, round.p1, a, b, t_seg, t_edge, c_seg, c_edge);
  if (edge_axis.dot(c_seg - c_edge) - round.radius >= max_sep) return;
  s.contacts.push_back({c_seg - edge_axis * round.radius, c_edge, edge_axis,
                        feature_id(kTagRoundPolyEdge, static_cast<std::uint32_t>(chosen))});
}

}  // namespace sim::detail
