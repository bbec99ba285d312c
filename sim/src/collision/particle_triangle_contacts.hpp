// Soft–soft and self contact: point–triangle proximity between the surface particles and the
// surface triangles (Model::particle_triangles) of soft bodies and cloth (issue 14 item 4), and
// the free particles (ropes, distance-only cloth, loose particles) against those triangles.
//
// Every particle on a surface (a corner of some triangle, collision/particle_surfaces.hpp) and
// every free particle (in no triangle and no tet; not a soft body's interior particle) is
// tested against the triangles whose grown boxes meet its own (a spatial hash over the triangles'
// boxes, collision/box_hash.hpp, rebuilt each step in reused buffers). With y = Σ w_k x_k the
// closest point of the triangle to the particle x_p (barycentric w, Ericson 5.1.5) and
// δ = x_p − y, one contact with side a the particle and side b the face point (ContactSide::
// ParticleFace, the weights w frozen for the step with the normal, §10):
//     C_n = n·(x_p − Σ_k w_k x_k) − d,   ∇_{x_p} C_n = nᵀ, ∇_{x_k} C_n = −w_k nᵀ   (eq. 9)
// with d = r_p + Σ w_k r_k and n = δ/|δ| (the face normal when |δ| vanishes); the friction rows
// are eqs. 11–12 over the same four nodes, with the particles' materials (μ combined, structure
// fields and the matchstick cone as for any particle contact, contact_friction.hpp).
// A closed surface (one that bounds tets) is one-sided: a particle behind a face whose closest
// point is inside the face (all w > 0) is inside the body, C_n = −|δ| − d with n = −δ/|δ| (the
// outward normal's side) when |δ| is within reach; behind an edge or a vertex it is left to the
// neighbouring face. A cloth is two-sided: n = δ/|δ| from the side the particle is on.
// Pairs kept: a free particle with every triangle (it belongs to no surface; particles do not
// collide with particles, so between a rope's particles a soft body's face is all that holds it);
// different surfaces always; the same surface only with self collision
// (CollisionScratch::self_collision: particle ranges), and then
// never a triangle with the particle as a corner nor, on a closed surface, one whose corner
// shares a tet or a triangle with the particle (its rest neighbourhood). A closest point on an
// edge is kept by the edge's owner triangle, on a vertex by the vertex's first triangle (the
// hand-off rules of the face contacts). Contacts come in particle order (fixed chunks, in
// parallel for large surfaces), keyed by (particle, triangle) for warm starts.
#pragma once

#include "collision/collide.hpp"

namespace sim::detail {

void append_particle_triangle_contacts(const Model& model, Real dt, Real margin, CollisionScratch& scratch,
                                       ContactBuffer& out);

// Whether particle p may touch triangle t at all (surfaces, self collision, exclusions above).
bool particle_triangle_allowed(const Model& model, const ParticleSurfaces& surfaces, int p, int t);

}  // namespace sim::detail
