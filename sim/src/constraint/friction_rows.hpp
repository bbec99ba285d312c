// Contact friction rows (eqs. 11-12), two per contact, velocity level: D = Γ(d_i) with the frozen
// tangents d_1, d_2 (anisotropic contacts: the matchstick frame t, b of friction_cone.hpp):
//   D_i u = d_i·(v_a + ω_a × r_a − v_b − ω_b × r_b),  blocks [d_i, r × d_i], particle d_iᵀ,
//   particle face w_k d_iᵀ (particle_face_contact.hpp),
// at the surface point (round cores moved by their radius along the normal, contact_sides.hpp).
// No value C: the solver's NCP (eqs. 99-106, friction_cone.hpp) works on D u and λ_f.
#pragma once

#include "constraint/contact_sides.hpp"

namespace sim {

// D of a contact's two tangent rows: the kernel evaluate_friction_rows
// (kernels/contact_row_kernels.hpp), from constraint/row_assembly.cpp's per-contact loop.

}  // namespace sim
