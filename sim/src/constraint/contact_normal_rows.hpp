// Contact normal rows (eq. 9), one per contact, NCP (eqs. 93-98) in the solver:
//   C_n = n·(p_a − p_b) − d + b ≥ 0,   ∇C_n G = [n, r_a × n] on body a, −[n, r_b × n] on body b,
//   nᵀ on a particle, w_k nᵀ on the corners of a particle face (particle_face_contact.hpp),
// n frozen for the step (§10), d the thickness (+ round cores' radii, contact_sides.hpp), no
// compliance. b is the allowance of a contact that starts penetrating (relax_initial_penetration).
#pragma once

#include "constraint/contact_sides.hpp"
#include "sim/solver_options.hpp"

namespace sim {

// C_n and ∇C_n G of a contact into its row: the kernel evaluate_contact_normal_row
// (kernels/contact_row_kernels.hpp), from constraint/row_assembly.cpp's per-contact loop.

// Initial penetration. Eq. 9 asks C_n(q) >= 0 at the step's end, so a contact that starts
// penetrating by δ is pushed out by δ in one step: a separation speed δ/h (0.8 m/s for 7 mm at
// 120 Hz, on a 10 g link) and, where joint limits or other contacts keep it from separating, a
// row that cannot be satisfied at all. As PhysX's max depenetration velocity, a contact with
// C_n(q⁻) < 0 asks only C_n(q) >= C_n(q⁻) + v_max h (never deeper, recovering at most v_max h per
// step): row_bias b = max(0, −C_n(q⁻) − v_max h) is added to C_n in every later evaluation, so the
// NCP (eqs. 93-98) sees C_n + b. Contacts closer than v_max h to the surface keep eq. 9 unchanged;
// v_max = 0 holds the depth, v_max = inf is eq. 9 as printed. Called with row_value = C_n(q⁻).
void relax_initial_penetration(const SolverOptions& options, Real h, RowSet& rows);

}  // namespace sim
