// Damped-least-squares inverse kinematics over a chain of joints, for teleoperation: the solution
// becomes the drives' position targets (Control::joint_target), the simulation then follows.
//
// The chain is found from the end-effector body up through the joints whose child is each body
// (revolute, prismatic, fixed; the first body whose parent is the world or not jointed ends it).
// Forward kinematics from joint coordinates: X_b = X_a · F_a · M(θ) · F_b⁻¹ with M a rotation
// about (revolute) or a translation along (prismatic) the joint axis. Each iteration solves
//   Δθ = Jᵀ (J Jᵀ + λ² I)⁻¹ e,  J columns [k × (p − p_j); k] (revolute) or [k; 0] (prismatic),
// e = [p* − p; w_o · rotation vector of R* Rᵀ], then clamps θ to the joint limits.
#pragma once

#include <vector>

#include "sim/model.hpp"
#include "sim/result.hpp"
#include "sim/state.hpp"

namespace sim {

struct IkTarget {
  int body = -1;                    // end-effector body
  Vec3 point = Vec3::Zero();        // end-effector point in the body's authored frame
  Vec3 position = Vec3::Zero();     // target position, world [m]
  Quat orientation = Quat::Identity();  // target orientation of the body's authored frame, world
  bool use_orientation = false;
  Real orientation_weight = Real(0.2);  // [m/rad]: how much a radian of error counts as metres
};

struct IkOptions {
  int iterations = 100;
  Real damping = Real(0.02);        // λ of the damped least squares [m]
  Real tolerance = Real(1e-5);      // stop when |e| is below [m]
  Real max_step = Real(0.3);        // largest change of one coordinate per iteration [rad or m]
};

struct IkResult {
  std::vector<int> joints;          // the chain, root first
  std::vector<Real> positions;      // solved coordinates, one per joint in `joints`
  Real position_error = 0;          // [m]
  Real orientation_error = 0;       // [rad]
  int iterations = 0;
  bool converged = false;
};

// The chain's joints (root first) from `body` upwards; empty if the body has no parent joint.
std::vector<int> joint_chain(const Model& model, int body);

// Current coordinates of the chain's joints (revolute angle, prismatic offset, 0 for fixed).
std::vector<Real> chain_positions(const Model& model, const State& state, const std::vector<int>& chain);

// World pose of the end-effector body's authored frame after setting the chain's coordinates.
Pose forward_kinematics(const Model& model, const State& state, const std::vector<int>& chain,
                        const std::vector<Real>& positions, int body);

// Buffers of one IK solve, kept between solves so that a warm-started solve of the same chain
// (teleoperation, every step) allocates nothing.
struct IkWorkspace {
  std::vector<Pose> poses;                                   // com pose per body
  Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> jacobian;  // rows × chain
  Eigen::Matrix<Real, Eigen::Dynamic, 1> step;               // Δθ (chain)
};

// Solves from `initial` coordinates of the chain when given (size of the chain; e.g. the last
// solution, for teleoperation), else from the state's current coordinates. Errors: bad body,
// no joint chain.
Result<IkResult> solve_ik(const Model& model, const State& state, const IkTarget& target,
                          const IkOptions& options = {}, const std::vector<Real>* initial = nullptr);

// The same solve in place: `result.joints` is the chain when it already ends at the body (else it
// is found again), `result.positions` the initial coordinates when they match the chain's size
// (else the state's). Allocates nothing once `result` and `workspace` have held this chain.
// False (result untouched) for a bad body or a body without a joint chain.
bool solve_ik_in_place(const Model& model, const State& state, const IkTarget& target, const IkOptions& options,
                       IkResult& result, IkWorkspace& workspace);

}  // namespace sim
