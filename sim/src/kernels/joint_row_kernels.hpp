// Kernels: the bilateral rows of a joint and its coordinate θ, per joint, in compliance form
// (eq. 8; the geometry and gradients are documented in constraint/joint_rows.hpp):
//  * positional rows C = w·d along axes w fixed in frame a, d = p_b − p_a;
//  * rotational rows C_k = 2 v_r,k of q_rel = q_a* ⊗ q_b (fixed, prismatic), or the revolute
//    alignment rows C_i = p_i·k_b;
//  * the coordinate θ (revolute 2 atan2(v_r·axis, w_r), prismatic k·d) and ∇θ G, which the drive
//    and limit rows use (joint_coordinate_row_kernels.hpp).
// Over JointView and ConfigurationView (kernels/views.hpp), writing through RowGradientView; called
// from constraint/row_assembly.cpp's per-joint loop and instantiated by sim/cuda/kernels.cu.
#pragma once

#include <cmath>

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/skew_matrix.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// The joint frames at a configuration: world anchors, lever arms from the coms, world rotations.
struct JointFrames {
  Vec3 pa, pb;  // world anchors
  Vec3 ra, rb;  // lever arms from the com
  Quat qa, qb;  // world rotations of the joint frames
};

SIM_HD inline JointFrames joint_frames(const JointView& joints, const ConfigurationView& c, int j) {
  JointFrames f;
  const int a = joints.body_a[j], b = joints.body_b[j];
  const Pose wa = a >= 0 ? c.body_pose[a] * joints.frame_a[j] : joints.frame_a[j];
  const Pose wb = c.body_pose[b] * joints.frame_b[j];
  f.pa = wa.pos;
  f.pb = wb.pos;
  f.ra = a >= 0 ? Vec3(f.pa - c.body_pose[a].pos) : Vec3::Zero();
  f.rb = f.pb - c.body_pose[b].pos;
  f.qa = wa.rot;
  f.qb = wb.rot;
  return f;
}

// q_rel = q_a* ⊗ q_b on the hemisphere w_r >= 0.
SIM_HD inline Quat joint_relative_rotation(const JointFrames& f) {
  Quat rel = f.qa.conjugate() * f.qb;
  if (rel.w() < 0) rel.coeffs() = -rel.coeffs();
  return rel;
}

// Positional row along world axis w (fixed in frame a): C = w·d, a: [−w, w×d − r_a×w], b: [w, r_b×w].
SIM_HD inline void joint_positional_row(const RowGradientView& rows, int r, const JointFrames& f, const Vec3& w) {
  const Vec3 d = f.pb - f.pa;
  Vec6 ga, gb;
  ga << -w, w.cross(d) - f.ra.cross(w);
  gb << w, f.rb.cross(w);
  set_row(rows, r, w.dot(d), ga, gb);
}

// The bilateral rows of joint j from row `first` on; returns the number written (fixed 3+3,
// revolute 3+2, prismatic 2+3, ball 3).
SIM_HD inline int evaluate_joint_rows(const JointView& joints, const ConfigurationView& c, const RowGradientView& rows,
                                      int j, int first) {
  const JointFrames f = joint_frames(joints, c, j);
  const JointType type = joints.type[j];
  const Vec3 axis = joints.axis[j];
  int r = first;
  // Positional rows.
  if (type == JointType::Prismatic) {
    Vec3 p1, p2;
    orthonormal_basis(axis, p1, p2);
    joint_positional_row(rows, r++, f, f.qa * p1);
    joint_positional_row(rows, r++, f, f.qa * p2);
  } else {
    for (int k = 0; k < 3; ++k) joint_positional_row(rows, r++, f, f.qa * Vec3::Unit(k));
  }
  // Rotational rows.
  if (type == JointType::Fixed || type == JointType::Prismatic) {
    const Quat rel = joint_relative_rotation(f);
    const Vec3 v = rel.vec();
    const Mat3 jr = (rel.w() * Mat3::Identity() + skew_matrix(v)) * f.qb.toRotationMatrix().transpose();
    for (int k = 0; k < 3; ++k) {
      Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
      ga.tail<3>() = -jr.row(k).transpose();
      gb.tail<3>() = jr.row(k).transpose();
      set_row(rows, r++, 2 * v[k], ga, gb);
    }
  } else if (type == JointType::Revolute) {
    Vec3 perpendicular[2];
    orthonormal_basis(axis, perpendicular[0], perpendicular[1]);
    const Vec3 kb = f.qb * axis;
    for (int i = 0; i < 2; ++i) {
      const Vec3 pw = f.qa * perpendicular[i];
      const Vec3 cr = pw.cross(kb);
      Vec6 ga = Vec6::Zero(), gb = Vec6::Zero();
      ga.tail<3>() = cr;
      gb.tail<3>() = -cr;
      set_row(rows, r++, pw.dot(kb), ga, gb);
    }
  }
  return r - first;
}

// The joint coordinate θ and its gradient blocks ∇θ G (for limits and drives).
struct JointCoordinate {
  Real value = 0;
  Vec6 grad_a = Vec6::Zero(), grad_b = Vec6::Zero();
};

// θ of joint j at a configuration (revolute: in (−π, π], unwrap it with joint_position_near).
SIM_HD inline JointCoordinate joint_coordinate(const JointView& joints, const ConfigurationView& c, int j) {
  const JointFrames f = joint_frames(joints, c, j);
  const Vec3 axis = joints.axis[j];
  const Vec3 k = f.qa * axis;
  JointCoordinate out;
  if (joints.type[j] == JointType::Revolute) {
    const Quat rel = joint_relative_rotation(f);
    out.value = 2 * std::atan2(rel.vec().dot(axis), rel.w());
    out.grad_a.tail<3>() = -k;
    out.grad_b.tail<3>() = k;
  } else if (joints.type[j] == JointType::Prismatic) {
    const Vec3 d = f.pb - f.pa;
    out.value = k.dot(d);
    out.grad_a << -k, k.cross(d) - f.ra.cross(k);
    out.grad_b << k, f.rb.cross(k);
  }
  return out;
}

// The joint coordinate on the branch nearest to `reference` (revolute: reference + the angle
// difference wrapped into (−π, π], so angles accumulate beyond ±π; other types: `raw`).
SIM_HD inline Real joint_position_near(JointType type, Real raw, Real reference) {
  if (type != JointType::Revolute || !std::isfinite(reference)) return raw;
  constexpr Real kTwoPi = Real(2) * Real(3.14159265358979323846);
  const Real turns = std::round((reference - raw) / kTwoPi);
  return raw + turns * kTwoPi;
}

}  // namespace sim
