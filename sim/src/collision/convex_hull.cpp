// Quickhull (Barber, Dobkin, Huhdanpaa 1996) on triangles (conflict lists; the faces visible from
// each new point are found by a walk over shared edges from the face it lies above), then coplanar triangles merged into
// planar polygons whose boundaries are rebuilt as 2D convex hulls in the face plane. Everything
// runs in double whatever sim::Real is: hulls are built once, at compile time.
#include "collision/convex_hull.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace sim {
namespace {

using V3 = Eigen::Vector3d;

struct Triangle {
  std::array<int, 3> v{};
  V3 n = V3::Zero();  // unit outward normal (zero for a degenerate triangle)
  double d = 0;       // n·x = d on the plane
  bool alive = true;
  std::vector<int> outside;  // points strictly above this face (conflict list)
};

Triangle make_triangle(const std::vector<V3>& p, int a, int b, int c) {
  Triangle t;
  t.v = {a, b, c};
  const V3 n = (p[b] - p[a]).cross(p[c] - p[a]);
  const double len = n.norm();
  if (len > 0) t.n = n / len;
  t.d = t.n.dot((p[a] + p[b] + p[c]) / 3.0);
  return t;
}

double distance_above(const Triangle& t, const V3& x) { return t.n.dot(x) - t.d; }

std::uint64_t edge_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

void basis(const V3& n, V3& t1, V3& t2) {
  const double sign = n.z() >= 0 ? 1.0 : -1.0;
  const double a = -1.0 / (sign + n.z());
  const double b = n.x() * n.y() * a;
  t1 = V3(1.0 + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
  t2 = V3(b, sign + n.y() * n.y() * a, -n.y());
}

// Triangulated hull of p (indices into p), or an error text.
bool quickhull(const std::vector<V3>& p, double eps, double degenerate_tol,
               std::vector<std::array<int, 3>>& result, std::string& error) {
  const int n = static_cast<int>(p.size());
  // Initial simplex: the farthest pair among the axis extremes, the point farthest from their
  // line, the point farthest from the plane of the three.
  std::array<int, 6> extreme{0, 0, 0, 0, 0, 0};
  for (int i = 1; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      if (p[i][k] < p[extreme[2 * k]][k]) extreme[2 * k] = i;
      if (p[i][k] > p[extreme[2 * k + 1]][k]) extreme[2 * k + 1] = i;
    }
  }
  int i0 = extreme[0], i1 = extreme[1];
  double best = -1;
  for (int a = 0; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b) {
      const double dist = (p[extreme[a]] - p[extreme[b]]).squaredNorm();
      if (dist > best) best = dist, i0 = extreme[a], i1 = extreme[b];
    }
  }
  if (std::sqrt(best) <= degenerate_tol) {
    error = "all points coincide";
    return false;
  }
  const V3 axis = (p[i1] - p[i0]).normalized();
  int i2 = -1;
  best = -1;
  for (int i = 0; i < n; ++i) {
    const V3 r = p[i] - p[i0];
    const double dist = (r - axis * axis.dot(r)).norm();
    if (dist > best) best = dist, i2 = i;
  }
  if (best <= degenerate_tol) {
    error = "points are colinear";
    return false;
  }
  const V3 plane_n = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalized();
  int i3 = -1;
  best = -1;
  for (int i = 0; i < n; ++i) {
    const double dist = std::abs(plane_n.dot(p[i] - p[i0]));
    if (dist > best) best = dist, i3 = i;
  }
  if (best <= degenerate_tol) {
    error = "points are coplanar (flat)";
    return false;
  }

  std::vector<Triangle> tris;
  const std::array<int, 4> simplex{i0, i1, i2, i3};
  for (int f = 0; f < 4; ++f) {
    std::array<int, 3> v{};
    int k = 0;
    for (int j = 0; j < 4; ++j)
      if (j != f) v[k++] = simplex[j];
    Triangle t = make_triangle(p, v[0], v[1], v[2]);
    if (distance_above(t, p[simplex[f]]) > 0) t = make_triangle(p, v[0], v[2], v[1]);
    tris.push_back(std::move(t));
  }
  for (int i = 0; i < n; ++i) {
    if (i == i0 || i == i1 || i == i2 || i == i3) continue;
    int face = -1;
    double far = eps;
    for (int f = 0; f < 4; ++f) {
      const double dist = distance_above(tris[f], p[i]);
      if (dist > far) far = dist, face = f;
    }
    if (face >= 0) tris[face].outside.push_back(i);
  }

  // Directed edge -> the live face holding it, for walking from a face to its neighbours.
  std::unordered_map<std::uint64_t, int> edge_face;
  auto link = [&](int f) {
    for (int k = 0; k < 3; ++k) edge_face[edge_key(tris[f].v[k], tris[f].v[(k + 1) % 3])] = f;
  };
  for (int f = 0; f < 4; ++f) link(f);
  std::vector<int> visible, orphans, stamp(4, 0);
  std::vector<std::pair<int, int>> horizon;
  int round = 0;
  for (std::size_t fi = 0; fi < tris.size(); ++fi) {
    if (!tris[fi].alive || tris[fi].outside.empty()) continue;
    int eye = -1;
    double far = -1;
    for (int i : tris[fi].outside) {
      const double dist = distance_above(tris[fi], p[i]);
      if (dist > far) far = dist, eye = i;
    }
    // Faces visible from the eye: a walk from this face over shared edges.
    ++round;
    visible.assign(1, static_cast<int>(fi));
    stamp[fi] = round;
    for (std::size_t k = 0; k < visible.size(); ++k) {
      const Triangle& t = tris[visible[k]];
      for (int e = 0; e < 3; ++e) {
        const auto it = edge_face.find(edge_key(t.v[(e + 1) % 3], t.v[e]));
        if (it == edge_face.end() || stamp[it->second] == round) continue;
        if (distance_above(tris[it->second], p[eye]) > eps) {
          stamp[it->second] = round;
          visible.push_back(it->second);
        }
      }
    }
    horizon.clear();
    for (int f : visible) {
      for (int e = 0; e < 3; ++e) {
        const int a = tris[f].v[e], b = tris[f].v[(e + 1) % 3];
        const auto it = edge_face.find(edge_key(b, a));
        if (it == edge_face.end() || stamp[it->second] != round) horizon.emplace_back(a, b);
      }
    }
    orphans.clear();
    for (int f : visible) {
      for (int i : tris[f].outside)
        if (i != eye) orphans.push_back(i);
      tris[f].alive = false;
      std::vector<int>().swap(tris[f].outside);
      for (int e = 0; e < 3; ++e) {
        const auto it = edge_face.find(edge_key(tris[f].v[e], tris[f].v[(e + 1) % 3]));
        if (it != edge_face.end() && it->second == f) edge_face.erase(it);
      }
    }
    const std::size_t first_new = tris.size();
    for (const auto& [a, b] : horizon) {
      tris.push_back(make_triangle(p, a, b, eye));
      stamp.push_back(0);
      link(static_cast<int>(tris.size()) - 1);
    }
    for (int i : orphans) {
      int face = -1;
      double best_dist = eps;
      for (std::size_t f = first_new; f < tris.size(); ++f) {
        const double dist = distance_above(tris[f], p[i]);
        if (dist > best_dist) best_dist = dist, face = static_cast<int>(f);
      }
      if (face >= 0) tris[face].outside.push_back(i);
    }
  }
  result.clear();
  for (const Triangle& t : tris)
    if (t.alive) result.push_back(t.v);
  return true;
}

// Orders the vertices of one planar face counter-clockwise seen from +n (angle about their mean).
void order_ccw(const std::vector<V3>& p, std::vector<int>& face, const V3& n) {
  V3 t1, t2;
  basis(n, t1, t2);
  V3 mean = V3::Zero();
  for (int i : face) mean += p[i];
  mean /= static_cast<double>(face.size());
  std::vector<std::pair<double, int>> angle;
  for (int i : face) angle.emplace_back(std::atan2(t2.dot(p[i] - mean), t1.dot(p[i] - mean)), i);
  std::sort(angle.begin(), angle.end());
  for (std::size_t k = 0; k < face.size(); ++k) face[k] = angle[k].second;
}

// Fills a Model::Hull from vertices and face loops (already counter-clockwise from outside).
// Returns false when the loops do not form a closed 2-manifold with V - E + F = 2.
bool assemble(const std::vector<V3>& vertices, const std::vector<std::vector<int>>& faces,
              const std::vector<V3>& normals, Model::Hull& hull) {
  hull = Model::Hull{};
  for (const V3& v : vertices) hull.vertices.push_back(v.cast<Real>());
  hull.face_first.push_back(0);
  std::vector<std::uint64_t> directed;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    double offset = 0;
    for (int v : faces[f]) {
      hull.face_vertices.push_back(v);
      offset += normals[f].dot(vertices[v]);
    }
    hull.face_first.push_back(static_cast<int>(hull.face_vertices.size()));
    hull.face_normal.push_back(normals[f].cast<Real>());
    hull.face_offset.push_back(static_cast<Real>(offset / static_cast<double>(faces[f].size())));
    for (std::size_t k = 0; k < faces[f].size(); ++k)
      directed.push_back(edge_key(faces[f][k], faces[f][(k + 1) % faces[f].size()]));
  }
  std::sort(directed.begin(), directed.end());
  if (std::adjacent_find(directed.begin(), directed.end()) != directed.end()) return false;
  for (std::uint64_t e : directed) {
    const int a = static_cast<int>(e >> 32), b = static_cast<int>(e & 0xffffffffu);
    if (!std::binary_search(directed.begin(), directed.end(), edge_key(b, a))) return false;
    if (a < b) {
      hull.edge_vertices.push_back(a);
      hull.edge_vertices.push_back(b);
    }
  }
  const int v = static_cast<int>(vertices.size());
  return v - hull.edge_count() + hull.face_count() == 2;
}

}  // namespace

Result<Model::Hull> build_convex_hull(const std::vector<Vec3>& points, const std::string& where) {
  const std::string prefix = where + ": convex hull: ";
  if (points.size() < 4)
    return Error{prefix + "needs at least 4 points, got " + std::to_string(points.size())};
  std::vector<V3> p;
  p.reserve(points.size());
  for (const Vec3& x : points) {
    if (!x.allFinite()) return Error{prefix + "a point has a non-finite coordinate"};
    p.push_back(x.cast<double>());
  }
  V3 lo = p[0], hi = p[0];
  for (const V3& x : p) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
  const double scale = std::max((hi - lo).norm(), (hi.cwiseAbs().cwiseMax(lo.cwiseAbs())).norm());
  const double eps = 1e-11 * scale;             // "above a face" for quickhull
  const double merge_tol = 1e-6 * (hi - lo).norm();  // coplanar / colinear within this [m]
  const double degenerate_tol = 1e-6 * (hi - lo).norm();

  std::vector<std::array<int, 3>> tris;
  std::string error;
  if (!quickhull(p, eps, degenerate_tol, tris, error)) return Error{prefix + error};

  // Merge coplanar neighbours: grow each cluster from its largest unassigned triangle over shared
  // edges, testing every vertex against the seed's plane (no drift along chains of triangles).
  const int tri_count = static_cast<int>(tris.size());
  std::vector<V3> tri_cross(tri_count);
  std::vector<std::pair<std::uint64_t, int>> edge_tri;
  for (int t = 0; t < tri_count; ++t) {
    const auto& v = tris[t];
    tri_cross[t] = (p[v[1]] - p[v[0]]).cross(p[v[2]] - p[v[0]]);
    for (int k = 0; k < 3; ++k) edge_tri.emplace_back(edge_key(v[k], v[(k + 1) % 3]), t);
  }
  std::sort(edge_tri.begin(), edge_tri.end());
  auto neighbour = [&](int a, int b) {
    auto it = std::lower_bound(edge_tri.begin(), edge_tri.end(), std::make_pair(edge_key(b, a), -1));
    return (it != edge_tri.end() && it->first == edge_key(b, a)) ? it->second : -1;
  };
  std::vector<int> order(tri_count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return tri_cross[a].squaredNorm() > tri_cross[b].squaredNorm();
  });
  std::vector<int> cluster(tri_count, -1);
  std::vector<std::vector<int>> cluster_tris;
  std::vector<int> stack;
  for (int seed : order) {
    if (cluster[seed] >= 0) continue;
    const int c = static_cast<int>(cluster_tris.size());
    cluster_tris.emplace_back();
    const double len = tri_cross[seed].norm();
    const V3 n = len > 0 ? V3(tri_cross[seed] / len) : V3::Zero();
    const double d = n.dot(p[tris[seed][0]]);
    cluster[seed] = c;
    stack.assign(1, seed);
    while (!stack.empty()) {
      const int t = stack.back();
      stack.pop_back();
      cluster_tris[c].push_back(t);
      for (int k = 0; k < 3; ++k) {
        const int u = neighbour(tris[t][k], tris[t][(k + 1) % 3]);
        if (u < 0 || cluster[u] >= 0 || len == 0) continue;
        bool coplanar = tri_cross[u].dot(n) >= 0;
        for (int j = 0; j < 3 && coplanar; ++j) coplanar = std::abs(n.dot(p[tris[u][j]]) - d) <= merge_tol;
        if (coplanar) {
          cluster[u] = c;
          stack.push_back(u);
        }
      }
    }
  }

  // Each cluster becomes a face bounded by its region's boundary (the edges whose twin triangle is
  // in another cluster), walked in the triangles' counter-clockwise order. A cluster whose
  // boundary is not one simple loop (a pinch or a hole, possible only at the tolerance's edge) is
  // dissolved back into its triangles, so the faces always tile the closed triangle surface.
  std::vector<std::vector<int>> loops;
  std::vector<V3> normals;
  std::vector<std::pair<int, int>> boundary;
  std::unordered_map<int, int> next;
  auto boundary_loop = [&](const std::vector<int>& members, int c, std::vector<int>& loop) {
    boundary.clear();
    for (int t : members)
      for (int k = 0; k < 3; ++k) {
        const int a = tris[t][k], b = tris[t][(k + 1) % 3];
        const int u = neighbour(a, b);
        if (u < 0 || cluster[u] != c) boundary.emplace_back(a, b);
      }
    next.clear();
    for (const auto& [a, b] : boundary)
      if (!next.emplace(a, b).second) return false;  // pinched: two boundary edges leave a
    loop.clear();
    int v = boundary.empty() ? -1 : boundary[0].first;
    for (std::size_t k = 0; k < boundary.size(); ++k) {
      loop.push_back(v);
      const auto it = next.find(v);
      if (it == next.end()) return false;
      v = it->second;
      if (v == loop[0]) break;
    }
    return loop.size() == boundary.size() && loop.size() >= 3;
  };
  std::vector<int> loop;
  for (std::size_t c = 0; c < cluster_tris.size(); ++c) {
    const std::vector<int> members = cluster_tris[c];  // a copy: dissolving appends clusters
    V3 sum = V3::Zero();
    for (int t : members) sum += tri_cross[t];
    if (members.size() > 1 && (!boundary_loop(members, static_cast<int>(c), loop) || sum.norm() <= 0)) {
      for (std::size_t k = 1; k < members.size(); ++k) {  // dissolve into single triangles
        cluster[members[k]] = static_cast<int>(cluster_tris.size());
        cluster_tris.push_back({members[k]});
      }
      cluster_tris[c].resize(1);
      sum = tri_cross[cluster_tris[c][0]];
    }
    if (cluster_tris[c].size() == 1) loop.assign(tris[cluster_tris[c][0]].begin(), tris[cluster_tris[c][0]].end());
    loops.push_back(loop);
    normals.push_back(sum.norm() > 0 ? V3(sum.normalized()) : V3::Zero());
  }
  // Hull vertices: points on the boundary of three or more faces, or of two faces where they
  // bend (a point on two faces lies on their common edge, so it is dropped from both loops
  // when it is on the line of its loop neighbours).
  std::vector<int> face_count_of(p.size(), 0);
  for (const auto& l : loops)
    for (int v : l) ++face_count_of[v];
  std::vector<char> corner(p.size(), 0);
  for (const auto& l : loops) {
    const std::size_t m = l.size();
    for (std::size_t k = 0; k < m; ++k) {
      const int v = l[k];
      if (face_count_of[v] >= 3) {
        corner[v] = 1;
        continue;
      }
      const V3& prev = p[l[(k + m - 1) % m]];
      const V3& nxt = p[l[(k + 1) % m]];
      const V3 d = nxt - prev;
      const double len = d.norm();
      const double off_line = len > 0 ? (p[v] - prev).cross(d).norm() / len : (p[v] - prev).norm();
      if (off_line > merge_tol) corner[v] = 1;
    }
  }
  for (auto& l : loops) l.erase(std::remove_if(l.begin(), l.end(), [&](int v) { return !corner[v]; }), l.end());
  for (std::size_t f = 0; f < loops.size();) {  // faces left without area (slivers of collinear points)
    if (loops[f].size() < 3 || normals[f].squaredNorm() == 0) {
      loops.erase(loops.begin() + static_cast<long>(f));
      normals.erase(normals.begin() + static_cast<long>(f));
    } else {
      ++f;
    }
  }
  // Renumber: only hull vertices, in input order.
  std::vector<int> remap(p.size(), -1);
  std::vector<V3> vertices;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!corner[i]) continue;
    remap[i] = static_cast<int>(vertices.size());
    vertices.push_back(p[i]);
  }
  for (auto& l : loops)
    for (int& i : l) i = remap[i];

  Model::Hull hull;
  if (!assemble(vertices, loops, normals, hull))
    return Error{prefix + "could not build a consistent polyhedron (nearly degenerate points?)"};
  return hull;
}

Model::Hull box_hull(const Vec3& half_extents) {
  std::vector<V3> v;
  for (int i = 0; i < 8; ++i) {
    v.emplace_back((i & 1) ? half_extents.x() : -half_extents.x(),
                   (i & 2) ? half_extents.y() : -half_extents.y(),
                   (i & 4) ? half_extents.z() : -half_extents.z());
  }
  std::vector<std::vector<int>> faces;
  std::vector<V3> normals;
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      std::vector<int> face;
      for (int i = 0; i < 8; ++i)
        if (((i >> axis) & 1) == side) face.push_back(i);
      V3 n = V3::Zero();
      n[axis] = side ? 1.0 : -1.0;
      order_ccw(v, face, n);
      faces.push_back(std::move(face));
      normals.push_back(n);
    }
  }
  Model::Hull hull;
  assemble(v, faces, normals, hull);
  return hull;
}

Model::Hull cylinder_hull(Real radius, Real half_height, int segments) {
  const int n = std::max(segments, 3);
  const double pi = 3.14159265358979323846;
  std::vector<V3> v(2 * n);
  for (int i = 0; i < n; ++i) {
    const double angle = 2.0 * pi * i / n;
    const double x = radius * std::cos(angle), y = radius * std::sin(angle);
    v[i] = V3(x, y, -static_cast<double>(half_height));
    v[n + i] = V3(x, y, static_cast<double>(half_height));
  }
  std::vector<std::vector<int>> faces;
  std::vector<V3> normals;
  std::vector<int> bottom, top;
  for (int i = 0; i < n; ++i) {
    bottom.push_back(n - 1 - i);  // clockwise from above = counter-clockwise from below
    top.push_back(n + i);
  }
  faces.push_back(bottom);
  normals.push_back(V3(0, 0, -1));
  faces.push_back(top);
  normals.push_back(V3(0, 0, 1));
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    faces.push_back({i, j, n + j, n + i});
    const double angle = 2.0 * pi * (i + 0.5) / n;
    normals.push_back(V3(std::cos(angle), std::sin(angle), 0));
  }
  Model::Hull hull;
  assemble(v, faces, normals, hull);
  return hull;
}

MassProperties hull_mass_properties(const Model::Hull& hull) {
  MassProperties out;
  if (hull.vertices.empty()) return out;
  V3 ref = V3::Zero();
  for (const Vec3& x : hull.vertices) ref += x.cast<double>();
  ref /= static_cast<double>(hull.vertices.size());
  double volume = 0;
  V3 first = V3::Zero();                   // ∫ r dV about ref
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();  // ∫ r rᵀ dV about ref
  for (int f = 0; f < hull.face_count(); ++f) {
    const int begin = hull.face_first[f], end = hull.face_first[f + 1];
    const V3 a = hull.vertices[hull.face_vertices[begin]].cast<double>() - ref;
    for (int k = begin + 1; k + 1 < end; ++k) {
      const V3 b = hull.vertices[hull.face_vertices[k]].cast<double>() - ref;
      const V3 c = hull.vertices[hull.face_vertices[k + 1]].cast<double>() - ref;
      // Tetrahedron (0, a, b, c): V = det/6, ∫r = V s/4, ∫r rᵀ = V/20 (Σ v vᵀ + s sᵀ), s = a+b+c.
      const double v = a.dot(b.cross(c)) / 6.0;
      const V3 s = a + b + c;
      volume += v;
      first += v * s / 4.0;
      second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  if (volume <= 0) return out;
  const V3 c = first / volume;
  const Eigen::Matrix3d central = second - volume * c * c.transpose();
  out.volume = static_cast<Real>(volume);
  out.centroid = (ref + c).cast<Real>();
  out.inertia = (central.trace() * Eigen::Matrix3d::Identity() - central).cast<Real>();
  return out;
}

}  // namespace sim
