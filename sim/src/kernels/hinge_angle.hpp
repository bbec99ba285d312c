// Kernel: the signed dihedral angle of a shell hinge (an interior edge and its two triangles) and
// its gradient, the measure the bending rows combine (kernels/bending_row_kernel.hpp).
//
// The dihedral angle is signed and taken with atan2, robust at flat (θ = 0) and folded (θ → ±π)
// configurations alike: with e = x_1 − x_0 (the edge), n_1 = e × (x_2 − x_0), n_2 = (x_3 − x_0) × e
// (parallel when the hinge is flat whatever the triangles' orientation),
//   θ = atan2((n_1 × n_2)·ê, n_1·n_2),
//   ∂θ/∂x_2 = −‖e‖ n_1/|n_1|², ∂θ/∂x_3 = −‖e‖ n_2/|n_2|² (a corner moved along its face normal
//   turns its face about the edge by the distance over its height),
//   ∂θ/∂x_0 = −(1 − s_2) ∂θ/∂x_2 − (1 − s_3) ∂θ/∂x_3, ∂θ/∂x_1 = −s_2 ∂θ/∂x_2 − s_3 ∂θ/∂x_3,
//   s_k = (x_k − x_0)·e/‖e‖² (translation and rotation invariance; Bridson et al. 2003 §4.1).
// θ < 0 where a wing turns towards the other wing's n (x_3 towards n_1, x_2 towards n_2).
// A collapsed triangle (|n|² below 10⁻²⁰ ‖e‖⁴) has no normal: the gradient is zero and the
// deviation kept at 0 there (no force until the triangle opens again).
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// The Model's hinges (hinge_count).
struct HingeView {
  const int* particle;      // 4 per hinge: edge x0 x1, opposite corners x2 x3
  const Real* rest_angle;   // θ̄ [rad]
  int count;
};

// The signed dihedral angle of four points and its gradient; `valid` false where a face collapsed.
struct HingeAngle {
  Real theta = 0;
  Vec3 grad[4];
  bool valid = false;
};

SIM_HD inline void hinge_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3, HingeAngle& out) {
  const Vec3 e = x1 - x0;
  const Real l2 = e.squaredNorm();
  const Vec3 n1 = e.cross(x2 - x0), n2 = (x3 - x0).cross(e);
  const Real a1 = n1.squaredNorm(), a2 = n2.squaredNorm();
  for (int k = 0; k < 4; ++k) out.grad[k].setZero();
  out.theta = 0;
  out.valid = l2 > Real(0) && a1 > Real(1e-20) * l2 * l2 && a2 > Real(1e-20) * l2 * l2;
  if (!out.valid) return;
  const Real l = sqrt(l2);
  out.theta = atan2(n1.cross(n2).dot(e) / l, n1.dot(n2));
  const Vec3 g2 = (-l / a1) * n1, g3 = (-l / a2) * n2;
  const Real s2 = (x2 - x0).dot(e) / l2, s3 = (x3 - x0).dot(e) / l2;
  out.grad[0] = -(1 - s2) * g2 - (1 - s3) * g3;
  out.grad[1] = -s2 * g2 - s3 * g3;
  out.grad[2] = g2;
  out.grad[3] = g3;
}

// An angle wrapped into (−π, π].
SIM_HD inline Real wrap_angle(Real a) {
  const Real pi = Real(3.14159265358979323846);
  while (a > pi) a -= 2 * pi;
  while (a <= -pi) a += 2 * pi;
  return a;
}

SIM_HD inline void hinge_positions(const HingeView& hinges, const ConfigurationView& c, int i, Vec3 x[4]) {
  for (int k = 0; k < 4; ++k) x[k] = c.particle_position[hinges.particle[4 * i + k]];
}

// The deviation θ − θ̄ (wrapped) of hinge i at positions x, and θ's gradient in `a`.
SIM_HD inline Real hinge_deviation(const HingeView& hinges, const Vec3 x[4], int i, HingeAngle& a) {
  hinge_angle(x[0], x[1], x[2], x[3], a);
  return a.valid ? wrap_angle(a.theta - hinges.rest_angle[i]) : Real(0);
}

}  // namespace sim
