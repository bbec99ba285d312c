// Joint limit rows, two per limited revolute or prismatic joint, unilateral (NCP like a contact
// normal, eqs. 93-98 in the solver):
//   C_lower = θ − θ_lower ≥ 0,  ∇C G = ∇θ G;     C_upper = θ_upper − θ ≥ 0,  ∇C G = −∇θ G,
// θ the joint coordinate unwrapped beyond ±π (joint_rows.hpp), no compliance. Evaluated by the
// kernel evaluate_limit_rows (kernels/joint_coordinate_row_kernels.hpp) from
// constraint/row_assembly.cpp's per-joint loop.
#pragma once

#include "constraint/joint_rows.hpp"
#include "kernels/joint_coordinate_row_kernels.hpp"
