// The textbook Krylov recurrences on an assembled matrix: the oracle the fused production
// solvers (solver/linear_solvers.cpp) and the device-solver seam are checked against.
#pragma once

#include <cmath>
#include <vector>

#include "support/captured_system.hpp"

namespace test {

// Textbook Jacobi-preconditioned CR and CG, `iterations` iterations from x = 0 (fewer once the
// residual is within tolerance · ‖b‖_P, checked before each, or once a curvature is no longer
// positive: converged to round-off or not positive definite, as the production solvers stop); the
// residual history in the norm each solver reports (‖r‖_P for PCR, sqrt(rᵀPr) for PCG: the same
// value), one entry per iteration run.
inline VecX reference_solve(sim::LinearSolver solver, const SpMat& A, const VecX& b, int iterations,
                            std::vector<sim::Real>& history, sim::Real tolerance = 0) {
  using sim::Real;
  const VecX P = A.diagonal().cwiseInverse();
  VecX x = VecX::Zero(b.size()), r = b, z = P.cwiseProduct(r), p = z;
  const Real stop = tolerance * std::sqrt(r.cwiseProduct(P).dot(r));
  auto done = [&] { return std::sqrt(r.cwiseProduct(P).dot(r)) <= stop; };
  if (solver == sim::LinearSolver::PCR) {
    VecX az = A * z, ap = az;
    Real rho = z.dot(az);
    for (int k = 0; k < iterations && !done(); ++k) {
      const Real denom = ap.cwiseProduct(P).dot(ap);
      if (!(rho > 0) || !(denom > 0)) break;  // converged to round-off (or A not positive definite)
      const Real alpha = rho / denom;
      x += alpha * p;
      r -= alpha * ap;
      z -= alpha * P.cwiseProduct(ap);
      az = A * z;
      const Real rho_new = z.dot(az);
      const Real beta = rho_new / rho;
      rho = rho_new;
      p = z + beta * p;
      ap = az + beta * ap;
      history.push_back(std::sqrt(r.cwiseProduct(P).dot(r)));
    }
  } else {
    Real rz = r.dot(z);
    for (int k = 0; k < iterations && !done(); ++k) {
      const VecX ap = A * p;
      if (!(rz > 0) || !(p.dot(ap) > 0)) break;  // as PCR
      const Real alpha = rz / p.dot(ap);
      x += alpha * p;
      r -= alpha * ap;
      z = P.cwiseProduct(r);
      const Real rz_new = r.dot(z);
      p = z + (rz_new / rz) * p;
      rz = rz_new;
      history.push_back(std::sqrt(rz));
    }
  }
  return x;
}

}  // namespace test
