// Kernel: one contact's friction multipliers projected onto its cone at the current λ_n (the
// solver's optional projection after a Fischer–Burmeister step, solver/newton_solver.cpp
// project_friction_onto_cone): the disc |λ_f| <= μ max(λ_n, 0) by radial scaling, or, for an
// anisotropic contact, the Euclidean projection onto the ellipse with semi-axes μ_t λ_n, μ_b λ_n
// (constraint/friction_cone.hpp project_onto_ellipse, digest §4.3). Instantiated by
// sim/cuda/kernels.cu.
#pragma once

#include <cmath>

#include "constraint/friction_cone.hpp"
#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"

namespace sim {

// Contact c's friction rows first_friction + 2c, + 2c + 1 onto the cone of its normal row
// first_normal + c; mu_t along tangent1 (the isotropic μ), mu_b along tangent2.
SIM_HD inline void project_contact_friction(Real* row_lambda, int first_normal, int first_friction, int c, Real mu_t,
                                            Real mu_b, bool anisotropic) {
  const Real normal = row_lambda[first_normal + c];
  const Real lambda_n = Real(0) < normal ? normal : Real(0);  // std::max(0, λ_n)
  const Real radius = mu_t * lambda_n;
  Real& l1 = row_lambda[first_friction + 2 * c];
  Real& l2 = row_lambda[first_friction + 2 * c + 1];
  if (anisotropic) {  // Euclidean projection onto the ellipse
    const Vec2 l = project_onto_ellipse(Vec2(l1, l2), radius, mu_b * lambda_n);
    l1 = l.x();
    l2 = l.y();
    return;
  }
  const Real norm = std::sqrt(l1 * l1 + l2 * l2);
  if (norm > radius) {
    const Real scale = norm > 0 ? radius / norm : Real(0);
    l1 *= scale;
    l2 *= scale;
  }
}

}  // namespace sim
