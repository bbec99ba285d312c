// Joint limit rows, two per limited revolute or prismatic joint, unilateral (NCP like a contact
// normal, eqs. 93-98 in the solver):
//   C_lower = θ − θ_lower ≥ 0,  ∇C G = ∇θ G;     C_upper = θ_upper − θ ≥ 0,  ∇C G = −∇θ G,
// θ the joint coordinate unwrapped beyond ±π (joint_rows.hpp), no compliance.
#pragma once

#include "constraint/joint_rows.hpp"

namespace sim {

// Rows r (lower) and r + 1 (upper) of joint j (jc already unwrapped).
void evaluate_limit_rows(const Model& model, int j, const JointCoordinate& jc, RowSet& rows, int r);

}  // namespace sim
