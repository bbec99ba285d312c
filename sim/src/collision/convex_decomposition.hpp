// Approximate convex decomposition of a closed triangle mesh by recursive plane cuts, for
// collision of non-convex meshes with convex shapes only (each part becomes a ConvexMesh).
//
// Every part is the solid cut by a convex cell (an intersection of half-spaces), so:
// - its volume is exact: the solid is the signed sum of the tetrahedra fanned from one point to
//   every triangle (a cone decomposition), and intersecting each with the cell keeps the sum;
// - its convex hull is the hull of the surface triangles clipped to the cell plus the cell's
//   corners that lie inside the solid (winding number).
// The part with the largest excess volume (hull - solid) is cut next, by the plane, among
// candidates across its principal axes and the mesh axes at evenly spaced positions and at vertex
// positions, that minimises the two halves' hull volumes (or, when no cut shrinks them, as in a
// ring, the most balanced cut that keeps their sum and splits the excess); until every part's hull
// is within `max_concavity` of its volume, no cut helps, or `max_parts` is reached.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/result.hpp"

namespace sim {

struct ConvexDecompositionOptions {
  Real max_concavity = Real(0.05);  // a part is done when hull volume <= (1 + this) × its volume
  int max_parts = 16;               // at most this many parts (at least 1)
  Real min_part_fraction = Real(0.002);  // parts below this fraction of the mesh volume are not cut
  int cuts_per_axis = 16;           // evenly spaced cut positions tried along each axis
};

struct ConvexPart {
  std::vector<Vec3> hull_vertices;  // corners of the part's convex hull (mesh frame) [m]
  Real volume = 0;                  // volume of the solid inside the part [m^3]
  Real hull_volume = 0;             // volume of its convex hull [m^3]
};

struct ConvexDecomposition {
  std::vector<ConvexPart> parts;
  Real mesh_volume = 0;  // [m^3]
  Real hull_volume = 0;  // of the whole mesh's convex hull [m^3]
};

// Volume enclosed by a closed triangle mesh, positive when the triangles are counter-clockwise
// seen from outside (divergence theorem; meaningless for open meshes).
Real mesh_volume(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles);

// True when every edge is used by exactly two triangles, once in each direction (a closed,
// consistently oriented surface over shared vertex indices).
bool is_closed_mesh(const std::vector<std::array<int, 3>>& triangles);

// Decomposes a closed, outward-oriented mesh. Fails, with a message starting with `where`, for an
// open mesh, a mesh without volume or invalid indices. A mesh that is already convex within
// `max_concavity` comes back as one part.
Result<ConvexDecomposition> convex_decomposition(const std::vector<Vec3>& vertices,
                                                 const std::vector<std::array<int, 3>>& triangles,
                                                 const ConvexDecompositionOptions& options,
                                                 const std::string& where);

}  // namespace sim
