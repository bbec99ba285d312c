// Convex polyhedron against convex polyhedron (boxes and convex meshes), after D. Gregorius, "The
// Separating Axis Test between Convex Polyhedra" (GDC 2013) and "Robust Contact Creation for
// Physics Simulations" (GDC 2015):
//   1. SAT over the face normals of both shapes, then over the edge pairs that build a face of
//      the Minkowski difference (their Gauss-map arcs cross); boxes use their 9 cross axes.
//   2. Separated shapes: GJK gives the exact distance; when it equals a face's or the edge pair's
//      separation that feature makes the manifold, else the GJK closest points make one contact.
//   3. Touching or penetrating: the axis of least penetration, with a bias to faces (and to the
//      first shape's faces) so that resting manifolds do not flip between features.
//   4. A face manifold clips the most anti-parallel ("incident") face of the other shape against
//      the side planes of the reference face, keeps points below the margin and reduces them to
//      kMaxClipManifold points; an edge pair gives the closest points of the two edges.
#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/geometry.hpp"
#include "collision/gjk.hpp"
#include "collision/narrowphase.hpp"

namespace sim::detail {
namespace {

constexpr Real kInf = std::numeric_limits<Real>::infinity();

struct FaceQuery {
  int face = -1;
  Real separation = -kInf;
};

struct EdgeQuery {
  Real separation = -kInf;
  Vec3 axis = Vec3::UnitZ();  // unit, from the first shape towards the second
  Vec3 a0, a1, b0, b1;        // the two edges
  std::uint32_t id_a = 0, id_b = 0;
};

// Faces of `a` against the vertices of `b`; stops early once a face separates by `stop`.
FaceQuery query_faces(const PolyView& a, const PolyView& b, Real stop) {
  FaceQuery q;
  for (int f = 0; f < a.face_count; ++f) {
    const Real sep = poly_min_projection(b, a.normals[f]) - a.offsets[f];
    if (sep > q.separation) {
      q.separation = sep;
      q.face = f;
      if (sep >= stop) break;
    }
  }
  return q;
}

// Two boxes: all 15 axes in closed form in a's frame (Gottschalk, Lin, Manocha 1996), with
// R = Raᵀ Rb and t = Raᵀ (c_b - c_a). Face indices follow box_hull: 2 axis + (positive side).
void query_boxes(const PolyView& a, const PolyView& b, FaceQuery& fa, FaceQuery& fb, EdgeQuery& ee) {
  const Mat3 r = a.rotation.transpose() * b.rotation;
  const Mat3 abs_r = r.cwiseAbs();
  const Vec3 t = a.rotation.transpose() * (b.center - a.center);
  const Vec3 tb = r.transpose() * t;
  const Vec3& ea = a.half_extents;
  const Vec3& eb = b.half_extents;
  for (int i = 0; i < 3; ++i) {
    const Real sep = std::abs(t[i]) - ea[i] - abs_r.row(i).dot(eb);
    if (sep > fa.separation) fa.separation = sep, fa.face = 2 * i + (t[i] >= 0 ? 1 : 0);
  }
  for (int j = 0; j < 3; ++j) {
    const Real sep = std::abs(tb[j]) - eb[j] - abs_r.col(j).dot(ea);
    if (sep > fb.separation) fb.separation = sep, fb.face = 2 * j + (tb[j] <= 0 ? 1 : 0);
  }
  int best_i = -1, best_j = -1;
  Vec3 best_axis_a = Vec3::Zero();  // in a's frame, oriented from a to b
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const Real len = std::sqrt(r(i1, j) * r(i1, j) + r(i2, j) * r(i2, j));
      if (len <= Real(1e-6)) continue;  // parallel edges: a face axis covers it
      const Real proj = t[i2] * r(i1, j) - t[i1] * r(i2, j);
      const Real ra = ea[i1] * abs_r(i2, j) + ea[i2] * abs_r(i1, j);
      const Real rb = eb[j1] * abs_r(i, j2) + eb[j2] * abs_r(i, j1);
      const Real sep = (std::abs(proj) - ra - rb) / len;
      if (sep > ee.separation) {
        ee.separation = sep;
        best_i = i, best_j = j;
        Vec3 axis = Vec3::Zero();  // a_i × b_j in a's frame
        axis[i1] = -r(i2, j);
        axis[i2] = r(i1, j);
        best_axis_a = (proj >= 0 ? axis : Vec3(-axis)) / len;
      }
    }
  }
  if (best_i < 0) return;
  ee.axis = a.rotation * best_axis_a;
  // The edge of a farthest along the axis and the edge of b farthest against it.
  auto support_edge = [](const PolyView& p, int k, const Vec3& dir, Vec3& e0, Vec3& e1, std::uint32_t& id) {
    Vec3 c = p.center;
    id = static_cast<std::uint32_t>(k) << 2;
    int bit = 0;
    for (int m = 0; m < 3; ++m) {
      if (m == k) continue;
      const bool positive = p.rotation.col(m).dot(dir) >= 0;
      c += (positive ? p.half_extents[m] : -p.half_extents[m]) * p.rotation.col(m);
      id |= static_cast<std::uint32_t>(positive) << bit++;
    }
    const Vec3 h = p.half_extents[k] * p.rotation.col(k);
    e0 = c - h;
    e1 = c + h;
  };
  support_edge(a, best_i, ee.axis, ee.a0, ee.a1, ee.id_a);
  support_edge(b, best_j, -ee.axis, ee.b0, ee.b1, ee.id_b);
}

// General polyhedra: only edge pairs whose Gauss-map arcs intersect (a Minkowski face) can be
// a separating axis; their separation is measured from a's interior point.
EdgeQuery query_edges_gauss(const PolyView& a, const PolyView& b, Real stop) {
  EdgeQuery q;
  int best_a = -1, best_b = -1;
  const int* ev_a = a.hull->edge_vertices.data();
  const int* ev_b = b.hull->edge_vertices.data();
  const int* ef_a = a.topology->edge_faces.data();
  const int* ef_b = b.topology->edge_faces.data();
  for (int i = 0; i < a.edge_count; ++i) {
    const Vec3& na1 = a.normals[ef_a[2 * i]];
    const Vec3& na2 = a.normals[ef_a[2 * i + 1]];
    const Vec3& arc_a = a.edge_arcs[i];
    const Vec3& pa = a.vertices[ev_a[2 * i]];
    const Vec3 ea = a.vertices[ev_a[2 * i + 1]] - pa;
    for (int j = 0; j < b.edge_count; ++j) {
      // Arcs (na1, na2) and (-nb1, -nb2) on the unit sphere.
      const Vec3& nb1 = b.normals[ef_b[2 * j]];
      const Vec3& nb2 = b.normals[ef_b[2 * j + 1]];
      const Real cba = -nb1.dot(arc_a), dba = -nb2.dot(arc_a);
      if (cba * dba >= 0) continue;
      const Vec3& arc_b = b.edge_arcs[j];
      const Real adc = na1.dot(arc_b), bdc = na2.dot(arc_b);
      if (adc * bdc >= 0 || cba * bdc <= 0) continue;
      const Vec3& pb = b.vertices[ev_b[2 * j]];
      const Vec3 eb = b.vertices[ev_b[2 * j + 1]] - pb;
      Vec3 axis = ea.cross(eb);
      const Real len = axis.norm();
      if (len <= Real(1e-6) * ea.norm() * eb.norm()) continue;
      axis /= len;
      if (axis.dot(pa - a.centroid) < 0) axis = -axis;
      const Real sep = axis.dot(pb - pa);
      if (sep > q.separation) {
        q.separation = sep, q.axis = axis, best_a = i, best_b = j;
        if (sep >= stop) break;
      }
    }
    if (q.separation >= stop) break;
  }
  if (best_a < 0) return q;
  q.a0 = a.vertices[ev_a[2 * best_a]];
  q.a1 = a.vertices[ev_a[2 * best_a + 1]];
  q.b0 = b.vertices[ev_b[2 * best_b]];
  q.b1 = b.vertices[ev_b[2 * best_b + 1]];
  q.id_a = static_cast<std::uint32_t>(best_a);
  q.id_b = static_cast<std::uint32_t>(best_b);
  return q;
}

// Reference face `face` of `ref` against the incident face of `inc` (the most anti-parallel one;
// for a hull, among the faces around its deepest vertex).
void face_contacts(const PolyView& ref, int face, const PolyView& inc, bool ref_is_first,
                   Real max_sep, Real merge_tol, NarrowScratch& s) {
  // A face index derived from non-finite separations (-1) never indexes the hull (issue 13).
  if (face < 0 || face >= ref.face_count) return;
  const Vec3 n = ref.normals[face];
  const Real d = ref.offsets[face];
  int inc_face = 0;
  if (inc.is_box) {
    const Vec3 local = inc.rotation.transpose() * n;
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (std::abs(local[k]) > std::abs(local[axis])) axis = k;
    inc_face = 2 * axis + (local[axis] < 0 ? 1 : 0);
  } else {
    // The most anti-parallel face among those around the deepest vertex, so that the incident
    // polygon holds the deepest point even when the hull's faces are steep.
    int deepest = 0;
    for (int v = 1; v < inc.vertex_count; ++v)
      if (inc.vertices[v].dot(n) < inc.vertices[deepest].dot(n)) deepest = v;
    const HullTopology& t = *inc.topology;
    Real most = kInf;
    for (int k = t.vertex_face_first[deepest]; k < t.vertex_face_first[deepest + 1]; ++k) {
      const int g = t.vertex_faces[k];
      const Real c = inc.normals[g].dot(n);
      if (c < most) most = c, inc_face = g;
    }
  }
  s.incident.clear();
  const int inc_size = inc.face_size(inc_face);
  const int inc_first = inc.hull->face_first[inc_face];
  for (int k = 0; k < inc_size; ++k) {
    const int v = inc.hull->face_vertices[inc_first + k];
    s.incident.push_back({inc.vertices[v], static_cast<std::uint32_t>(v)});
  }
  s.clip_in = s.incident;
  s.corners.clear();
  const int ref_size = ref.face_size(face);
  for (int k = 0; k < ref_size; ++k) s.corners.push_back(ref.face_vertex(face, k));
  if (ref.is_box) {
    // The side planes of a box face are the faces of its two other axes.
    const int axis = face / 2;
    for (int m = 0; m < 3; ++m) {
      if (m == axis) continue;
      const Vec3 u = ref.rotation.col(m);
      const Real c = u.dot(ref.center);
      for (int side = 0; side < 2 && !s.clip_in.empty(); ++side) {
        const Real sign = side ? Real(1) : Real(-1);
        clip_polygon(s.clip_in, sign * u, sign * c + ref.half_extents[m], static_cast<std::uint32_t>(2 * m + side),
                     s.clip_out, merge_tol);
        std::swap(s.clip_in, s.clip_out);
      }
    }
  } else {
    for (int k = 0; k < ref_size && !s.clip_in.empty(); ++k) {
      const Vec3& a = s.corners[k];
      const Vec3& b = s.corners[k + 1 < ref_size ? k + 1 : 0];
      Vec3 side = (b - a).cross(n);
      const Real len = side.norm();
      if (len <= Real(0)) continue;
      side /= len;
      clip_polygon(s.clip_in, side, side.dot(a), static_cast<std::uint32_t>(k), s.clip_out, merge_tol);
      std::swap(s.clip_in, s.clip_out);
    }
  }
  const std::uint32_t tag = ref_is_first ? kTagPolyFaceFirst : kTagPolyFaceSecond;
  const std::size_t begin = s.contacts.size();
  // A clip point within merge_tol of a reference face corner or of an incident vertex takes that
  // feature's id, and points within merge_tol of each other merge (the deeper one stays): faces
  // that coincide up to round-off or a tiny rotation then keep the same points and keys from
  // step to step instead of flipping between vertices and clip points.
  const Real tol2 = merge_tol * merge_tol;
  auto emit = [&](const Vec3& p, std::uint32_t id) {
    const Real sep = n.dot(p) - d;
    if (sep >= max_sep) return;
    const Vec3 on_ref = p - n * sep;
    bool snapped = (id & 0x80000000u) == 0;  // an incident vertex keeps its own id
    for (int k = 0; k < ref_size && !snapped; ++k) {
      if ((s.corners[k] - on_ref).squaredNorm() <= tol2) {
        id = 0x40000000u | static_cast<std::uint32_t>(k);
        snapped = true;
      }
    }
    for (int k = 0; k < inc_size && !snapped; ++k)
      if ((s.incident[k].p - p).squaredNorm() <= tol2) id = s.incident[k].id, snapped = true;
    const std::uint64_t feature =
        feature_id(tag, static_cast<std::uint32_t>(face), static_cast<std::uint32_t>(inc_face), id);
    const RawContact c = ref_is_first ? RawContact{on_ref, p, -n, feature} : RawContact{p, on_ref, n, feature};
    for (std::size_t k = begin; k < s.contacts.size(); ++k) {
      RawContact& other = s.contacts[k];
      const Vec3& q = ref_is_first ? other.point_second : other.point_first;
      if ((q - p).squaredNorm() > tol2) continue;
      if (c.separation() < other.separation()) other = c;
      return;
    }
    s.contacts.push_back(c);
  };
  for (const ClipVertex& cv : s.clip_in) emit(cv.p, cv.id);
  if (s.contacts.size() == begin && s.clip_in.empty()) {
    // The faces' shadows miss each other (a touching edge): the incident vertex deepest along -n.
    int deepest = 0;
    for (int v = 1; v < inc.vertex_count; ++v)
      if (inc.vertices[v].dot(n) < inc.vertices[deepest].dot(n)) deepest = v;
    emit(inc.vertices[deepest], 0xfffffff0u);
  }
  reduce_manifold(s.contacts, begin, kMaxClipManifold, s.keep);
}

void edge_contact(const EdgeQuery& q, Real max_sep, NarrowScratch& s) {
  Real ta = 0, tb = 0;
  Vec3 ca, cb;
  closest_points_segments(q.a0, q.a1, q.b0, q.b1, ta, tb, ca, cb);
  if (q.axis.dot(cb - ca) >= max_sep) return;
  s.contacts.push_back({ca, cb, -q.axis, feature_id(kTagPolyEdge, q.id_a, q.id_b)});
}

}  // namespace

void collide_poly_poly(const Collider& first, const Collider& second, Real max_sep, NarrowScratch& s) {
  const PolyView& a = *first.poly;
  const PolyView& b = *second.poly;
  FaceQuery fa, fb;
  EdgeQuery ee;
  if (a.is_box && b.is_box) {
    query_boxes(a, b, fa, fb, ee);
    if (std::max({fa.separation, fb.separation, ee.separation}) >= max_sep) return;
  } else {
    fa = query_faces(a, b, max_sep);
    if (fa.separation >= max_sep) return;
    fb = query_faces(b, a, max_sep);
    if (fb.separation >= max_sep) return;
    ee = query_edges_gauss(a, b, max_sep);
    if (ee.separation >= max_sep) return;
  }
  // NaN separations (non-finite poses; step() refuses those at its entry) make no contact.
  if (fa.face < 0 || fb.face < 0 || std::isnan(fa.separation) || std::isnan(fb.separation) || std::isnan(ee.separation))
    return;

  const Real size = std::min(first.size, second.size);
  const Real merge_tol = Real(1e-3) * size;
  const Real sat = std::max({fa.separation, fb.separation, ee.separation});
  if (sat > Real(1e-4) * size) {
    const GjkResult g = gjk_distance({a.vertices, a.vertex_count}, {b.vertices, b.vertex_count});
    if (!g.overlap) {
      if (g.distance >= max_sep) return;
      // A feature whose separation equals the distance (within 0.1 % of it) makes the manifold,
      // provided the manifold holds the closest points; else the GJK points make one contact.
      const Real tol = Real(1e-3) * g.distance + roundoff_tolerance(size, a.centroid.norm());
      const std::size_t begin = s.contacts.size();
      if (g.distance <= fa.separation + tol) face_contacts(a, fa.face, b, true, max_sep, merge_tol, s);
      else if (g.distance <= fb.separation + tol) face_contacts(b, fb.face, a, false, max_sep, merge_tol, s);
      else if (g.distance <= ee.separation + tol) edge_contact(ee, max_sep, s);
      Real closest = kInf;
      for (std::size_t k = begin; k < s.contacts.size(); ++k) closest = std::min(closest, s.contacts[k].separation());
      if (closest <= g.distance + tol) return;
      s.contacts.resize(begin);
      const Vec3 n = (g.point_a - g.point_b) / g.distance;
      s.contacts.push_back({g.point_a, g.point_b, n, feature_id(kTagPolyPoint, 0)});
      return;
    }
  }
  // Touching or penetrating. A candidate must beat the current choice by a relative and an
  // absolute tolerance: faces over edges, the first shape's faces over the second's.
  const Real abs_tol = Real(1e-3) * size;
  const auto clearly_better = [abs_tol](Real candidate, Real current, Real rel) {
    return candidate > current + rel * std::abs(current) + abs_tol;
  };
  if (ee.separation > -kInf && clearly_better(ee.separation, std::max(fa.separation, fb.separation), Real(0.05)))
    return edge_contact(ee, max_sep, s);
  if (clearly_better(fb.separation, fa.separation, Real(0.02)))
    return face_contacts(b, fb.face, a, false, max_sep, merge_tol, s);
  face_contacts(a, fa.face, b, true, max_sep, merge_tol, s);
}

}  // namespace sim::detail
