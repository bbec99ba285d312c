// Convex hulls of point sets (quickhull with coplanar faces merged into polygons), the box and
// cylinder hulls used as primitives, and exact mass properties of a convex polyhedron.
#pragma once

#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/model.hpp"
#include "sim/result.hpp"

namespace sim {

// Convex hull of `points` (shape frame). Coplanar triangles are merged into planar polygon faces,
// counter-clockwise seen from outside; only corner points become hull vertices (points inside the
// hull, inside a face or on an edge are dropped). Fills every Model::Hull array, including the
// unique edge list (pairs of vertex indices, lower index first, sorted). Fails, with a message
// starting with `where`, for fewer than 4 points, non-finite coordinates or a flat/colinear set.
Result<Model::Hull> build_convex_hull(const std::vector<Vec3>& points, const std::string& where);

// The box [-h, h] as a hull: 8 vertices, 6 quad faces, 12 edges.
Model::Hull box_hull(const Vec3& half_extents);

// A prism with a regular `segments`-gon section (at least 3) inscribed in the circle of `radius`,
// axis along local z, z in [-half_height, half_height]: 2 n vertices, n + 2 faces, 3 n edges.
Model::Hull cylinder_hull(Real radius, Real half_height, int segments);

// Volume, centroid and inertia tensor about the centroid (hull frame axes) of a solid convex
// polyhedron of unit density [m^3, m, m^5]. Multiply volume and inertia by the density.
struct MassProperties {
  Real volume = 0;
  Vec3 centroid = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
};

// Exact integration over tetrahedra spanned by an interior point and a fan of every face.
MassProperties hull_mass_properties(const Model::Hull& hull);

}  // namespace sim
