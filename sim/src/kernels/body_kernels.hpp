// Per-body kernels of a step (rigid bodies, paper §5 and eqs. 46, 57, 63, 86-90): one function per
// loop body, over the plain views of kernels/views.hpp. The CPU calls them from parallel_for
// (solver/newton_solver.cpp, core/kinematics.cpp, core/energy.cpp); sim/cuda/kernels.cu
// instantiates each in a __global__ launcher.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/skew_matrix.hpp"
#include "kernels/views.hpp"
#include "sim/math.hpp"

namespace sim {

// Mass at q⁻ (eq. 90): world inertia R I Rᵀ and its inverse R I⁻¹ Rᵀ (zero for fixed bodies).
SIM_HD inline void body_world_inertia(const BodyView& bodies, const StateView& state, int b,
                                      const BodyInertiaView& out) {
  const Mat3 R = state.body_rotation(b).toRotationMatrix();
  out.inertia_world[b] = R * bodies.inertia[b].asDiagonal() * R.transpose();
  out.inv_inertia_world[b] = R * bodies.inv_inertia[b].asDiagonal() * R.transpose();
}

// J⁻¹ f for a 3×3 J by its rows' cross products (columns of J⁻¹: r1×r2, r2×r0, r0×r1 over
// det J = r0·(r1×r2)); writes det J. Plain arithmetic, the same on the host and the device.
SIM_HD inline Vec3 solve_3x3(const Mat3& J, const Vec3& f, Real* det) {
  const Vec3 r0 = J.row(0).transpose(), r1 = J.row(1).transpose(), r2 = J.row(2).transpose();
  const Vec3 c0 = r1.cross(r2), c1 = r2.cross(r0), c2 = r0.cross(r1);
  *det = r0.dot(c0);
  return (c0 * f.x() + c1 * f.y() + c2 * f.z()) / *det;
}

// The implicit gyroscopic step's limits: Newton iterations per substep, the relative size of the
// last Newton update that counts as converged, and the most halvings of the step (2⁶ = 64
// substeps) before the term is dropped.
inline constexpr int kGyroscopicNewtonIterations = 6;
inline constexpr Real kGyroscopicTolerance = Real(1e-12);
inline constexpr int kMaxGyroscopicHalvings = 6;

// One midpoint substep of length hs from w0 (see implicit_gyroscopic_step); false where an iteration's J
// has det J < det I / 2 or the iterations do not converge.
SIM_HD inline bool gyroscopic_midpoint_substep(const Vec3& w0, const Mat3& inertia_world, Real det_inertia, Real hs,
                                               Vec3* out) {
  Vec3 x = w0;
  for (int it = 0; it < kGyroscopicNewtonIterations; ++it) {
    const Vec3 mid = Real(0.5) * (w0 + x);
    const Vec3 Imid = inertia_world * mid;
    const Vec3 residual = inertia_world * (x - w0) + hs * mid.cross(Imid);
    const Mat3 J = inertia_world + Real(0.5) * hs * (skew_matrix(mid) * inertia_world - skew_matrix(Imid));
    Real det = 0;
    const Vec3 d = solve_3x3(J, residual, &det);
    if (!(det >= Real(0.5) * det_inertia)) return false;
    x -= d;
    if (d.norm() <= kGyroscopicTolerance * x.norm()) {
      *out = x;
      return true;
    }
  }
  return false;
}

// The gyroscopic step of ω over h, torque-free (Euler's equations I ω̇ = −ω × I ω at the world
// inertia I of q⁻), the f_gyro of eq. 46, by the implicit midpoint rule
// I (ω⁺ − ω) + h ω̄ × I ω̄ = 0, ω̄ = (ω + ω⁺)/2, solved by Newton from ω⁺ = ω with
// J = I + (h/2) ([ω̄]× I − [I ω̄]×). It keeps the kinetic energy ½ωᵀIω and |I ω| of the
// torque-free motion to round-off (both are quadratic invariants, which the midpoint rule
// conserves). The paper's explicit term, ω − h I⁻¹ (ω × I ω), feeds energy into a body spinning
// off its principal axes, and |ω| grows without bound once h|ω| is not small (humanoid100.xml's
// ellipsoid reached 10⁴ rad/s in flight and every later step was refused); backward Euler
// (Catto, GDC 2015) lost 84% of a tumbling box's energy in 10 s at h = 5 ms. Newton needs J near
// I, i.e. h|ω| small against the inertia's spread (det J changes sign for large h|ω|): where an
// iteration has det J < det I / 2 or the iterations do not converge, the step is split into 2ᵏ
// equal substeps; past 64 substeps the term is dropped for the step (ω kept, energy at I
// unchanged). ω = 0 gives exactly 0 (tests/unit/test_gyroscopic.cpp).
SIM_HD inline Vec3 implicit_gyroscopic_step(const Vec3& w, const Mat3& inertia_world, Real h) {
  Real det_inertia = 0;
  solve_3x3(inertia_world, Vec3::Zero(), &det_inertia);
  for (int halvings = 0; halvings <= kMaxGyroscopicHalvings; ++halvings) {
    const int substeps = 1 << halvings;
    const Real hs = h / Real(substeps);
    Vec3 x = w;
    bool converged = true;
    for (int k = 0; k < substeps && converged; ++k)
      converged = gyroscopic_midpoint_substep(x, inertia_world, det_inertia, hs, &x);
    if (converged) return x;
  }
  return w;
}

// The unconstrained velocity ũ = u⁻ + h M⁻¹ (f_ext + f_gyro) (eq. 46) with gravity, the applied
// wrench and the gyroscopic term: implicit_gyroscopic_step, or where LoadView says explicit the
// paper's −ω × I_w ω in the torque; 0 for fixed bodies. Reads the world inertia of
// body_world_inertia; writes the body's 6 entries of u_tilde.
SIM_HD inline void predict_body_velocity(const BodyView& bodies, const StateView& state, const LoadView& loads,
                                         const Mat3* inertia_world, const Mat3* inv_inertia_world, Real h, int b,
                                         Real* u_tilde) {
  Real* ut = u_tilde + body_dof_offset(b);
  if (!bodies.is_dynamic(b)) {
    for (int k = 0; k < 6; ++k) ut[k] = 0;
    return;
  }
  const Vec3 v = state.body_velocity(b), w = state.body_angular_velocity(b);
  Vec3 force = loads.gravity / bodies.inv_mass[b];
  Vec3 torque = loads.implicit_gyroscopic ? Vec3::Zero().eval() : (-w.cross(inertia_world[b] * w)).eval();
  if (loads.body_wrench) {
    force += loads.body_wrench[b].head<3>();
    torque += loads.body_wrench[b].tail<3>();
  }
  const Vec3 vt = v + h * bodies.inv_mass[b] * force;
  const Vec3 w_free = loads.implicit_gyroscopic ? implicit_gyroscopic_step(w, inertia_world[b], h) : w;
  const Vec3 wt = w_free + h * (inv_inertia_world[b] * torque);
  for (int k = 0; k < 3; ++k) {
    ut[k] = vt[k];
    ut[3 + k] = wt[k];
  }
}

// Configuration update q = q⁻ + h G(q⁻) u (eq. 63), G = blockdiag(I, ½ Q(θ)) (eq. 88): the
// position moves by h v, the quaternion by θ̇ = ½ [0, ω] ⊗ θ (ω world, scalar first, eqs. 88-89)
// and is renormalised (§9.4). `start` holds q⁻ and the iterate u; writes the body's 7 entries of q.
SIM_HD inline void integrate_body(const StateView& start, Real h, int b, Real* q_out) {
  const Real* c0 = start.q + body_coord_offset(b);
  const Real* v = start.u + body_dof_offset(b);
  Real* c = q_out + body_coord_offset(b);
  for (int k = 0; k < 3; ++k) c[k] = c0[k] + h * v[k];
  const Quat th(c0[3], c0[4], c0[5], c0[6]);
  const Quat w(Real(0), v[3], v[4], v[5]);
  Quat dq = w * th;
  Quat next(th.w() + Real(0.5) * h * dq.w(), th.x() + Real(0.5) * h * dq.x(), th.y() + Real(0.5) * h * dq.y(),
            th.z() + Real(0.5) * h * dq.z());
  next.normalize();
  c[3] = next.w();
  c[4] = next.x();
  c[5] = next.y();
  c[6] = next.z();
}

// The com frame's pose at q (what the constraint rows read: core/kinematics.hpp Configuration).
SIM_HD inline Pose body_pose(const StateView& state, int b) {
  return Pose{state.body_position(b), state.body_rotation(b)};
}

// The body's frame for collision detection at the step's start (collision/collide.cpp): the pose
// with its quaternion renormalised, and Rᵀ (world to com frame) for the narrowphase.
SIM_HD inline void body_collision_frame(const StateView& state, int b, Pose* pose, Mat3* rotation_t) {
  Pose p = body_pose(state, b);
  p.rot.normalize();
  pose[b] = p;
  rotation_t[b] = p.rot.toRotationMatrix().transpose();
}

// The momentum residual's arrays (eq. 57): g = M (u − ũ) − h f with f the constraint impulses / h.
struct MomentumView {
  const Real* u;              // iterate (dof_count)
  const Real* u_tilde;        // unconstrained velocity (dof_count)
  const Real* force;          // Jᵀλ (dof_count)
  const Mat3* inertia_world;  // at q⁻ (body_count)
  Real* g;                    // out (dof_count)
};

// g = M (u − ũ) − h f on a dynamic body's 6 dofs (M = diag(m I, I_w)), 0 on a fixed one.
SIM_HD inline void body_momentum_residual(const BodyView& bodies, const MomentumView& mv, Real h, int b) {
  Real* gb = mv.g + body_dof_offset(b);
  if (!bodies.is_dynamic(b)) {
    for (int k = 0; k < 6; ++k) gb[k] = 0;
    return;
  }
  const Real mass = Real(1) / bodies.inv_mass[b];
  const Real* u = mv.u + body_dof_offset(b);
  const Real* ut = mv.u_tilde + body_dof_offset(b);
  const Real* fb = mv.force + body_dof_offset(b);
  const Vec3 dw(u[3] - ut[3], u[4] - ut[4], u[5] - ut[5]);
  const Vec3 iw = mv.inertia_world[b] * dw;
  for (int k = 0; k < 3; ++k) {
    gb[k] = mass * (u[k] - ut[k]) - h * fb[k];
    gb[3 + k] = iw[k] - h * fb[3 + k];
  }
}

// Mechanical energy of one entity [J]: kinetic and gravitational potential (zero at the origin).
struct Energy {
  Real kinetic = 0;
  Real potential = 0;
};

// ½ m |v|² + ½ ωᵀ I_w ω (evaluated in the principal frame: ω_b = Rᵀ ω, ½ Σ I_k ω_b,k²) and
// −m g·x; zero for fixed bodies (infinite mass, never moving).
SIM_HD inline Energy body_energy(const BodyView& bodies, const StateView& state, const Vec3& gravity, int b) {
  Energy e;
  if (!bodies.is_dynamic(b)) return e;
  const Real mass = Real(1) / bodies.inv_mass[b];
  const Vec3 v = state.body_velocity(b);
  const Vec3 w_body = state.body_rotation(b).conjugate() * state.body_angular_velocity(b);
  e.kinetic = Real(0.5) * (mass * v.squaredNorm() + w_body.dot(bodies.inertia[b].cwiseProduct(w_body)));
  e.potential = -mass * gravity.dot(state.body_position(b));
  return e;
}

}  // namespace sim
