// The matchstick model for anisotropic friction (thesis ch. 3, L445-466; digest
// ../shared/papers/notes/friction-and-sdf-collision.md §2-4): the per-contact elliptic cone
//   ψ(λ_f) = λ_n² − λ_t²/μ_t² − λ_b²/μ_b² >= 0,   C = diag(1/μ_t², 1/μ_b²)   (eqs. 28-30, 35)
// built from the structure directions of both surfaces, and its generalisation of the NSN friction
// rows (the W fixed point and the projections of ncp.hpp) from the disc to the ellipse.
//
// Kernel style: plain functions over scalars and Vec3, no allocation, kernel-safe headers only
// (sim/cuda/kernels.cu instantiates them; the min/max below are written out as std::min/max
// evaluate them, so results are those of the <algorithm> versions to the bit).
#pragma once

#include <cmath>
#include <limits>

#include "sim/math.hpp"
#include "solver/ncp.hpp"

namespace sim {

// The friction coefficients of one surface pair: μ along the major axis and the minor axis when
// the structure directions are fully aligned (the thesis's μ_a and the second "μ_b" of eq. 34,
// digest §2.3 [!]), and the isotropic μ used where they are not. μ_major >= μ_minor by convention
// (not required: the cone is an ellipse either way).
struct FrictionCoefficients {
  Real mu = 0;
  Real mu_major = 0;
  Real mu_minor = 0;
};

// Combining two surfaces (digest §2.3 [R], the thesis is silent): every coefficient is the geometric
// mean of the two surfaces' values, as μ always was; a surface whose material is isotropic
// contributes its μ to all three. Two equal materials therefore give the material's own values.
SIM_HD inline FrictionCoefficients combine_friction(const FrictionCoefficients& a, const FrictionCoefficients& b) {
  return FrictionCoefficients{std::sqrt(a.mu * b.mu), std::sqrt(a.mu_major * b.mu_major),
                              std::sqrt(a.mu_minor * b.mu_minor)};
}

// Alignment of two unit structure directions (eq. 32): d = 1 − (2/π) θ, θ = acos|s_a·s_b| the angle
// between the axes. Directions are axial, so antiparallel grains are aligned (d = 1). θ is taken
// as atan2(|s_a × s_b|, |s_a·s_b|): acos is ill-conditioned at 1 (acos(1 − ε) ≈ √(2ε), so a
// rounding of the dot product moved d of parallel grains by 1e-8, and a fused multiply-add on the
// device moved it differently from the CPU), atan2 is accurate to round-off for every angle.
SIM_HD inline Real grain_alignment(const Vec3& s_a, const Vec3& s_b) {
  const Real theta = std::atan2(s_a.cross(s_b).norm(), std::abs(s_a.dot(s_b)));
  return Real(1) - Real(2) / Real(3.14159265358979323846) * theta;  // π as std::numbers::pi_v
}

// One contact's cone: the friction basis (t, b) with t the axis of greatest resistance, the
// coefficients along them and the alignment d.
struct FrictionCone {
  Vec3 tangent = Vec3::UnitX();
  Vec3 bitangent = Vec3::UnitY();
  Real mu_t = 0;
  Real mu_b = 0;
  Real alignment = 0;  // d; 0 where the cone is isotropic for want of directions
  bool elliptic = false;  // false: no usable direction, the caller keeps its isotropic basis
};

// Directions shorter than this (after projection into the contact plane) count as absent: a grain
// (nearly) parallel to the normal has no tangential component (digest §2.3, edge cases).
inline constexpr Real kMinGrainLength = Real(1e-6);
// An axis coefficient below this fraction of the other is raised to it: C = diag(1/μ_t², 1/μ_b²)
// needs μ > 0 on both axes (digest §2.3, edge cases); 1e-4 leaves a practically frictionless axis.
inline constexpr Real kMinAxisRatio = Real(1e-4);

// The matchstick cone (eqs. 32-35) for unit normal n and the world structure directions of the two
// surfaces (zero vector: that surface has no field). Rules where the thesis is silent [R]:
//  - one surface without a direction: the other's grain alone, d = 1 (the single-surface ellipse
//    of eq. 28): a plain box on a painted plane feels the plane's full ellipse;
//  - neither: isotropic (elliptic = false, μ_t = μ_b = μ);
//  - s_b is flipped to s_a's side before t = (s_a + s_b)/|s_a + s_b| (the printed formula divides
//    by zero for antiparallel grains, the fully aligned case; digest §2.3 [!]).
SIM_HD inline FrictionCone matchstick_cone(const Vec3& n, Vec3 s_a, Vec3 s_b, const FrictionCoefficients& k) {
  FrictionCone cone;
  cone.mu_t = cone.mu_b = k.mu;
  s_a -= s_a.dot(n) * n;
  s_b -= s_b.dot(n) * n;
  const Real la = s_a.norm(), lb = s_b.norm();
  const bool has_a = la > kMinGrainLength, has_b = lb > kMinGrainLength;
  if (!has_a && !has_b) return cone;
  if (has_a) s_a /= la;
  if (has_b) s_b /= lb;
  if (!has_a) s_a = s_b;
  if (!has_b) s_b = s_a;
  if (s_a.dot(s_b) < 0) s_b = -s_b;
  const Real d = grain_alignment(s_a, s_b);
  const Vec3 sum = s_a + s_b;  // |sum| >= sqrt(2) after the flip
  cone.tangent = sum / sum.norm();
  cone.bitangent = n.cross(cone.tangent);
  cone.mu_t = d * k.mu_major + (Real(1) - d) * k.mu;  // eq. 34
  cone.mu_b = d * k.mu_minor + (Real(1) - d) * k.mu;
  const Real floor = kMinAxisRatio * (cone.mu_t < cone.mu_b ? cone.mu_b : cone.mu_t);  // std::max
  if (cone.mu_t < floor) cone.mu_t = floor;
  if (cone.mu_b < floor) cone.mu_b = floor;
  cone.alignment = d;
  cone.elliptic = true;
  return cone;
}

// Closed-form sliding force on the ellipse (digest §2.3 [D], maximal dissipation): for slip v in
// the (t, b) frame and M_μ = diag(μ_t, μ_b),  λ_f = −λ_n M_μ² v / |M_μ v|. Zero slip: zero.
SIM_HD inline Vec2 elliptic_sliding_force(const Vec2& v, Real mu_t, Real mu_b, Real lambda_n) {
  const Real mt = mu_t * v.x(), mb = mu_b * v.y();
  const Real speed = std::sqrt(mt * mt + mb * mb);
  if (!(speed > 0)) return Vec2::Zero();
  return Vec2(-lambda_n * mu_t * mt / speed, -lambda_n * mu_b * mb / speed);
}

// Euclidean projection of z onto the ellipse {x : x₁²/a₁² + x₂²/a₂² <= 1} (digest §4.3): outside,
// x_i = a_i² z_i / (a_i² + τ) with τ >= 0 the root of f(τ) = Σ (a_i z_i/(a_i² + τ))² − 1. f is
// convex and decreasing for τ > −min a_i², so Newton from τ = 0 (f > 0) rises monotonically to
// the root. Not radial scaling: that would break maximal dissipation (digest §4.3). a_i = 0: the
// ellipse degenerates to a segment or the origin, handled by the same formula with 0/0 := 0.
SIM_HD inline Vec2 project_onto_ellipse(const Vec2& z, Real a1, Real a2) {
  const Real q1 = a1 > 0 ? z.x() / a1 : (z.x() != 0 ? Real(INFINITY) : Real(0));
  const Real q2 = a2 > 0 ? z.y() / a2 : (z.y() != 0 ? Real(INFINITY) : Real(0));
  if (q1 * q1 + q2 * q2 <= Real(1)) return z;
  if (!(a1 > 0) && !(a2 > 0)) return Vec2::Zero();
  const Real s1 = a1 * a1, s2 = a2 * a2;
  const Real p1 = a1 * z.x(), p2 = a2 * z.y();
  // Start at the lower bound τ >= a_i|z_i| − a_i² (each term alone is <= 1 at the root), still
  // left of the root: a few Newton steps instead of dozens for points far outside.
  Real tau = Real(0);  // std::max({0, |p1| − s1, |p2| − s2})
  if (tau < std::abs(p1) - s1) tau = std::abs(p1) - s1;
  if (tau < std::abs(p2) - s2) tau = std::abs(p2) - s2;
  for (int it = 0; it < 64; ++it) {
    const Real d1 = s1 + tau, d2 = s2 + tau;
    const Real r1 = d1 > 0 ? p1 / d1 : Real(0), r2 = d2 > 0 ? p2 / d2 : Real(0);
    const Real f = r1 * r1 + r2 * r2 - Real(1);
    const Real df = -Real(2) * ((d1 > 0 ? r1 * r1 / d1 : Real(0)) + (d2 > 0 ? r2 * r2 / d2 : Real(0)));
    if (!(df < 0) || !(f > std::numeric_limits<Real>::epsilon())) break;
    const Real step = -f / df;
    tau += step;
    if (!(std::abs(step) > std::numeric_limits<Real>::epsilon() * (tau + s1 + s2))) break;
  }
  const Real d1 = s1 + tau, d2 = s2 + tau;
  return Vec2(d1 > 0 ? s1 * z.x() / d1 : Real(0), d2 > 0 ? s2 * z.y() / d2 : Real(0));
}

// The NSN friction rows of an elliptic cone (generalising eqs. 99-105). Substituting λ_f = M_μ λ̂
// and ŝ = M_μ Dᵀu maps the ellipse onto the unit-coefficient disc |λ̂| <= λ_n with unchanged power
// ŝ·λ̂ = Dᵀu·λ_f, where the isotropic fixed point gives φ̂ = ŝ + ŵ λ̂ (ŵ from ncp.hpp at radius λ_n,
// preconditioner r̂ = r μ_t μ_b). Back in the rows, M_μ⁻¹ φ̂ = Dᵀu + ŵ C λ_f: W = ŵ C (eq. 74 of the
// digest, W = 2λ_s C, positive semidefinite and diagonal, so the system stays symmetric). With
// μ_t = μ_b = μ this is the isotropic W algebraically (not to the bit: callers keep the isotropic
// code for equal coefficients).
struct EllipticFrictionW {
  Real w_t = 0, w_b = 0;
};
SIM_HD inline EllipticFrictionW elliptic_friction_w(bool fischer_burmeister, Real s_t, Real s_b, Real l_t, Real l_b,
                                                    Real mu_t, Real mu_b, Real lambda_n, Real r) {
  const Real hs_t = mu_t * s_t, hs_b = mu_b * s_b;
  const Real hl_t = l_t / mu_t, hl_b = l_b / mu_b;
  const Real v = std::sqrt(hs_t * hs_t + hs_b * hs_b);
  const Real lf = std::sqrt(hl_t * hl_t + hl_b * hl_b);
  const Real r_hat = r * mu_t * mu_b;
  const Real w_hat = fischer_burmeister ? friction_w_fischer_burmeister(v, lambda_n, lf, r_hat)
                                        : friction_w_min_map(v, lambda_n, lf, r_hat);
  return EllipticFrictionW{w_hat / (mu_t * mu_t), w_hat / (mu_b * mu_b)};
}

// Natural-map residual of maximal dissipation on the ellipse [m/s] (as friction_error in ncp.hpp):
//   e = r |λ_f − proj_E(λ_f − Dᵀu / r)|,  E = {λ_t²/μ_t² + λ_b²/μ_b² <= λ_n²},
// zero iff λ_f ∈ E with Dᵀu in the normal cone of E at λ_f (stick inside, slip opposed on the
// boundary). λ_n <= 0 gives E = {0}.
SIM_HD inline Real elliptic_friction_error(Real s_t, Real s_b, Real l_t, Real l_b, Real mu_t, Real mu_b,
                                           Real lambda_n, Real r) {
  const Real ln = lambda_n > 0 ? lambda_n : Real(0);
  const Vec2 lambda(l_t, l_b);
  const Vec2 z = project_onto_ellipse(lambda - Vec2(s_t, s_b) / r, mu_t * ln, mu_b * ln);
  return r * (lambda - z).norm();
}

}  // namespace sim
