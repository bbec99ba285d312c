// Particle-face contact side (barycentric): a point of a cloth face at fixed weights w (frozen for
// the step with the normal, §10), x* = w_0 x_0 + w_1 x_1 + w_2 x_2 over the face's particles.
// Its contact with the other side b (a body, the world) is one row per direction d:
//   C_n = n·(x* − p_b) − d,       ∇_{x_k} C_n G = w_k nᵀ   (k = 0, 1, 2; eq. 9 with x* for p_a)
//   friction: D = [w_0 d_iᵀ, w_1 d_iᵀ, w_2 d_iᵀ, −Γ_b(d_i)]   (eqs. 11-12, d_i the tangents)
// so a face touching a field with its interior is one 4-node row (3 particles + the other side),
// its force split on the corners by the weights (Σ_k w_k = 1: the face's total momentum changes by
// exactly the contact impulse). Pinned corners (zero inverse mass) have no entry.
#pragma once

#include "core/kinematics.hpp"
#include "sim/contact.hpp"
#include "sim/model.hpp"

namespace sim {

// x* = Σ_k w_k x_k: particle_face_point (kernels/contact_row_kernels.hpp) over the Model's faces;
// the row's slots are the corners' particles (sim/contact_side_particles.hpp), a pinned one without
// an entry. A particle segment (a point of a distance constraint's segment, weights (1 − s, s))
// is the same with two corners (particle_segment_point).

}  // namespace sim
