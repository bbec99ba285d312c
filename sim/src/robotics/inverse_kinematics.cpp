#include "sim/inverse_kinematics.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "constraint/joint_rows.hpp"
#include "core/kinematics.hpp"

namespace sim {

namespace {

int parent_joint(const Model& m, int body) {
  for (int j = 0; j < m.joint_count; ++j)
    if (m.joint_body_b[j] == body) return j;
  return -1;
}

// The motion of joint j at coordinate θ, in joint frame a.
Pose joint_motion(const Model& m, int j, Real theta) {
  Pose p;
  if (m.joint_type[j] == JointType::Revolute) p.rot = Quat(Eigen::AngleAxis<Real>(theta, m.joint_axis[j]));
  else if (m.joint_type[j] == JointType::Prismatic) p.pos = theta * m.joint_axis[j];
  return p;
}

Vec3 rotation_vector(const Quat& q) {
  Eigen::AngleAxis<Real> aa(q);
  Real angle = aa.angle();
  if (angle > Real(M_PI)) angle -= Real(2 * M_PI);
  return angle * aa.axis();
}

// Com poses of the chain's bodies for the given coordinates (others as in the state).
void chain_poses(const Model& m, const State& s, const std::vector<int>& chain, const std::vector<Real>& theta,
                 std::vector<Pose>& poses) {
  poses.resize(m.body_count);
  for (int b = 0; b < m.body_count; ++b) poses[b] = s.body_pose(b);
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const int j = chain[k];
    const int a = m.joint_body_a[j], b = m.joint_body_b[j];
    const Pose parent = a >= 0 ? poses[a] : Pose{};
    poses[b] = parent * m.joint_frame_a[j] * joint_motion(m, j, theta[k]) * m.joint_frame_b[j].inverse();
    poses[b].rot.normalize();
  }
}

// The chain into `chain` (cleared first; no allocation once it has the capacity).
void joint_chain_into(const Model& m, int body, std::vector<int>& chain) {
  chain.clear();
  for (int b = body; b >= 0 && static_cast<int>(chain.size()) <= m.joint_count;) {
    const int j = parent_joint(m, b);
    if (j < 0 || m.joint_type[j] == JointType::Ball) break;
    chain.push_back(j);
    b = m.joint_body_a[j];
  }
  std::reverse(chain.begin(), chain.end());
}

}  // namespace

std::vector<int> joint_chain(const Model& m, int body) {
  std::vector<int> chain;
  joint_chain_into(m, body, chain);
  return chain;
}

std::vector<Real> chain_positions(const Model& m, const State& s, const std::vector<int>& chain) {
  Configuration c;
  c.assign(m, s.q.data());
  const bool unwrap = static_cast<int>(s.joint_position.size()) == m.joint_count;
  std::vector<Real> out;
  for (int j : chain) {
    if (!joint_has_coordinate(m.joint_type[j])) {
      out.push_back(0);
      continue;
    }
    const Real raw = joint_coordinate(m, j, c).value;
    out.push_back(unwrap ? joint_position_near(m.joint_type[j], raw, s.joint_position[j]) : raw);
  }
  return out;
}

Pose forward_kinematics(const Model& m, const State& s, const std::vector<int>& chain,
                        const std::vector<Real>& positions, int body) {
  std::vector<Pose> poses;
  chain_poses(m, s, chain, positions, poses);
  return poses[body] * m.body_frame_in_com[body];
}

Result<IkResult> solve_ik(const Model& m, const State& s, const IkTarget& t, const IkOptions& o,
                          const std::vector<Real>* initial) {
  if (t.body < 0 || t.body >= m.body_count) return Error{"inverse kinematics: no body " + std::to_string(t.body)};
  IkResult r;
  if (initial != nullptr) r.positions = *initial;
  IkWorkspace workspace;
  if (!solve_ik_in_place(m, s, t, o, r, workspace))
    return Error{"inverse kinematics: body '" + m.body_name[t.body] + "' has no joint chain"};
  return r;
}

bool solve_ik_in_place(const Model& m, const State& s, const IkTarget& t, const IkOptions& o, IkResult& r,
                       IkWorkspace& ws) {
  if (t.body < 0 || t.body >= m.body_count) return false;
  if (r.joints.empty() || m.joint_body_b[r.joints.back()] != t.body) {
    std::vector<int> chain;
    joint_chain_into(m, t.body, chain);
    if (chain.empty()) return false;
    r.joints = std::move(chain);
  }
  if (r.positions.size() != r.joints.size()) r.positions = chain_positions(m, s, r.joints);
  r.converged = false;
  const int n = static_cast<int>(r.joints.size());
  const int rows = t.use_orientation ? 6 : 3;
  // At most 6 rows: the row-space matrices live on the stack.
  using RowMatrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
  using RowVector = Eigen::Matrix<Real, Eigen::Dynamic, 1, 0, 6, 1>;
  Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>& J = ws.jacobian;
  J.resize(rows, n);
  ws.step.resize(n);
  RowVector e(rows);
  RowMatrix JJt(rows, rows);
  for (r.iterations = 0; r.iterations <= o.iterations; ++r.iterations) {
    chain_poses(m, s, r.joints, r.positions, ws.poses);
    const Pose ee = ws.poses[t.body] * m.body_frame_in_com[t.body];
    const Vec3 p = ee.apply(t.point);
    const Vec3 dp = t.position - p;
    const Vec3 dr = rotation_vector(t.orientation * ee.rot.conjugate());
    r.position_error = dp.norm();
    r.orientation_error = t.use_orientation ? dr.norm() : Real(0);
    e.head<3>() = dp;
    if (t.use_orientation) e.tail<3>() = t.orientation_weight * dr;
    if (e.norm() < o.tolerance) {
      r.converged = true;
      break;
    }
    if (r.iterations == o.iterations) break;
    for (int k = 0; k < n; ++k) {
      const int j = r.joints[k];
      const int a = m.joint_body_a[j];
      const Pose frame = (a >= 0 ? ws.poses[a] : Pose{}) * m.joint_frame_a[j];
      const Vec3 axis = frame.rot * m.joint_axis[j];
      Vec6 col = Vec6::Zero();
      if (m.joint_type[j] == JointType::Revolute) {
        col.head<3>() = axis.cross(p - frame.pos);
        col.tail<3>() = axis;
      } else if (m.joint_type[j] == JointType::Prismatic) {
        col.head<3>() = axis;
      }
      J.col(k).head<3>() = col.head<3>();
      if (t.use_orientation) J.col(k).tail<3>() = t.orientation_weight * col.tail<3>();
    }
    // Δθ = Jᵀ (J Jᵀ + λ² I)⁻¹ e
    for (int a = 0; a < rows; ++a)
      for (int b = 0; b < rows; ++b) JJt(a, b) = J.row(a).dot(J.row(b)) + (a == b ? o.damping * o.damping : Real(0));
    const RowVector y = JJt.ldlt().solve(e);
    for (int k = 0; k < n; ++k) ws.step[k] = J.col(k).dot(y);
    const Real largest = ws.step.cwiseAbs().maxCoeff();
    const Real scale = largest > o.max_step ? o.max_step / largest : Real(1);
    for (int k = 0; k < n; ++k) {
      const int j = r.joints[k];
      if (!joint_has_coordinate(m.joint_type[j])) continue;
      Real v = r.positions[k] + scale * ws.step[k];
      if (m.joint_limited[j]) v = std::clamp(v, m.joint_lower[j], m.joint_upper[j]);
      r.positions[k] = v;
    }
  }
  return true;
}

}  // namespace sim
