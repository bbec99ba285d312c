// Cloth faces against distance fields (thesis §6.4.1, L1548-1556; Fig. 38a): each triangle of
// Model::particle_triangles is optimised (PGD or Frank-Wolfe) against the field of every shape
// near it, so a sharp feature under the middle of a face is caught where particle (vertex)
// sampling misses it.
//
// A face contact at the minimiser x* = Σ w_k x_k (barycentric weights w, found by the face's
// PGD or Frank-Wolfe iterations on the field, so it lies in the face's interior where the field is
// deepest there), normal n and field surface point y = x* − φ n is one contact whose side a is the
// face point (ContactSide::ParticleFace: the face and w) and side b the shape:
//     C_n = n·(Σ_k w_k x_k − y) − d,   ∇_{x_k} C_n = w_k nᵀ   (constraint/particle_face_contact.hpp)
// with d = Σ w_k r_k + the shape's thickness, w and n frozen for the step; one row couples the
// three corners, so a sharp feature or a convex surface under the middle of a face holds the face
// there, with the force shared by the corners in proportion to w. A minimiser on a vertex is left
// to the particle's own contact; one on an edge to the edge's representative triangle.
//
// Rope segments (the free particles' links, ParticleSurfaces::segments) are a second pass over the
// same shapes: each a capsule of its ends' radii, its deepest point x* = (1 − t) x_a + t x_b by
// golden-section search on the field (culled by its ends' φ and length, as a round core), kept
// only inside the link (t in (ε, 1 − ε): an end is its particle's own contact) and where it lies
// deeper than both ends (a link lying on a face ties with them), as a ContactSide::ParticleSegment
// over the two particles. So a rope whose particles are wider apart than a rod or a box edge under
// it is held there, not only at its particles. Planes are skipped (linear: the minimum is an end).
#pragma once

#include "collision/collide.hpp"

namespace sim::detail {

void append_particle_face_contacts(const Model& model, Real dt, Real margin, CollisionScratch& scratch,
                                   ContactBuffer& out);

}  // namespace sim::detail
