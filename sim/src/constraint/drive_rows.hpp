// Joint drive rows (implicit PD, velocity level), one per driven revolute or prismatic joint:
//   λ = −k_p(θ⁻ + h θ̇ − θ*) − k_d(θ̇ − θ̇*)  rearranged to
//   φ_d = θ̇ + b + e λ = 0,   e = 1/(k_p h + k_d),   b = (k_p(θ⁻ − θ*) − k_d θ̇*) e,
// θ̇ = J_d u with J_d = ∇θ G (joint_rows.hpp: revolute [0, −k | 0, k], prismatic the axis row),
// θ⁻ the coordinate at the step's start, unwrapped beyond ±π. The effort bound |λ| <= F makes it
// a box NCP (clamped in the solver). Position drives use k_p, velocity drives k_p = 0 (k_d > 0).
#pragma once

#include "constraint/joint_rows.hpp"
#include "kernels/joint_coordinate_row_kernels.hpp"
#include "sim/state.hpp"

namespace sim {

// θ and ∇θ G of the joint into its row: the kernel evaluate_drive_row
// (kernels/joint_coordinate_row_kernels.hpp), from constraint/row_assembly.cpp's per-joint loop.

// Compliance e, bias b and bound F of every drive row, once per step with row_value = θ⁻.
void setup_drive_rows(const Model& model, const Control& control, Real h, RowSet& rows);

}  // namespace sim
