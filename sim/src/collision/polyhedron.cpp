#include "collision/polyhedron.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "collision/convex_hull.hpp"

namespace sim::detail {

void build_hull_topology(const Model::Hull& hull, HullTopology& topology) {
  topology.source = hull;
  // Directed edge -> face, sorted, to find the two faces of every undirected edge.
  std::vector<std::pair<std::uint64_t, int>> directed;
  for (int f = 0; f < hull.face_count(); ++f) {
    const int begin = hull.face_first[f], end = hull.face_first[f + 1];
    for (int k = begin; k < end; ++k) {
      const int u = hull.face_vertices[k], v = hull.face_vertices[k + 1 < end ? k + 1 : begin];
      directed.emplace_back((static_cast<std::uint64_t>(u) << 32) | static_cast<std::uint32_t>(v), f);
    }
  }
  std::sort(directed.begin(), directed.end());
  auto face_of = [&](int u, int v) {
    const std::uint64_t key = (static_cast<std::uint64_t>(u) << 32) | static_cast<std::uint32_t>(v);
    auto it = std::lower_bound(directed.begin(), directed.end(), std::make_pair(key, -1));
    return (it != directed.end() && it->first == key) ? it->second : 0;
  };
  topology.edge_faces.resize(2 * hull.edge_count());
  for (int e = 0; e < hull.edge_count(); ++e) {
    const int u = hull.edge_vertices[2 * e], v = hull.edge_vertices[2 * e + 1];
    topology.edge_faces[2 * e] = face_of(u, v);
    topology.edge_faces[2 * e + 1] = face_of(v, u);
  }
  const int nv = static_cast<int>(hull.vertices.size());
  topology.vertex_face_first.assign(nv + 1, 0);
  for (int v : hull.face_vertices) ++topology.vertex_face_first[v + 1];
  for (int v = 0; v < nv; ++v) topology.vertex_face_first[v + 1] += topology.vertex_face_first[v];
  topology.vertex_faces.resize(hull.face_vertices.size());
  std::vector<int> fill(topology.vertex_face_first.begin(), topology.vertex_face_first.end() - 1);
  for (int f = 0; f < hull.face_count(); ++f)
    for (int k = hull.face_first[f]; k < hull.face_first[f + 1]; ++k) topology.vertex_faces[fill[hull.face_vertices[k]]++] = f;
  Vec3 sum = Vec3::Zero(), lo = Vec3::Zero(), hi = Vec3::Zero();
  if (!hull.vertices.empty()) lo = hi = hull.vertices[0];
  for (const Vec3& v : hull.vertices) {
    sum += v;
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  topology.centroid = hull.vertices.empty() ? Vec3::Zero() : Vec3(sum / Real(hull.vertices.size()));
  topology.aabb_center = Real(0.5) * (lo + hi);
  topology.aabb_half = Real(0.5) * (hi - lo);
}

bool hull_topology_matches(const Model::Hull& hull, const HullTopology& t) {
  return hull.vertices == t.source.vertices && hull.face_first == t.source.face_first &&
         hull.face_vertices == t.source.face_vertices && hull.face_normal == t.source.face_normal &&
         hull.edge_vertices == t.source.edge_vertices;
}

const Model::Hull& unit_box_hull() {
  static const Model::Hull hull = box_hull(Vec3(1, 1, 1));
  return hull;
}

const HullTopology& unit_box_topology() {
  static const HullTopology topology = [] {
    HullTopology t;
    build_hull_topology(unit_box_hull(), t);
    return t;
  }();
  return topology;
}

void place_polyhedron(const Model::Hull& hull, const HullTopology& topology, const Pose& pose,
                      const Vec3& scale, Vec3* vertices, Vec3* normals, Real* offsets,
                      Vec3* edge_arcs, PolyView& view) {
  const Mat3 r = pose.rot.toRotationMatrix();
  const int nv = static_cast<int>(hull.vertices.size());
  for (int i = 0; i < nv; ++i) vertices[i] = r * hull.vertices[i].cwiseProduct(scale) + pose.pos;
  // Normals of a scaled hull transform with the inverse scale.
  const Vec3 inv_scale = scale.cwiseInverse();
  const int nf = hull.face_count();
  for (int f = 0; f < nf; ++f) {
    normals[f] = (r * hull.face_normal[f].cwiseProduct(inv_scale)).normalized();
    offsets[f] = normals[f].dot(vertices[hull.face_vertices[hull.face_first[f]]]);
  }
  const int ne = hull.edge_count();
  for (int e = 0; e < ne; ++e)
    edge_arcs[e] = normals[topology.edge_faces[2 * e + 1]].cross(normals[topology.edge_faces[2 * e]]);
  view.hull = &hull;
  view.topology = &topology;
  view.vertices = vertices;
  view.normals = normals;
  view.offsets = offsets;
  view.edge_arcs = edge_arcs;
  view.vertex_count = nv;
  view.face_count = nf;
  view.edge_count = ne;
  view.centroid = r * topology.centroid.cwiseProduct(scale) + pose.pos;
  view.center = pose.pos;
  view.rotation = r;
}

Real poly_min_projection(const PolyView& poly, const Vec3& d) {
  if (poly.is_box) {
    const Vec3 local = poly.rotation.transpose() * d;
    return d.dot(poly.center) - local.cwiseAbs().dot(poly.half_extents);
  }
  Real best = poly.vertices[0].dot(d);
  for (int i = 1; i < poly.vertex_count; ++i) best = std::min(best, poly.vertices[i].dot(d));
  return best;
}

}  // namespace sim::detail
