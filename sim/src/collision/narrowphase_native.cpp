// Cylinders and ellipsoids against round shapes, polyhedra and each other, from their exact
// support mappings (collision/support.hpp) instead of their hulls:
//   1. GJK (collision/gjk.cpp) between the cores (a round shape's point or segment, the solid
//      otherwise) gives the exact closest points of separated cores; the radii are added back, so
//      a sphere against a cylinder or an ellipsoid is exact whenever its centre is outside.
//   2. Overlapping cores: EPA (collision/epa.cpp) on their Minkowski difference gives the depth,
//      the normal and the deepest points. Either normal is then refined by Newton steps on the
//      support functions (collision/normal_refinement.hpp) where the surfaces are curved.
//   3. The manifold: each shape's feature facing the other along that normal, when it is flat to
//      within kFlatSin (about 6 degrees): a cylinder's cap (an octagon on its rim) or its side line,
//      a polyhedron's face, a capsule's segment; ellipsoids, spheres and anything else tilted give
//      a point. Two flat features are clipped like a polyhedron face pair (narrowphase_polyhedron):
//      the incident one (a cap as the 4 rim points the plane path uses) against the side planes of
//      the reference one (a polygon, preferably the second shape's, or a parallel segment), each
//      clipped point measured along the reference normal, and the result reduced to
//      kMaxNativeManifold points. The manifold is kept only when its deepest point agrees with the
//      GJK/EPA separation (else the features were not the contact); otherwise one contact at the
//      closest or deepest points.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "collision/epa.hpp"
#include "collision/geometry.hpp"
#include "collision/gjk.hpp"
#include "collision/narrowphase.hpp"
#include "collision/normal_refinement.hpp"
#include "collision/support.hpp"

namespace sim::detail {
namespace {

constexpr Real kFlatSin = Real(0.1);            // a feature is flat when tilted by less than ~5.7 degrees
constexpr Real kFlatCos = Real(0.99498743710662);  // sqrt(1 - kFlatSin²)
constexpr int kCapPoints = 8;                   // a cap as a reference polygon; 4 of them as incident

// The part of a shape's core that faces the direction `dir` (unit, towards the other shape).
struct Feature {
  int count = 0;               // 1: a point, 2: a segment, >= 3: a convex polygon (in order)
  Vec3 normal = Vec3::Zero();  // polygon: its outward normal
  std::uint32_t id = 0;        // which face, cap or side
  bool cap = false;            // a cylinder's cap (kCapPoints rim points from the deepest one)
};

Feature point_feature(const SupportShape& shape, const Vec3& dir, std::vector<ClipVertex>& out) {
  out.push_back({shape.support(dir), 0});
  return Feature{1};
}

Feature facing_feature(const Collider& c, const SupportShape& shape, const Vec3& dir, std::vector<ClipVertex>& out) {
  out.clear();
  if (c.kind == ColliderKind::Round) {
    const Vec3 u = c.p1 - c.p0;
    if (!c.segment() || std::abs(u.dot(dir)) > kFlatSin * u.norm()) return point_feature(shape, dir, out);
    out.push_back({c.p0, 0});
    out.push_back({c.p1, 1});
    return Feature{2, Vec3::Zero(), 0};
  }
  if (c.native == NativeShape::Ellipsoid) return point_feature(shape, dir, out);
  if (c.native == NativeShape::Cylinder) {
    const Vec3 axis = shape.rotation.col(2);
    const Real radius = shape.size.x(), h = shape.size.y();
    const Real along = axis.dot(dir);
    Vec3 across = dir - along * axis;  // towards the rim point deepest along dir
    const Real across_norm = across.norm();
    if (std::abs(along) >= kFlatCos) {
      const Vec3 m = along >= 0 ? axis : Vec3(-axis);
      const Vec3 d = across_norm > Real(1e-9) ? Vec3(across / across_norm) : Vec3(shape.rotation.col(0));
      const Vec3 e = m.cross(d);  // counter-clockwise about the outward normal m
      const Vec3 centre = shape.center + m * h;
      for (int k = 0; k < kCapPoints; ++k) {
        const Real t = Real(2) * std::numbers::pi_v<Real> * static_cast<Real>(k) / kCapPoints;
        out.push_back({centre + radius * (std::cos(t) * d + std::sin(t) * e), static_cast<std::uint32_t>(k)});
      }
      return Feature{kCapPoints, m, along >= 0 ? 1u : 0u, true};
    }
    if (std::abs(along) <= kFlatSin && across_norm > 0) {
      const Vec3 rim = shape.center + radius * across / across_norm;
      out.push_back({rim - h * axis, 0});
      out.push_back({rim + h * axis, 1});
      return Feature{2, Vec3::Zero(), 2};
    }
    return point_feature(shape, dir, out);
  }
  const PolyView& p = *c.poly;
  if (p.face_count == 0) return point_feature(shape, dir, out);
  int best = 0;
  for (int f = 1; f < p.face_count; ++f)
    if (p.normals[f].dot(dir) > p.normals[best].dot(dir)) best = f;
  if (p.normals[best].dot(dir) < kFlatCos) return point_feature(shape, dir, out);
  const int size = p.face_size(best), first = p.hull->face_first[best];
  for (int k = 0; k < size; ++k) {
    const int v = p.hull->face_vertices[first + k];
    out.push_back({p.vertices[v], static_cast<std::uint32_t>(v)});
  }
  return Feature{size, p.normals[best], static_cast<std::uint32_t>(best)};
}

// Clips the facing features into s.contacts. n: the GJK/EPA normal (second towards first), sep
// its separation. Returns false when the features give no manifold that agrees with sep.
bool flat_manifold(const Collider& first, const Collider& second, const SupportShape& sa, const SupportShape& sb,
                   const Vec3& n, Real sep, Real max_sep, NarrowScratch& s) {
  const Feature fa = facing_feature(first, sa, -n, s.feature_first);
  const Feature fb = facing_feature(second, sb, n, s.feature_second);
  if (fa.count < 2 || fb.count < 2) return false;
  bool ref_first = false;
  if (fa.count >= 3 && fb.count >= 3) ref_first = -n.dot(fa.normal) > n.dot(fb.normal) + Real(1e-3);
  else if (fa.count >= 3) ref_first = true;
  else if (fb.count < 3) {
    // Two segments: only parallel ones make a manifold (crossed ones touch at a point).
    const Vec3 ua = s.feature_first[1].p - s.feature_first[0].p, ub = s.feature_second[1].p - s.feature_second[0].p;
    if (ua.cross(ub).norm() > kFlatSin * ua.norm() * ub.norm()) return false;
  }
  const Feature& ref = ref_first ? fa : fb;
  const Feature& inc = ref_first ? fb : fa;
  const std::vector<ClipVertex>& r = ref_first ? s.feature_first : s.feature_second;
  const std::vector<ClipVertex>& in = ref_first ? s.feature_second : s.feature_first;
  s.clip_in.clear();
  for (int k = 0; k < inc.count; k += inc.cap ? 2 : 1) s.clip_in.push_back(in[static_cast<std::size_t>(k)]);

  const Real size = std::min(first.size, second.size);
  const Real merge_tol = Real(1e-3) * size;
  const Vec3 m = ref.count >= 3 ? ref.normal : Vec3::Zero();
  if (ref.count >= 3) {
    Vec3 area = Vec3::Zero();  // Newell's normal: the polygon's winding about m
    for (int k = 0; k < ref.count; ++k) area += r[static_cast<std::size_t>(k)].p.cross(r[static_cast<std::size_t>((k + 1) % ref.count)].p);
    const Real winding = area.dot(m) >= 0 ? Real(1) : Real(-1);
    for (int k = 0; k < ref.count && !s.clip_in.empty(); ++k) {
      const Vec3& a = r[static_cast<std::size_t>(k)].p;
      const Vec3& b = r[static_cast<std::size_t>((k + 1) % ref.count)].p;
      Vec3 side = winding * (b - a).cross(m);
      const Real len = side.norm();
      if (!(len > 0)) continue;
      side /= len;
      clip_polygon(s.clip_in, side, side.dot(a), static_cast<std::uint32_t>(k), s.clip_out, merge_tol);
      std::swap(s.clip_in, s.clip_out);
    }
  } else {
    const Vec3 u = (r[1].p - r[0].p).normalized();
    clip_polygon(s.clip_in, -u, -u.dot(r[0].p), 0, s.clip_out, merge_tol);
    std::swap(s.clip_in, s.clip_out);
    if (!s.clip_in.empty()) clip_polygon(s.clip_in, u, u.dot(r[1].p), 1, s.clip_out, merge_tol);
    std::swap(s.clip_in, s.clip_out);
  }

  const std::size_t begin = s.contacts.size();
  const Real tol2 = merge_tol * merge_tol;
  const std::uint32_t ref_tag = ref.id | (ref_first ? 0x100u : 0u);
  Real deepest = std::numeric_limits<Real>::infinity();
  for (const ClipVertex& cv : s.clip_in) {
    const Vec3& p = cv.p;
    Vec3 normal, on_ref;
    if (ref.count >= 3) {
      on_ref = p - m * m.dot(p - r[0].p);
      normal = ref_first ? Vec3(-m) : m;
    } else {
      const Vec3 u = (r[1].p - r[0].p).normalized();
      on_ref = r[0].p + u * u.dot(p - r[0].p);
      normal = n;
    }
    const Vec3 core_first = ref_first ? on_ref : p, core_second = ref_first ? p : on_ref;
    const RawContact c{core_first - normal * sa.radius, core_second + normal * sb.radius, normal,
                       feature_id(kTagNativeFace, ref_tag, inc.id, cv.id)};
    const Real gap = c.separation();
    deepest = std::min(deepest, gap);
    if (gap >= max_sep) continue;
    bool merged = false;
    for (std::size_t k = begin; k < s.contacts.size() && !merged; ++k) {
      RawContact& other = s.contacts[k];
      if ((other.point_first - c.point_first).squaredNorm() > tol2) continue;
      if (gap < other.separation()) other = c;
      merged = true;
    }
    if (!merged) s.contacts.push_back(c);
  }
  // The manifold must hold the deepest point and not be deeper than it (else the reference
  // feature's normal is not the contact's).
  const Real tol = Real(1e-3) * std::abs(sep) + Real(1e-4) * size;
  if (s.contacts.size() == begin || std::abs(deepest - sep) > tol) {
    s.contacts.resize(begin);
    return false;
  }
  reduce_manifold(s.contacts, begin, kMaxNativeManifold, s.keep);
  return true;
}

}  // namespace

void collide_native_convex(const Collider& first, const Collider& second, Real max_sep, NarrowScratch& s) {
  const SupportShape sa = support_of(first), sb = support_of(second);
  const Real radii = sa.radius + sb.radius;
  const Real size = std::max(first.size, second.size);  // GJK and EPA work at the larger shape's scale
  constexpr Real kRel = sizeof(Real) == 8 ? Real(1e-9) : Real(1e-5);
  const GjkResult g = gjk_distance(sa, sb);
  Vec3 n, pa, pb;
  Real sep = 0;
  if (!g.overlap && g.distance > kRel * size) {
    sep = g.distance - radii;
    if (sep >= max_sep) return;
    n = (g.point_a - g.point_b) / g.distance;
    pa = g.point_a, pb = g.point_b;
  } else {
    const EpaResult e = epa_penetration(sa, sb, g, kRel * size);
    if (e.ok) {
      n = -e.normal;
      sep = -e.depth - radii;
      pa = e.point_a, pb = e.point_b;
    } else {
      // Flat sets (no volume): the axis between the centres, with the separation along it.
      n = sa.interior() - sb.interior();
      n = n.norm() > 0 ? Vec3(n.normalized()) : Vec3(Vec3::UnitZ());
      pa = sa.support(-n), pb = sb.support(n);
      sep = n.dot(pa - pb) - radii;
    }
  }
  refine_normal(sa, sb, n, size);
  if (g.overlap || !(g.distance > kRel * size)) {
    // EPA's depth is a lower bound (exact when it converged); the separation along the refined
    // normal, φ(n) = n·(s_A(-n) - s_B(n)), an upper one that holds where EPA ran out of room.
    const Real along = n.dot(sa.support(-n) - sb.support(n)) - radii;
    if (along < sep) pb += n * (sep - along), sep = along;
  }
  if (flat_manifold(first, second, sa, sb, n, sep, max_sep, s)) return;
  if (sep >= max_sep) return;
  s.contacts.push_back({pa - n * sa.radius, pb + n * sb.radius, n, feature_id(kTagNativePoint, 0)});
}

}  // namespace sim::detail
