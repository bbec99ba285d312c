// Joint rows between body a (or the world) and body b, in compliance form (eq. 8).
//
// Joint frames F_a, F_b (fixed in the com frames) give world anchors p_a, p_b (lever arms r_a,
// r_b) and world rotations q_a, q_b; d = p_b − p_a.
//  * positional row along an axis w fixed in frame a:  C = w·d,
//      ∇C G = a: [−w, w×d − r_a×w],  b: [w, r_b×w]
//  * relative rotation q_rel = q_a* ⊗ q_b (w_r >= 0), rows C_k = 2 v_r,k with
//      d(2 v_r)/dt = (w_r I + [v_r]×) R_bᵀ (ω_b − ω_a)   (exact, from q̇ = ½ [0, ω] ⊗ q)
//  * revolute alignment: C_i = p_i·k_b for the two perpendiculars p_i of the axis in frame a,
//      ∇C G = a: [0, p_i × k_b],  b: [0, −p_i × k_b]
// Rows per type: fixed 3+3, revolute 3+2, prismatic 2+3, ball 3. Revolute and prismatic joints
// have a coordinate θ (angle about / offset along the axis) for limits and drives:
//   revolute θ = 2 atan2(v_r·axis, w_r), θ̇ = k·(ω_b − ω_a);  prismatic θ = k·d.
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "kernels/joint_row_kernels.hpp"

namespace sim {

int joint_bilateral_row_count(JointType type);
bool joint_has_coordinate(JointType type);

// Node of a joint side: the body if dynamic, else -1.
int joint_side_node(const Model& model, int body);
// The two slots of every row of joint j (bilateral, drive, limit): body a, body b.
RowNodes joint_row_nodes(const Model& model, int j);
// Whether joint j has a drive row (drive_rows.hpp) and limit rows (limit_rows.hpp).
bool joint_has_drive(const Model& model, int j);
bool joint_has_limit(const Model& model, int j);

// The evaluations are kernels (kernels/joint_row_kernels.hpp: evaluate_joint_rows, JointCoordinate,
// joint_coordinate, joint_position_near over the Model's JointView); these take the Model.

// Bilateral rows of joint j start at `first`; returns the number written.
int evaluate_joint_rows(const Model& model, int j, const Configuration& c, RowSet& rows, int first);
// θ in (−π, π] for revolute joints: unwrap it with joint_position_near.
JointCoordinate joint_coordinate(const Model& model, int j, const Configuration& c);

}  // namespace sim
