// GJK with Johnson's sub-algorithm done geometrically: the closest point of the current simplex
// (point, segment, triangle, tetrahedron) to the origin by Voronoi regions (Ericson, Real-Time
// Collision Detection 5.1.2 and 5.1.6), keeping only the vertices that support it.
#include "collision/gjk.hpp"

#include <limits>

namespace sim::detail {
namespace {

struct Vertex {
  Vec3 w;     // a - b: a point of the Minkowski difference
  Vec3 a, b;  // the support points that made it
};

struct Simplex {
  Vertex v[4];
  Real lambda[4] = {1, 0, 0, 0};  // barycentric weights of the closest point
  int n = 0;
};

void keep(Simplex& s, std::initializer_list<int> which, std::initializer_list<Real> weights) {
  Vertex tmp[4];
  Real w[4];
  int k = 0;
  auto wi = weights.begin();
  for (int i : which) {
    tmp[k] = s.v[i];
    w[k] = *wi++;
    ++k;
  }
  for (int i = 0; i < k; ++i) s.v[i] = tmp[i], s.lambda[i] = w[i];
  s.n = k;
}

void solve_segment(Simplex& s, int ia, int ib) {
  const Vec3& a = s.v[ia].w;
  const Vec3 ab = s.v[ib].w - a;
  const Real t = -a.dot(ab);
  if (t <= 0) return keep(s, {ia}, {1});
  const Real len2 = ab.squaredNorm();
  if (t >= len2) return keep(s, {ib}, {1});
  const Real u = t / len2;
  keep(s, {ia, ib}, {1 - u, u});
}

// Closest point of triangle (ia, ib, ic) to the origin.
void solve_triangle(Simplex& s, int ia, int ib, int ic) {
  const Vec3 a = s.v[ia].w, b = s.v[ib].w, c = s.v[ic].w;
  const Vec3 ab = b - a, ac = c - a;
  const Real d1 = -ab.dot(a), d2 = -ac.dot(a);
  if (d1 <= 0 && d2 <= 0) return keep(s, {ia}, {1});
  const Real d3 = -ab.dot(b), d4 = -ac.dot(b);
  if (d3 >= 0 && d4 <= d3) return keep(s, {ib}, {1});
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const Real v = d1 / (d1 - d3);
    return keep(s, {ia, ib}, {1 - v, v});
  }
  const Real d5 = -ab.dot(c), d6 = -ac.dot(c);
  if (d6 >= 0 && d5 <= d6) return keep(s, {ic}, {1});
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const Real w = d2 / (d2 - d6);
    return keep(s, {ia, ic}, {1 - w, w});
  }
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const Real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return keep(s, {ib, ic}, {1 - w, w});
  }
  const Real denom = Real(1) / (va + vb + vc);
  const Real v = vb * denom, w = vc * denom;
  keep(s, {ia, ib, ic}, {1 - v - w, v, w});
}

Vec3 point_of(const Simplex& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < s.n; ++i) p += s.lambda[i] * s.v[i].w;
  return p;
}

// Returns false when the origin is inside the tetrahedron (overlap).
bool solve_tetrahedron(Simplex& s) {
  static const int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  Simplex best;
  Real best_dist = std::numeric_limits<Real>::infinity();
  bool any_outside = false;
  for (const auto& f : faces) {
    const Vec3& a = s.v[f[0]].w;
    const Vec3 normal = (s.v[f[1]].w - a).cross(s.v[f[2]].w - a);
    const Real sign_origin = -normal.dot(a);
    const Real sign_opposite = normal.dot(s.v[f[3]].w - a);
    const bool degenerate = std::abs(sign_opposite) <= Real(1e-12) * normal.squaredNorm();
    if (!(sign_origin * sign_opposite < 0) && !degenerate) continue;
    any_outside = true;
    Simplex candidate = s;
    solve_triangle(candidate, f[0], f[1], f[2]);
    const Real dist = point_of(candidate).squaredNorm();
    if (dist < best_dist) best_dist = dist, best = candidate;
  }
  if (!any_outside) return false;
  s = best;
  return true;
}

void record_simplex(const Simplex& s, GjkResult& r) {
  r.simplex_count = s.n;
  for (int i = 0; i < s.n; ++i) r.simplex_a[i] = s.v[i].a, r.simplex_b[i] = s.v[i].b;
}

}  // namespace

GjkResult gjk_distance(const SupportShape& a, const SupportShape& b) {
  constexpr Real kRelTol = sizeof(Real) == 8 ? Real(1e-10) : Real(1e-5);
  constexpr int kMaxIterations = 64;
  GjkResult result;
  Simplex s;
  const Vec3 start = a.any_point() - b.any_point();
  Vec3 v = start;
  for (int it = 0; it < kMaxIterations; ++it) {
    result.iterations = it + 1;
    const Vec3 pa = a.support(-v), pb = b.support(v);
    const Vertex next{pa - pb, pa, pb};
    const Real vv = v.squaredNorm();
    if (s.n > 0) {
      if (vv - v.dot(next.w) <= kRelTol * vv) break;  // no support point gets closer
      bool duplicate = false;
      for (int i = 0; i < s.n; ++i) duplicate = duplicate || s.v[i].w == next.w;
      if (duplicate) break;
    }
    const Simplex previous = s;
    s.v[s.n++] = next;
    if (s.n == 2) solve_segment(s, 0, 1);
    else if (s.n == 3) solve_triangle(s, 0, 1, 2);
    else if (s.n == 4 && !solve_tetrahedron(s)) {
      result.overlap = true;
      record_simplex(s, result);
      return result;
    }
    if (s.n == 1) s.lambda[0] = 1;
    const Vec3 next_v = point_of(s);
    const Real next_vv = next_v.squaredNorm();
    if (next_vv <= std::numeric_limits<Real>::min() * Real(1e6) ||
        next_vv <= Real(1e-24) * start.squaredNorm()) {
      result.overlap = true;
      record_simplex(s, result);
      return result;
    }
    if (previous.n > 0 && next_vv >= vv) {  // numerical stall: keep the better simplex
      s = previous;
      break;
    }
    v = next_v;
  }
  Vec3 pa = Vec3::Zero(), pb = Vec3::Zero();
  for (int i = 0; i < s.n; ++i) {
    pa += s.lambda[i] * s.v[i].a;
    pb += s.lambda[i] * s.v[i].b;
  }
  result.point_a = pa;
  result.point_b = pb;
  record_simplex(s, result);
  result.distance = (pa - pb).norm();
  return result;
}

}  // namespace sim::detail
