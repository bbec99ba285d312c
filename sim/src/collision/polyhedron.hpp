// Convex polyhedra (boxes and convex meshes) as the narrowphase sees them: a topology derived
// once per hull (edge-face adjacency, centroid, bounds) and a world-space placement per step
// (vertices, face planes, Gauss-map arcs of the edges).
#pragma once

#include <vector>

#include "sim/math.hpp"
#include "sim/model.hpp"

namespace sim::detail {

// Derived data of one Model::Hull. Keeps a copy of the hull it came from, so that a scratch reused
// with another Model notices the change and rebuilds.
struct HullTopology {
  std::vector<int> edge_faces;       // per edge: the face holding u->v, then the one holding v->u
  std::vector<int> vertex_face_first;  // (vertex_count + 1) offsets into vertex_faces
  std::vector<int> vertex_faces;       // the faces around each vertex
  Vec3 centroid = Vec3::Zero();      // mean of the vertices (an interior point), hull frame
  Vec3 aabb_center = Vec3::Zero();   // bounds of the vertices, hull frame
  Vec3 aabb_half = Vec3::Zero();
  Model::Hull source;
};

void build_hull_topology(const Model::Hull& hull, HullTopology& topology);
bool hull_topology_matches(const Model::Hull& hull, const HullTopology& topology);

// The box [-1, 1]^3 (box shapes scale its vertices by their half extents) and its topology.
const Model::Hull& unit_box_hull();
const HullTopology& unit_box_topology();

// A polyhedron placed in the world. Arrays point into CollisionScratch's pools.
struct PolyView {
  const Model::Hull* hull = nullptr;          // topology (the unit box for boxes)
  const HullTopology* topology = nullptr;
  const Vec3* vertices = nullptr;             // world [m] (vertex_count)
  const Vec3* normals = nullptr;              // world outward face normals (face_count)
  const Real* offsets = nullptr;              // n·x = offset on each face (face_count)
  const Vec3* edge_arcs = nullptr;            // cross(n_twin, n_face) per edge (edge_count)
  int vertex_count = 0, face_count = 0, edge_count = 0;
  Vec3 centroid = Vec3::Zero();               // world, inside the polyhedron
  bool is_box = false;                        // box: also center, rotation and half extents
  Vec3 center = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
  Vec3 half_extents = Vec3::Zero();

  Vec3 face_vertex(int face, int k) const {
    return vertices[hull->face_vertices[hull->face_first[face] + k]];
  }
  int face_size(int face) const { return hull->face_first[face + 1] - hull->face_first[face]; }
};

// Transforms a hull into the world: local vertex = scale ∘ hull vertex, then pose. The arrays
// must hold hull.vertices.size(), face_count() and edge_count() entries.
void place_polyhedron(const Model::Hull& hull, const HullTopology& topology, const Pose& pose,
                      const Vec3& scale, Vec3* vertices, Vec3* normals, Real* offsets,
                      Vec3* edge_arcs, PolyView& view);

// min over the vertices of d·v (the support point in direction -d), closed form for boxes.
Real poly_min_projection(const PolyView& poly, const Vec3& d);

}  // namespace sim::detail
