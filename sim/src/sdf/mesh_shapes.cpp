// Generated triangle meshes: box, icosphere, cone with a sharp apex, thick-walled bowl (the
// non-convex test object). Every one is watertight with outward counter-clockwise triangles.
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

#include "sim/sdf.hpp"

namespace sim {

namespace {

constexpr Real kPi = std::numbers::pi_v<Real>;

Real signed_volume(const TriangleMesh& m) {
  Real v = 0;
  for (const auto& t : m.triangles)
    v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]]));
  return v / 6;
}

void flip_if_inside_out(TriangleMesh& m) {
  if (signed_volume(m) >= 0) return;
  for (auto& t : m.triangles) std::swap(t[1], t[2]);
}

}  // namespace

TriangleMesh make_box_mesh(const Vec3& h) {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.vertices.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  // Quads (outward CCW) split along one diagonal.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

TriangleMesh make_sphere_mesh(Real radius, int subdivisions) {
  TriangleMesh m;
  const Real t = (1 + std::sqrt(Real(5))) / 2;
  const Real base[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                            {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (const auto& b : base) m.vertices.push_back(Vec3(b[0], b[1], b[2]).normalized());
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      m.vertices.push_back((m.vertices[a] + m.vertices[b]).normalized());
      const int id = static_cast<int>(m.vertices.size()) - 1;
      mid.emplace(key, id);
      return id;
    };
    std::vector<std::array<int, 3>> next;
    next.reserve(4 * m.triangles.size());
    for (const auto& tri : m.triangles) {
      const int ab = midpoint(tri[0], tri[1]), bc = midpoint(tri[1], tri[2]), ca = midpoint(tri[2], tri[0]);
      next.push_back({tri[0], ab, ca});
      next.push_back({tri[1], bc, ab});
      next.push_back({tri[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    m.triangles = std::move(next);
  }
  for (Vec3& v : m.vertices) v *= radius;
  flip_if_inside_out(m);
  return m;
}

TriangleMesh make_cone_mesh(Real radius, Real height, int segments) {
  segments = std::max(segments, 3);
  TriangleMesh m;
  m.vertices.emplace_back(0, 0, 0);       // base centre
  m.vertices.emplace_back(0, 0, height);  // apex
  for (int i = 0; i < segments; ++i) {
    const Real a = 2 * kPi * i / segments;
    m.vertices.emplace_back(radius * std::cos(a), radius * std::sin(a), 0);
  }
  for (int i = 0; i < segments; ++i) {
    const int p = 2 + i, q = 2 + (i + 1) % segments;
    m.triangles.push_back({p, q, 1});  // side, outward
    m.triangles.push_back({0, q, p});  // base, facing −z
  }
  flip_if_inside_out(m);
  return m;
}

TriangleMesh make_bowl_mesh(Real radius, Real wall, Real height, int segments, int rings) {
  segments = std::max(segments, 3);
  rings = std::max(rings, 1);
  wall = std::clamp(wall, Real(1e-6), Real(0.5) * std::min(radius, height));
  // Profile (r, z) around the solid's cross-section: outer surface from the bottom pole up to the
  // rim, then the inner surface from the rim down to the inner pole (quarter ellipses).
  std::vector<std::pair<Real, Real>> outer, inner;
  for (int k = 1; k <= rings; ++k) {
    const Real t = Real(0.5) * kPi * k / rings;
    outer.emplace_back(radius * std::sin(t), height * (1 - std::cos(t)));
    inner.emplace_back((radius - wall) * std::sin(t), wall + (height - wall) * (1 - std::cos(t)));
  }
  TriangleMesh m;
  m.vertices.emplace_back(0, 0, 0);     // outer pole
  m.vertices.emplace_back(0, 0, wall);  // inner pole
  std::vector<int> ring_start;          // rings in profile order: outer up, inner down
  auto add_ring = [&](Real r, Real z) {
    ring_start.push_back(static_cast<int>(m.vertices.size()));
    for (int i = 0; i < segments; ++i) {
      const Real a = 2 * kPi * i / segments;
      m.vertices.emplace_back(r * std::cos(a), r * std::sin(a), z);
    }
  };
  for (const auto& [r, z] : outer) add_ring(r, z);
  for (auto it = inner.rbegin(); it != inner.rend(); ++it) add_ring(it->first, it->second);
  auto at = [&](int ring, int i) { return ring_start[ring] + (i % segments); };
  const int ring_count = static_cast<int>(ring_start.size());
  for (int i = 0; i < segments; ++i) {
    m.triangles.push_back({0, at(0, i + 1), at(0, i)});                             // outer pole fan
    m.triangles.push_back({1, at(ring_count - 1, i), at(ring_count - 1, i + 1)});   // inner pole fan
    for (int r = 0; r + 1 < ring_count; ++r) {
      m.triangles.push_back({at(r, i), at(r, i + 1), at(r + 1, i + 1)});
      m.triangles.push_back({at(r, i), at(r + 1, i + 1), at(r + 1, i)});
    }
  }
  flip_if_inside_out(m);
  return m;
}

}  // namespace sim
