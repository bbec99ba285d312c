// EPA over fixed-size arrays (no allocation): at most kMaxVertices support points. A face seen
// from the new support point is removed; the edges of the removed faces that only one of them
// holds form the horizon, which the new point is joined to. Faces are oriented away from an
// interior point of the first polytope (it stays inside as the polytope grows).
#include "collision/epa.hpp"

#include <cmath>
#include <limits>

#include "sim/math.hpp"

namespace sim::detail {
namespace {

constexpr int kMaxVertices = 96;
constexpr int kMaxFaces = 2 * kMaxVertices + 16;
constexpr int kMaxHorizon = 2 * kMaxVertices;

struct Polytope {
  Vec3 w[kMaxVertices], a[kMaxVertices], b[kMaxVertices];
  int vertex_count = 0;
  struct Face {
    int v[3];
    Vec3 n;
    Real d;
    bool live;
  } faces[kMaxFaces];
  int face_count = 0;
  Vec3 inside = Vec3::Zero();

  int add_vertex(const Vec3& pa, const Vec3& pb) {
    if (vertex_count >= kMaxVertices) return -1;
    a[vertex_count] = pa;
    b[vertex_count] = pb;
    w[vertex_count] = pa - pb;
    return vertex_count++;
  }

  // A face through vertices i, j, k, turned to face away from `inside`.
  bool add_face(int i, int j, int k) {
    if (face_count >= kMaxFaces) return false;
    Face& f = faces[face_count++];
    f.v[0] = i, f.v[1] = j, f.v[2] = k;
    Vec3 n = (w[j] - w[i]).cross(w[k] - w[i]);
    const Real len = n.norm();
    if (len > 0) n /= len;
    else n = (w[i] + w[j] + w[k]) / Real(3) - inside, n.normalize();  // a sliver: away from the inside
    if (n.dot(w[i] - inside) < 0) n = -n, std::swap(f.v[1], f.v[2]);
    f.n = n;
    f.d = n.dot(w[i]);
    f.live = true;
    return true;
  }
};

Vec3 support_pair(const SupportShape& sa, const SupportShape& sb, const Vec3& d, Vec3& pa, Vec3& pb) {
  pa = sa.support(d);
  pb = sb.support(-d);
  return pa - pb;
}

// The first polytope: GJK's simplex, grown to a solid by support points where GJK stopped on a
// point, segment or triangle that holds the origin. Returns false for flat sets.
bool initial_polytope(const SupportShape& sa, const SupportShape& sb, const GjkResult& g, Real tiny, Polytope& p) {
  for (int i = 0; i < g.simplex_count; ++i) p.add_vertex(g.simplex_a[i], g.simplex_b[i]);
  Vec3 pa, pb;
  if (p.vertex_count == 0) {
    support_pair(sa, sb, Vec3::UnitX(), pa, pb);
    p.add_vertex(pa, pb);
  }
  if (p.vertex_count == 1) {
    const Vec3 dirs[6] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
    for (const Vec3& d : dirs) {
      if ((support_pair(sa, sb, d, pa, pb) - p.w[0]).norm() > tiny) {
        p.add_vertex(pa, pb);
        break;
      }
    }
    if (p.vertex_count < 2) return false;
  }
  if (p.vertex_count == 2) {
    const Vec3 axis = (p.w[1] - p.w[0]).normalized();
    Vec3 t1, t2;
    orthonormal_basis(axis, t1, t2);
    const Vec3 dirs[4] = {t1, -t1, t2, -t2};
    for (const Vec3& d : dirs) {
      const Vec3 w = support_pair(sa, sb, d, pa, pb);
      if ((w - p.w[0]).cross(axis).norm() > tiny) {
        p.add_vertex(pa, pb);
        break;
      }
    }
    if (p.vertex_count < 3) return false;
  }
  if (p.vertex_count == 3) {
    // A double pyramid on the triangle (the origin is in it), or a tetrahedron when one side is flat.
    Vec3 m = (p.w[1] - p.w[0]).cross(p.w[2] - p.w[0]);
    if (!(m.norm() > 0)) return false;
    m.normalize();
    Vec3 qa, qb;
    const Vec3 up = support_pair(sa, sb, m, pa, pb), down = support_pair(sa, sb, -m, qa, qb);
    const bool has_up = m.dot(up - p.w[0]) > tiny, has_down = m.dot(p.w[0] - down) > tiny;
    if (!has_up && !has_down) return false;
    const int iu = has_up ? p.add_vertex(pa, pb) : -1;
    const int id = has_down ? p.add_vertex(qa, qb) : -1;
    p.inside = Vec3::Zero();
    for (int i = 0; i < p.vertex_count; ++i) p.inside += p.w[i];
    p.inside /= static_cast<Real>(p.vertex_count);
    for (int apex : {iu, id}) {
      if (apex < 0) continue;
      p.add_face(0, 1, apex), p.add_face(1, 2, apex), p.add_face(2, 0, apex);
    }
    if (iu < 0 || id < 0) p.add_face(0, 1, 2);
    return true;
  }
  // A tetrahedron.
  if (std::abs((p.w[1] - p.w[0]).cross(p.w[2] - p.w[0]).dot(p.w[3] - p.w[0])) <= tiny * tiny * tiny) return false;
  p.inside = Real(0.25) * (p.w[0] + p.w[1] + p.w[2] + p.w[3]);
  p.add_face(0, 1, 2), p.add_face(0, 3, 1), p.add_face(0, 2, 3), p.add_face(1, 3, 2);
  return true;
}

}  // namespace

EpaResult epa_penetration(const SupportShape& sa, const SupportShape& sb, const GjkResult& gjk, Real tolerance) {
  EpaResult r;
  Polytope p;
  const Real tiny = tolerance * Real(1e-3);
  if (!initial_polytope(sa, sb, gjk, tiny, p)) return r;
  int best = -1;
  struct Edge {
    int from, to;
  } horizon[kMaxHorizon];
  bool visible[kMaxFaces];
  for (int it = 0; it < 4 * kMaxVertices; ++it) {
    r.iterations = it + 1;
    best = -1;
    for (int f = 0; f < p.face_count; ++f)
      if (p.faces[f].live && (best < 0 || p.faces[f].d < p.faces[best].d)) best = f;
    if (best < 0) return r;
    const Vec3 n = p.faces[best].n;
    Vec3 pa, pb;
    const Vec3 w = support_pair(sa, sb, n, pa, pb);
    if (n.dot(w) - p.faces[best].d <= tolerance) break;
    // The faces the new point sees (the closest one always) and their horizon: the edges only one
    // of them holds. Checked for room before the polytope changes; out of room (or vertices), the
    // closest face so far stands, within its gain of the depth.
    if (p.vertex_count >= kMaxVertices) break;
    int edges = 0, visible_count = 0;
    bool overflow = false;
    for (int f = 0; f < p.face_count; ++f) {
      const Polytope::Face& face = p.faces[f];
      visible[f] = face.live && (f == best || face.n.dot(w - p.w[face.v[0]]) > tiny);
      if (!visible[f]) continue;
      ++visible_count;
      for (int k = 0; k < 3; ++k) {
        const int from = face.v[k], to = face.v[(k + 1) % 3];
        int twin = -1;
        for (int e = 0; e < edges; ++e)
          if (horizon[e].from == to && horizon[e].to == from) twin = e;
        if (twin >= 0) horizon[twin] = horizon[--edges];
        else if (edges < kMaxHorizon) horizon[edges++] = {from, to};
        else overflow = true;
      }
    }
    if (overflow || p.face_count - visible_count + edges > kMaxFaces) break;
    const int v = p.add_vertex(pa, pb);
    int kept = 0;
    for (int f = 0; f < p.face_count; ++f)
      if (!visible[f] && p.faces[f].live) p.faces[kept++] = p.faces[f];
    p.face_count = kept;
    for (int e = 0; e < edges; ++e) p.add_face(horizon[e].from, horizon[e].to, v);
    best = -1;
  }
  if (best < 0) {
    for (int f = 0; f < p.face_count; ++f)
      if (p.faces[f].live && (best < 0 || p.faces[f].d < p.faces[best].d)) best = f;
    if (best < 0) return r;
  }
  const Polytope::Face& f = p.faces[best];
  // Barycentric coordinates of the origin's projection d·n in the face.
  const Vec3 q = f.d * f.n;
  const Vec3 w0 = p.w[f.v[0]], e1 = p.w[f.v[1]] - w0, e2 = p.w[f.v[2]] - w0, t = q - w0;
  const Real d11 = e1.dot(e1), d12 = e1.dot(e2), d22 = e2.dot(e2), t1 = t.dot(e1), t2 = t.dot(e2);
  const Real det = d11 * d22 - d12 * d12;
  Real l1 = 0, l2 = 0;
  if (det > 0) l1 = (d22 * t1 - d12 * t2) / det, l2 = (d11 * t2 - d12 * t1) / det;
  const Real l0 = 1 - l1 - l2;
  r.point_a = l0 * p.a[f.v[0]] + l1 * p.a[f.v[1]] + l2 * p.a[f.v[2]];
  r.point_b = l0 * p.b[f.v[0]] + l1 * p.b[f.v[1]] + l2 * p.b[f.v[2]];
  r.normal = f.n;
  r.depth = std::max(f.d, Real(0));
  r.ok = std::isfinite(r.depth) && std::isfinite(r.point_a.squaredNorm()) && std::isfinite(r.point_b.squaredNorm());
  return r;
}

}  // namespace sim::detail
