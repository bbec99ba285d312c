// Compiling triangle-mesh shapes (ShapeSpec::triangles): the hull that stands in for the mesh in
// the broadphase, the polyhedron its mass comes from, and the baked SdfMesh (shared between
// shapes with the same mesh and grid parameters).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/spec.hpp"

namespace sim::detail {

// The convex hull of the mesh's vertices, or for a flat mesh the hull of its bounding box grown
// by a small thickness. Errors start with `where`.
Result<Model::Hull> mesh_shape_hull(const ShapeSpec& shape, const std::string& where);

// The mesh's triangles as a polyhedron (one face per triangle) when they enclose a positive volume
// (exact mass properties of a non-convex closed mesh), else `hull` unchanged.
Model::Hull mesh_mass_polyhedron(const ShapeSpec& shape, Model::Hull hull);

// Bakes the shape's SdfMesh (through the cache) and appends it to `meshes`, or reuses an equal
// one; returns its index. The exterior band is widened to cover contact_margin + thickness.
Result<int> add_mesh_shape(const ShapeSpec& shape, Real contact_margin,
                           std::vector<std::shared_ptr<const SdfMesh>>& meshes, const std::string& where);

}  // namespace sim::detail
