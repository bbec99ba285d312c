// Mesh surfaces: UV tangent frames and the closest-triangle BVH (sim/mesh_surface.hpp).
#include "sim/mesh_surface.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sim {

namespace {

constexpr int kLeafTriangles = 4;
constexpr int kStackSize = 64;

// Closest point on triangle (a, b, c) to p (Ericson, Real-Time Collision Detection §5.1.5), as
// barycentrics (b1, b2) of b and c.
void closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Real& v_out, Real& w_out) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const Real d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return void((v_out = 0, w_out = 0));
  const Vec3 bp = p - b;
  const Real d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return void((v_out = 1, w_out = 0));
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return void((v_out = d1 / (d1 - d3), w_out = 0));
  const Vec3 cp = p - c;
  const Real d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return void((v_out = 0, w_out = 1));
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return void((v_out = 0, w_out = d2 / (d2 - d6)));
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const Real w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return void((v_out = 1 - w, w_out = w));
  }
  const Real denom = 1 / (va + vb + vc);
  v_out = vb * denom;
  w_out = vc * denom;
}

Real box_distance2(const Vec3& p, const Vec3& lo, const Vec3& hi) {
  return (lo - p).cwiseMax(p - hi).cwiseMax(Vec3::Zero()).squaredNorm();
}

struct Builder {
  MeshSurface& s;
  std::vector<Vec3> centroid;
  int build(int first, int count, int depth) {
    MeshSurface::Node node;
    node.lo = Vec3::Constant(std::numeric_limits<Real>::max());
    node.hi = -node.lo;
    Vec3 clo = node.lo, chi = node.hi;
    for (int k = first; k < first + count; ++k) {
      const auto& t = s.triangles[s.order[k]];
      for (int c = 0; c < 3; ++c) node.lo = node.lo.cwiseMin(s.vertices[t[c]]), node.hi = node.hi.cwiseMax(s.vertices[t[c]]);
      clo = clo.cwiseMin(centroid[s.order[k]]), chi = chi.cwiseMax(centroid[s.order[k]]);
    }
    const int index = static_cast<int>(s.nodes.size());
    s.nodes.push_back(node);
    if (count <= kLeafTriangles || depth >= 48) {
      s.nodes[index].first = first, s.nodes[index].count = count;
      return index;
    }
    int axis = 0;
    (chi - clo).maxCoeff(&axis);
    const int mid = first + count / 2;
    std::nth_element(s.order.begin() + first, s.order.begin() + mid, s.order.begin() + first + count,
                     [&](int x, int y) { return centroid[x][axis] < centroid[y][axis]; });
    const int left = build(first, mid - first, depth + 1);
    const int right = build(mid, first + count - mid, depth + 1);
    s.nodes[index].left = left, s.nodes[index].right = right;
    return index;
  }
};

}  // namespace

MeshSurface make_mesh_surface(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                              const std::vector<Vec2>& corner_uvs) {
  MeshSurface s;
  s.vertices = vertices;
  s.triangles = triangles;
  s.corner_uvs = corner_uvs;
  s.corner_uvs.resize(3 * triangles.size(), Vec2::Zero());
  s.tangent_u.assign(triangles.size(), Vec3::Zero());
  s.tangent_v.assign(triangles.size(), Vec3::Zero());
  const int n = static_cast<int>(vertices.size());
  Builder builder{s, std::vector<Vec3>(triangles.size(), Vec3::Zero())};
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    if (tri[0] < 0 || tri[1] < 0 || tri[2] < 0 || tri[0] >= n || tri[1] >= n || tri[2] >= n) continue;
    const Vec3 e1 = vertices[tri[1]] - vertices[tri[0]], e2 = vertices[tri[2]] - vertices[tri[0]];
    if (!(e1.cross(e2).norm() > 0) || !e1.allFinite() || !e2.allFinite()) continue;
    s.order.push_back(static_cast<int>(t));
    builder.centroid[t] = (vertices[tri[0]] + vertices[tri[1]] + vertices[tri[2]]) / 3;
    // [e1 e2] = [Tu Tv] [Δuv1 Δuv2]  ⇒  [Tu Tv] = [e1 e2] [Δuv1 Δuv2]⁻¹.
    const Vec2 d1 = s.corner_uvs[3 * t + 1] - s.corner_uvs[3 * t], d2 = s.corner_uvs[3 * t + 2] - s.corner_uvs[3 * t];
    const Real det = d1.x() * d2.y() - d2.x() * d1.y();
    if (!(std::abs(det) > 0) || !std::isfinite(det)) continue;
    s.tangent_u[t] = (e1 * d2.y() - e2 * d1.y()) / det;
    s.tangent_v[t] = (e2 * d1.x() - e1 * d2.x()) / det;
  }
  if (!s.order.empty()) builder.build(0, static_cast<int>(s.order.size()), 0);
  return s;
}

SurfacePoint MeshSurface::closest_point(const Vec3& p) const {
  SurfacePoint best;
  if (nodes.empty()) return best;
  Real best_d2 = std::numeric_limits<Real>::infinity();
  int stack[kStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes[stack[--top]];
    if (box_distance2(p, node.lo, node.hi) >= best_d2) continue;
    if (node.count > 0) {
      for (int k = node.first; k < node.first + node.count; ++k) {
        const auto& t = triangles[order[k]];
        Real b1 = 0, b2 = 0;
        closest_on_triangle(p, vertices[t[0]], vertices[t[1]], vertices[t[2]], b1, b2);
        const Vec3 q = (1 - b1 - b2) * vertices[t[0]] + b1 * vertices[t[1]] + b2 * vertices[t[2]];
        const Real d2 = (q - p).squaredNorm();
        if (d2 < best_d2) best_d2 = d2, best = {order[k], float(b1), float(b2)};
      }
      continue;
    }
    // Nearer child last (popped first).
    const Node &l = nodes[node.left], &r = nodes[node.right];
    const bool left_first = box_distance2(p, l.lo, l.hi) <= box_distance2(p, r.lo, r.hi);
    if (top + 2 > kStackSize) continue;  // cannot happen at depth ≤ 48
    stack[top++] = left_first ? node.right : node.left;
    stack[top++] = left_first ? node.left : node.right;
  }
  return best;
}

SurfacePoint MeshSurface::intersect_ray(const Vec3& origin, const Vec3& direction, Real t_max, Real& t_hit) const {
  SurfacePoint best;
  t_hit = -1;
  if (nodes.empty() || !origin.allFinite() || !direction.allFinite()) return best;
  Real best_t = t_max;
  const Vec3 inv = direction.cwiseInverse();
  // Slab test of a node's box against the ray segment [0, best_t].
  auto hits_box = [&](const Node& n) {
    Real lo = 0, hi = best_t;
    for (int k = 0; k < 3; ++k) {
      if (direction[k] == 0) {
        if (origin[k] < n.lo[k] || origin[k] > n.hi[k]) return false;
        continue;
      }
      Real a = (n.lo[k] - origin[k]) * inv[k], b = (n.hi[k] - origin[k]) * inv[k];
      if (a > b) std::swap(a, b);
      lo = std::max(lo, a), hi = std::min(hi, b);
      if (lo > hi) return false;
    }
    return true;
  };
  int stack[kStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes[stack[--top]];
    if (!hits_box(node)) continue;
    if (node.count == 0) {
      if (top + 2 <= kStackSize) stack[top++] = node.left, stack[top++] = node.right;
      continue;
    }
    for (int k = node.first; k < node.first + node.count; ++k) {
      // Möller–Trumbore, both sides.
      const auto& tri = triangles[order[k]];
      const Vec3 e1 = vertices[tri[1]] - vertices[tri[0]], e2 = vertices[tri[2]] - vertices[tri[0]];
      const Vec3 pv = direction.cross(e2);
      const Real det = e1.dot(pv);
      if (std::abs(det) < std::numeric_limits<Real>::min()) continue;
      const Vec3 tv = origin - vertices[tri[0]];
      const Real b1 = tv.dot(pv) / det;
      if (b1 < 0 || b1 > 1) continue;
      const Vec3 qv = tv.cross(e1);
      const Real b2 = direction.dot(qv) / det;
      if (b2 < 0 || b1 + b2 > 1) continue;
      const Real t = e2.dot(qv) / det;
      if (t >= 0 && t <= best_t) best_t = t, t_hit = t, best = {order[k], float(b1), float(b2)};
    }
  }
  return best;
}

Vec2 MeshSurface::uv(const SurfacePoint& s) const {
  if (s.triangle < 0) return Vec2::Zero();
  const std::size_t k = 3 * static_cast<std::size_t>(s.triangle);
  return (1 - s.b1 - s.b2) * corner_uvs[k] + s.b1 * corner_uvs[k + 1] + s.b2 * corner_uvs[k + 2];
}

Vec3 MeshSurface::position(const SurfacePoint& s) const {
  if (s.triangle < 0) return Vec3::Zero();
  const auto& t = triangles[static_cast<std::size_t>(s.triangle)];
  return (1 - s.b1 - s.b2) * vertices[t[0]] + s.b1 * vertices[t[1]] + s.b2 * vertices[t[2]];
}

Vec3 MeshSurface::lift(int t, const Vec2& d) const {
  return d.x() * tangent_u[static_cast<std::size_t>(t)] + d.y() * tangent_v[static_cast<std::size_t>(t)];
}

Vec2 MeshSurface::to_uv(int t, const Vec3& w) const {
  const Vec3& tu = tangent_u[static_cast<std::size_t>(t)];
  const Vec3& tv = tangent_v[static_cast<std::size_t>(t)];
  // Normal equations of min |du Tu + dv Tv − w|².
  const Real a = tu.dot(tu), b = tu.dot(tv), c = tv.dot(tv);
  const Real det = a * c - b * b;
  if (!(det > Real(1e-12) * (a * c)) || !(a > 0)) return Vec2::Zero();
  const Real x = tu.dot(w), y = tv.dot(w);
  return Vec2((c * x - b * y) / det, (a * y - b * x) / det);
}

}  // namespace sim
