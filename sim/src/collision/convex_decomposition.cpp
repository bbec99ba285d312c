// Convex decomposition by recursive plane cuts (see convex_decomposition.hpp for the method).
#include "collision/convex_decomposition.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <unordered_map>
#include <utility>

#include "collision/convex_hull.hpp"

namespace sim {

namespace {

using V3 = Eigen::Vector3d;
using Polygon = std::vector<V3>;
using Polyhedron = std::vector<Polygon>;  // faces, counter-clockwise seen from outside

// The half-space n·x <= d.
struct Plane {
  V3 n = V3::UnitX();
  double d = 0;
  double distance(const V3& x) const { return n.dot(x) - d; }
};

V3 polygon_normal(const Polygon& p) {  // area-weighted (Newell), not normalised
  V3 n = V3::Zero();
  for (std::size_t i = 0; i < p.size(); ++i) n += p[i].cross(p[(i + 1) % p.size()]);
  return n;
}

// Sutherland–Hodgman: the part of `poly` in n·x <= d. Points created on (or lying on) the plane
// are appended to `cut` when given.
Polygon clip_polygon(const Polygon& poly, const Plane& plane, double eps, std::vector<V3>* cut) {
  Polygon out;
  const std::size_t n = poly.size();
  out.reserve(n + 2);
  for (std::size_t i = 0; i < n; ++i) {
    const V3& a = poly[i];
    const V3& b = poly[(i + 1) % n];
    const double da = plane.distance(a), db = plane.distance(b);
    if (da <= eps) {
      out.push_back(a);
      if (cut && da >= -eps) cut->push_back(a);
    }
    if ((da < -eps && db > eps) || (da > eps && db < -eps)) {
      const V3 x = a + (b - a) * (da / (da - db));
      out.push_back(x);
      if (cut) cut->push_back(x);
    }
  }
  return out;
}

// Drops repeated points and reports whether the polygon still has area.
bool tidy_polygon(Polygon& p, double eps) {
  Polygon q;
  q.reserve(p.size());
  for (const V3& x : p)
    if (q.empty() || (x - q.back()).norm() > eps) q.push_back(x);
  while (q.size() > 1 && (q.front() - q.back()).norm() <= eps) q.pop_back();
  p.swap(q);
  return p.size() >= 3 && polygon_normal(p).norm() > eps * eps;
}

// Orthonormal t1, t2 with t1 × t2 = n (n unit).
void plane_basis(const V3& n, V3& t1, V3& t2) {
  t1 = std::abs(n.x()) < 0.9 ? V3::UnitX().cross(n) : V3::UnitY().cross(n);
  t1.normalize();
  t2 = n.cross(t1);
}

// The part of a convex polyhedron in n·x <= d (empty when nothing is left).
Polyhedron clip_polyhedron(const Polyhedron& poly, const Plane& plane, double eps) {
  bool inside = true, outside = true;
  for (const Polygon& f : poly)
    for (const V3& x : f) {
      const double s = plane.distance(x);
      inside = inside && s <= eps;
      outside = outside && s >= -eps;
    }
  if (inside) return poly;
  if (outside) return {};
  Polyhedron out;
  std::vector<V3> cut;
  for (const Polygon& f : poly) {
    Polygon c = clip_polygon(f, plane, eps, &cut);
    if (tidy_polygon(c, eps)) out.push_back(std::move(c));
  }
  if (cut.size() >= 3) {
    // The cap is convex: order its points by angle about their mean, counter-clockwise from +n.
    V3 mean = V3::Zero();
    for (const V3& x : cut) mean += x;
    mean /= static_cast<double>(cut.size());
    V3 t1, t2;
    plane_basis(plane.n, t1, t2);
    std::vector<std::pair<double, V3>> by_angle;
    for (const V3& x : cut) by_angle.emplace_back(std::atan2(t2.dot(x - mean), t1.dot(x - mean)), x);
    std::sort(by_angle.begin(), by_angle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    Polygon cap;
    for (const auto& [angle, x] : by_angle) cap.push_back(x);
    if (tidy_polygon(cap, eps)) out.push_back(std::move(cap));
  }
  return out;
}

double polyhedron_volume(const Polyhedron& poly) {
  if (poly.empty() || poly[0].empty()) return 0;
  const V3 r = poly[0][0];
  double v = 0;
  for (const Polygon& f : poly)
    for (std::size_t k = 1; k + 1 < f.size(); ++k) v += (f[0] - r).dot((f[k] - r).cross(f[k + 1] - r));
  return v / 6.0;
}

// Tetrahedron as a polyhedron (positively oriented: (p1-p0)·((p2-p0)×(p3-p0)) > 0).
Polyhedron tetrahedron(const V3& p0, const V3& p1, const V3& p2, const V3& p3) {
  return {{p0, p2, p1}, {p0, p1, p3}, {p0, p3, p2}, {p1, p2, p3}};
}

Polyhedron box(const V3& lo, const V3& hi) {
  auto c = [&](int i) { return V3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z()); };
  return {{c(0), c(4), c(6), c(2)}, {c(1), c(3), c(7), c(5)}, {c(0), c(1), c(5), c(4)},
          {c(2), c(6), c(7), c(3)}, {c(0), c(2), c(3), c(1)}, {c(4), c(5), c(7), c(6)}};
}

struct Hull {
  bool ok = false;
  std::vector<Vec3> vertices;
  double volume = 0;
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

Hull hull_of(const std::vector<V3>& points) {
  Hull h;
  if (points.size() < 4) return h;
  std::vector<Vec3> p;
  p.reserve(points.size());
  for (const V3& x : points) p.push_back(x.cast<Real>());
  auto built = build_convex_hull(p, "part");
  if (!built) return h;
  const MassProperties mp = hull_mass_properties(built.value());
  if (!(mp.volume > 0)) return h;
  h.ok = true;
  h.vertices = std::move(built.value().vertices);
  h.volume = static_cast<double>(mp.volume);
  h.inertia = mp.inertia.cast<double>();
  return h;
}

struct Mesh {
  std::vector<V3> v;
  std::vector<std::array<int, 3>> t;
  V3 fan_apex = V3::Zero();  // apex of the signed tetrahedra
  double eps = 0;            // length tolerance
  V3 lo, hi;                 // bounds
};

// Generalized winding number of the closed mesh about x (1 inside, 0 outside).
double winding_number(const Mesh& m, const V3& x) {
  double omega = 0;
  for (const auto& t : m.t) {
    const V3 a = m.v[t[0]] - x, b = m.v[t[1]] - x, c = m.v[t[2]] - x;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double num = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    omega += 2 * std::atan2(num, den);
  }
  return omega / (4 * std::numbers::pi);
}

struct Part {
  std::vector<Plane> cell;
  std::vector<Polygon> surface;  // the mesh surface inside the cell
  std::vector<V3> points;        // hull input: surface vertices and cell corners inside the solid
  double volume = 0;
  Hull hull;
  bool done = false;
};

// The part of polygons in one half-space; polygons lying in the plane go to the side whose
// solid they bound (their outward normal points out of that side).
std::vector<Polygon> clip_surface(const std::vector<Polygon>& surface, const Plane& plane, double eps) {
  std::vector<Polygon> out;
  for (const Polygon& p : surface) {
    bool all_on = true, inside = true, outside = true;
    for (const V3& x : p) {
      const double s = plane.distance(x);
      all_on = all_on && std::abs(s) <= eps;
      inside = inside && s <= eps;
      outside = outside && s >= -eps;
    }
    if (all_on) {
      if (polygon_normal(p).dot(plane.n) > 0) out.push_back(p);
      continue;
    }
    if (outside) continue;
    if (inside) {
      out.push_back(p);
      continue;
    }
    Polygon c = clip_polygon(p, plane, eps, nullptr);
    if (tidy_polygon(c, eps)) out.push_back(std::move(c));
  }
  return out;
}

// Volume of the solid inside the cell: signed tetrahedra clipped to the cell.
double cell_volume(const Mesh& m, const std::vector<Plane>& cell) {
  double total = 0;
  for (const auto& t : m.t) {
    V3 p1 = m.v[t[0]], p2 = m.v[t[1]], p3 = m.v[t[2]];
    const V3& p0 = m.fan_apex;
    double signed_volume = (p1 - p0).dot((p2 - p0).cross(p3 - p0)) / 6.0;
    if (signed_volume == 0) continue;
    const double sign = signed_volume > 0 ? 1.0 : -1.0;
    if (sign < 0) std::swap(p2, p3);
    bool whole = true, none = false;
    for (const Plane& pl : cell) {
      const double s0 = pl.distance(p0), s1 = pl.distance(p1), s2 = pl.distance(p2), s3 = pl.distance(p3);
      if (std::max({s0, s1, s2, s3}) > m.eps) whole = false;
      if (std::min({s0, s1, s2, s3}) >= -m.eps) {
        none = true;
        break;
      }
    }
    if (none) continue;
    if (whole) {
      total += signed_volume;
      continue;
    }
    Polyhedron poly = tetrahedron(p0, p1, p2, p3);
    for (const Plane& pl : cell) {
      poly = clip_polyhedron(poly, pl, m.eps);
      if (poly.empty()) break;
    }
    total += sign * polyhedron_volume(poly);
  }
  return total;
}

// Corners of the cell (bounded by the mesh's enlarged box) that lie inside the solid.
std::vector<V3> inside_corners(const Mesh& m, const std::vector<Plane>& cell) {
  const V3 margin = V3::Constant(0.01 * (m.hi - m.lo).norm() + m.eps);
  Polyhedron poly = box(m.lo - margin, m.hi + margin);
  for (const Plane& pl : cell) {
    poly = clip_polyhedron(poly, pl, m.eps);
    if (poly.empty()) return {};
  }
  std::vector<V3> out;
  for (const Polygon& f : poly)
    for (const V3& x : f) {
      bool seen = false;
      for (const V3& y : out) seen = seen || (x - y).norm() <= m.eps;
      if (!seen && winding_number(m, x) > 0.5) out.push_back(x);
    }
  return out;
}

void finish_part(const Mesh& m, Part& part) {
  part.points.clear();
  for (const Polygon& p : part.surface) part.points.insert(part.points.end(), p.begin(), p.end());
  if (!part.cell.empty()) {
    const std::vector<V3> corners = inside_corners(m, part.cell);
    part.points.insert(part.points.end(), corners.begin(), corners.end());
  }
  part.volume = cell_volume(m, part.cell);
  part.hull = hull_of(part.points);
}

// Hull volumes of the two sides of a cut (subsampled surface: only for ranking cuts).
std::pair<double, double> cut_score(const Part& part, const Plane& plane, std::size_t stride, double eps) {
  std::vector<V3> a, b;
  for (std::size_t i = 0; i < part.surface.size(); i += stride) {
    const Polygon& p = part.surface[i];
    for (std::size_t k = 0; k < p.size(); ++k) {
      const V3& x = p[k];
      const V3& y = p[(k + 1) % p.size()];
      const double sx = plane.distance(x), sy = plane.distance(y);
      if (sx <= eps) a.push_back(x);
      if (sx >= -eps) b.push_back(x);
      if ((sx < -eps && sy > eps) || (sx > eps && sy < -eps)) {
        const V3 c = x + (y - x) * (sx / (sx - sy));
        a.push_back(c);
        b.push_back(c);
      }
    }
  }
  const Hull ha = hull_of(a), hb = hull_of(b);
  return {ha.ok ? ha.volume : 0.0, hb.ok ? hb.volume : 0.0};
}

// The cut that shrinks the two halves' hulls most, if any does; else, as a fallback, the most
// balanced cut that leaves their sum unchanged (a ring needs two cuts before the hulls shrink).
struct Cuts {
  std::optional<Plane> improving;
  std::optional<Plane> neutral;
};

Cuts best_cut(const Part& part, const ConvexDecompositionOptions& options, double eps) {
  std::vector<V3> axes;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(part.hull.inertia);
  for (int k = 0; k < 3; ++k) axes.push_back(eig.eigenvectors().col(k).normalized());
  for (int k = 0; k < 3; ++k) {
    const V3 e = V3::Unit(k);
    bool near = false;
    for (const V3& a : axes) near = near || std::abs(a.dot(e)) > 0.99;
    if (!near) axes.push_back(e);
  }
  std::size_t vertex_count = 0;
  for (const Polygon& p : part.surface) vertex_count += p.size();
  constexpr std::size_t kScorePoints = 1500;
  const std::size_t stride = std::max<std::size_t>(1, vertex_count / kScorePoints);
  const int cuts = std::max(1, options.cuts_per_axis);

  Cuts out;
  double best_score = part.hull.volume * (1 - 1e-3);
  double best_balance = part.hull.volume;
  for (const V3& axis : axes) {
    std::vector<double> s;
    s.reserve(vertex_count);
    for (const Polygon& p : part.surface)
      for (const V3& x : p) s.push_back(axis.dot(x));
    if (s.empty()) continue;
    std::sort(s.begin(), s.end());
    const double lo = s.front(), hi = s.back(), extent = hi - lo;
    if (!(extent > 10 * eps)) continue;
    std::vector<double> positions;
    for (int k = 0; k < cuts; ++k) positions.push_back(lo + extent * (k + 1) / (cuts + 1));
    // Vertex positions (exact for meshes built from axis-aligned pieces), when there are few.
    std::vector<double> distinct;
    for (double x : s)
      if (distinct.empty() || x - distinct.back() > 1e-6 * extent) distinct.push_back(x);
    if (distinct.size() <= 4 * static_cast<std::size_t>(cuts))
      for (double x : distinct)
        if (x > lo + 1e-3 * extent && x < hi - 1e-3 * extent) positions.push_back(x);
    for (double t : positions) {
      const Plane plane{axis, t};
      const auto [ha, hb] = cut_score(part, plane, stride, eps);
      const double score = ha + hb;
      if (score < best_score) {
        best_score = score;
        out.improving = plane;
      }
      if (score <= part.hull.volume * (1 + 1e-3) && std::max(ha, hb) < best_balance) {
        best_balance = std::max(ha, hb);
        out.neutral = plane;
      }
    }
  }
  return out;
}

}  // namespace

Real mesh_volume(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles) {
  if (vertices.empty()) return 0;
  const V3 r = vertices[0].cast<double>();
  double v = 0;
  for (const auto& t : triangles) {
    const V3 a = vertices[t[0]].cast<double>() - r, b = vertices[t[1]].cast<double>() - r,
             c = vertices[t[2]].cast<double>() - r;
    v += a.dot(b.cross(c));
  }
  return static_cast<Real>(v / 6.0);
}

bool is_closed_mesh(const std::vector<std::array<int, 3>>& triangles) {
  if (triangles.empty()) return false;
  std::unordered_map<std::uint64_t, int> directed;
  directed.reserve(triangles.size() * 3);
  auto key = [](int a, int b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
  };
  for (const auto& t : triangles)
    for (int k = 0; k < 3; ++k)
      if (++directed[key(t[k], t[(k + 1) % 3])] > 1) return false;
  for (const auto& [k, count] : directed) {
    const int a = static_cast<int>(k >> 32), b = static_cast<int>(k & 0xffffffffu);
    if (a == b || directed.find(key(b, a)) == directed.end()) return false;
  }
  return true;
}

Result<ConvexDecomposition> convex_decomposition(const std::vector<Vec3>& vertices,
                                                 const std::vector<std::array<int, 3>>& triangles,
                                                 const ConvexDecompositionOptions& options,
                                                 const std::string& where) {
  const std::string prefix = where + ": convex decomposition: ";
  const int n = static_cast<int>(vertices.size());
  for (const auto& t : triangles)
    for (int k : t)
      if (k < 0 || k >= n) return Error{prefix + "triangle index out of range"};
  for (const Vec3& x : vertices)
    if (!x.allFinite()) return Error{prefix + "non-finite vertex"};
  if (!is_closed_mesh(triangles)) return Error{prefix + "the mesh is not closed (an edge is not shared by exactly two triangles)"};

  Mesh m;
  m.t = triangles;
  for (const Vec3& x : vertices) m.v.push_back(x.cast<double>());
  const double signed_volume = mesh_volume(vertices, triangles);
  if (signed_volume < 0)
    for (auto& t : m.t) std::swap(t[1], t[2]);
  m.lo = m.hi = m.v[0];
  for (const V3& x : m.v) m.lo = m.lo.cwiseMin(x), m.hi = m.hi.cwiseMax(x);
  m.eps = 1e-9 * std::max((m.hi - m.lo).norm(), 1e-300);
  for (const V3& x : m.v) m.fan_apex += x;
  m.fan_apex /= static_cast<double>(m.v.size());

  ConvexDecomposition out;
  const double total = std::abs(static_cast<double>(signed_volume));
  if (!(total > 0)) return Error{prefix + "the mesh encloses no volume"};
  out.mesh_volume = static_cast<Real>(total);

  std::vector<Part> parts(1);
  for (const auto& t : m.t) parts[0].surface.push_back({m.v[t[0]], m.v[t[1]], m.v[t[2]]});
  finish_part(m, parts[0]);
  parts[0].volume = total;
  if (!parts[0].hull.ok) return Error{prefix + "the mesh is flat"};
  out.hull_volume = static_cast<Real>(parts[0].hull.volume);

  const double ratio = 1 + static_cast<double>(options.max_concavity);
  const double min_volume = static_cast<double>(options.min_part_fraction) * total;
  while (static_cast<int>(parts.size()) < std::max(1, options.max_parts)) {
    int pick = -1;
    double worst = 0;
    for (int i = 0; i < static_cast<int>(parts.size()); ++i) {
      const Part& p = parts[i];
      if (p.done || p.volume < min_volume || p.hull.volume <= ratio * p.volume) continue;
      const double excess = p.hull.volume - p.volume;
      if (excess > worst) worst = excess, pick = i;
    }
    if (pick < 0) break;
    const Cuts cuts = best_cut(parts[pick], options, m.eps);
    const std::optional<Plane> cut = cuts.improving ? cuts.improving : cuts.neutral;
    if (!cut) {
      parts[pick].done = true;
      continue;
    }
    Part a, b;
    const Plane flipped{-cut->n, -cut->d};
    a.cell = parts[pick].cell;
    a.cell.push_back(*cut);
    b.cell = parts[pick].cell;
    b.cell.push_back(flipped);
    a.surface = clip_surface(parts[pick].surface, *cut, m.eps);
    b.surface = clip_surface(parts[pick].surface, flipped, m.eps);
    finish_part(m, a);
    finish_part(m, b);
    const double tiny = 1e-9 * total;
    const double parent = parts[pick].hull.volume;
    const double hulls = (a.hull.ok ? a.hull.volume : 0.0) + (b.hull.ok ? b.hull.volume : 0.0);
    // A side without a hull must hold no solid. An improving cut must shrink the hulls; a neutral
    // one must keep their sum and leave each side at most 3/4 of the parent's excess volume.
    bool accept = !(!a.hull.ok && a.volume > tiny) && !(!b.hull.ok && b.volume > tiny);
    if (cuts.improving) {
      accept = accept && hulls < parent * (1 - 1e-4);
    } else {
      const double excess = parent - parts[pick].volume;
      const double side = std::max(a.hull.ok ? a.hull.volume - a.volume : 0.0, b.hull.ok ? b.hull.volume - b.volume : 0.0);
      accept = accept && hulls <= parent * (1 + 1e-6) && side <= 0.75 * excess;
    }
    if (!accept) {
      parts[pick].done = true;
      continue;
    }
    parts.erase(parts.begin() + pick);
    if (a.hull.ok) parts.push_back(std::move(a));
    if (b.hull.ok) parts.push_back(std::move(b));
  }

  for (Part& p : parts) {
    ConvexPart cp;
    cp.hull_vertices = std::move(p.hull.vertices);
    cp.volume = static_cast<Real>(p.volume);
    cp.hull_volume = static_cast<Real>(p.hull.volume);
    out.parts.push_back(std::move(cp));
  }
  return out;
}

}  // namespace sim
