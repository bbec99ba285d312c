// Cloth faces against distance fields (thesis §6.4.1, L1548-1556; Fig. 38a): each triangle of
// Model::particle_triangles is optimised (PGD or Frank-Wolfe) against the field of every shape
// near it, so a sharp feature under the middle of a face is caught where particle (vertex)
// sampling misses it.
//
// Contacts here couple one particle and one shape, so a face contact at x* = Σ w_k x_k, normal n
// and field surface point y becomes one contact per corner with w_k > 0:
//     C_k = n·(x_k − y_k) − d,   y_k = y + n (n·(x_k − x*))   (all at the step's start),
// each starting at the face's gap φ(x*) − d. Σ w_k C_k = n·(x* − y) − d, so the corners' rows
// together keep the face point outside (conservatively: a corner may not sink below its start
// offset even where the face could tilt). A minimiser on a vertex is left to the particle's own
// contact; one on an edge to the edge's representative triangle.
#pragma once

#include "collision/collide.hpp"

namespace sim::detail {

void append_particle_face_contacts(const Model& model, Real dt, Real margin, CollisionScratch& scratch,
                                   ContactBuffer& out);

}  // namespace sim::detail
