// Triangle meshes of the simulation's shapes in each shape's own frame, built once per model:
// boxes and convex hulls with flat (per-face) normals, SDF triangle meshes as they are (creased), spheres and capsules smooth, planes as a
// finite square the fragment shader draws a grid on and fades out before its edge. Triangles are
// counter-clockwise seen from outside (the pipelines cull back faces).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model.hpp"
#include "sim/sdf.hpp"

namespace render {

struct MeshVertex {
  float position[3];  // shape frame [m]
  float normal[3];    // unit, outward
};

struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;  // triangle list
};

MeshData tessellate_box(float hx, float hy, float hz);
MeshData tessellate_sphere(float radius, int rings = 16, int segments = 24);
// Capsule around the local z axis: a cylinder of half length `half_length` with hemispherical caps.
MeshData tessellate_capsule(float radius, float half_length, int rings = 16, int segments = 24);
// Cylinder around the local z axis, flat caps with sharp rims; ellipsoid with semi-axes along x, y, z.
MeshData tessellate_cylinder(float radius, float half_length, int segments = 32);
MeshData tessellate_ellipsoid(float rx, float ry, float rz, int rings = 16, int segments = 24);
MeshData tessellate_hull(const sim::Model::Hull& hull);
// A (possibly non-convex) triangle mesh, as collided through its SDF: each corner's normal is the
// area-weighted average of the faces around its vertex that bend less than `crease_degrees` from
// the corner's own face, so smooth surfaces shade smoothly and edges stay sharp.
MeshData tessellate_triangle_mesh(const sim::TriangleMesh& mesh, float crease_degrees = 35.0f);
// The square |x|, |y| <= half_size in the plane z = 0, normal +z.
MeshData tessellate_ground(float half_size);

// Shape `s` of the model; planes use `ground_half_size`.
MeshData tessellate_shape(const sim::Model& model, int s, float ground_half_size);
// Visual shape `v` of the model (render only): primitives smooth, meshes creased as SDF meshes
// are; a plane visual of half size 0 uses `ground_half_size`.
MeshData tessellate_visual(const sim::Model& model, int v, float ground_half_size);

}  // namespace render
