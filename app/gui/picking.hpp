// Ray picking for the viewport: the nearest body shape or particle hit by a ray. Bodies are first
// culled by their bounding spheres, then the ray is intersected with the actual shapes (sphere,
// capsule, box, convex hull) in their current poses. Soft bodies and cloth are picked on their
// drawn surfaces: Model::particle_triangles in the current particle positions, or, for a body
// drawn as an embedded render mesh (Model::soft_render_meshes), that mesh skinned to the current
// positions (its tet boundary is not drawn, so it is not picked). A face hit picks the nearest
// particle that moves the face: a particle triangle's corner, or a node of the tets the render
// face's vertices are bound to. World geometry is not pickable. No Qt here.
#pragma once

#include "sim/model.hpp"
#include "sim/soft_render_mesh.hpp"
#include "sim/state.hpp"

namespace coulomb::gui {

struct Ray {
  sim::Vec3 origin = sim::Vec3::Zero();
  sim::Vec3 direction = sim::Vec3::UnitX();  // unit
};

struct PickHit {
  enum Kind { None, Body, Particle };
  Kind kind = None;
  int index = -1;          // body or particle
  int shape = -1;          // model shape index (bodies)
  int face = -1;           // particles picked on a surface: index into Model::particle_triangles,
                           // or into the render mesh's triangles when render_mesh >= 0
  int render_mesh = -1;    // index into Model::soft_render_meshes when the face is one of its
  sim::Real distance = 0;  // along the ray [m]
  sim::Vec3 point = sim::Vec3::Zero();  // world
  bool hit() const { return kind != None; }
};

// Distance along the ray to the first intersection with the shape (in its current pose), or a
// negative value when it misses. Planes never hit.
sim::Real intersect_shape(const sim::Model& model, const sim::State& state, int shape, const Ray& ray);

// Vertex `v` of a render mesh in the current particle positions: the weighted sum of its tet's
// particles (sim::deform_embedded, in double and straight from the State).
sim::Vec3 skinned_vertex(const sim::Model& model, const sim::State& state, const sim::SoftRenderMesh& mesh, int v);

// The nearest hit. Particles are picked within `particle_scale` times their radius (small
// particles are hard to hit otherwise); particles on particle triangles through the triangles
// instead (the nearest corner of the face hit), as they are drawn; a body with a render mesh
// through that mesh.
PickHit pick(const sim::Model& model, const sim::State& state, const Ray& ray, sim::Real particle_scale = 2);

}  // namespace coulomb::gui
