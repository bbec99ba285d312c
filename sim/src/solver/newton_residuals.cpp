#include "solver/newton_residuals.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sim {

namespace {

bool velocity_level(RowKind k) { return k == RowKind::Drive || k == RowKind::Friction; }

}  // namespace

bool measure_iterate(const Model& m, const RowSet& rows, const InverseMass& im, const VecX& g,
                     NewtonIterationTrace& t, bool friction_natural_map) {
  bool finite = true;
  Real n2 = 0, f2 = 0, b2 = 0, row_energy = 0;
  for (int i = 0; i < rows.count; ++i) {
    const RowKind k = rows.row_kind[i];
    const Real e = rows.row_error[i], res = rows.row_residual[i];
    if (!std::isfinite(e) || !std::isfinite(res) || !std::isfinite(rows.row_lambda[i])) {
      finite = false;
      continue;
    }
    if (k == RowKind::Normal || k == RowKind::Limit) {
      t.normal_max = std::max(t.normal_max, e);
      n2 += e * e;
      const Real comp = std::abs(std::min(rows.row_value[i], rows.row_r[i] * rows.row_lambda[i]));
      t.complementarity_max = std::max(t.complementarity_max, comp);
    } else if (k == RowKind::Friction) {
      t.friction_max = std::max(t.friction_max, e);
      f2 += e * e;
    } else {
      t.bilateral_max = std::max(t.bilateral_max, e);
      b2 += e * e;
    }
    Real& worst = velocity_level(k) ? t.velocity_error_max : t.position_error_max;
    worst = std::max(worst, e);
    const Real kk = rows.row_inv_mass[i];
    // Both rows of a contact hold its e: each weighs in with e²/2.
    const Real h_i = friction_natural_map && k == RowKind::Friction ? e * Real(0.70710678118654752) : res;
    row_energy += h_i * h_i / (kk > Real(1e-12) ? kk : Real(1e-12));
  }
  t.normal_l2 = std::sqrt(n2);
  t.friction_l2 = std::sqrt(f2);
  t.bilateral_l2 = std::sqrt(b2);

  // ½ gᵀ M⁻¹ g and the velocity error |M⁻¹ g| per dof (bodies: linear and angular).
  Real g2 = 0, momentum_energy = 0, momentum_max = 0;
  for (int b = 0; b < m.body_count; ++b) {
    const Real* gb = g.data() + 6 * b;
    const Vec3 gl(gb[0], gb[1], gb[2]), ga(gb[3], gb[4], gb[5]);
    g2 += gl.squaredNorm() + ga.squaredNorm();
    if (!m.body_is_dynamic(b)) continue;
    const Vec3 dv = im.body_inv_mass[b] * gl;
    const Vec3 dw = im.body_inv_inertia[b] * ga;
    momentum_energy += gl.dot(dv) + ga.dot(dw);
    momentum_max = std::max({momentum_max, dv.cwiseAbs().maxCoeff(), dw.cwiseAbs().maxCoeff()});
  }
  for (int p = 0; p < m.particle_count; ++p) {
    const Real inv = m.particle_inv_mass[p];
    for (int k = 0; k < 3; ++k) {
      const Real gk = g[m.particle_dof(p) + k];
      g2 += gk * gk;
      momentum_energy += gk * gk * inv;
      momentum_max = std::max(momentum_max, std::abs(gk * inv));
    }
  }
  if (!std::isfinite(g2) || !std::isfinite(momentum_energy)) finite = false;
  t.momentum_l2 = std::sqrt(g2);
  t.momentum_max = momentum_max;
  t.merit = Real(0.5) * (momentum_energy + row_energy);
  if (!std::isfinite(t.merit)) finite = false;
  if (!finite) t.merit = std::numeric_limits<Real>::infinity();
  return finite;
}

bool newton_converged(const NewtonIterationTrace& t, Real tolerance, Real velocity_tolerance) {
  return t.position_error_max <= tolerance && t.complementarity_max <= tolerance &&
         t.velocity_error_max <= velocity_tolerance && t.momentum_max <= velocity_tolerance;
}

Real newton_tolerance_ratio(const NewtonIterationTrace& t, Real tolerance, Real velocity_tolerance) {
  auto ratio = [](Real residual, Real tol) {
    if (!(residual > 0)) return residual == 0 ? Real(0) : std::numeric_limits<Real>::infinity();  // NaN: far
    return tol > 0 ? residual / tol : std::numeric_limits<Real>::infinity();
  };
  return std::max({ratio(t.position_error_max, tolerance), ratio(t.complementarity_max, tolerance),
                   ratio(t.velocity_error_max, velocity_tolerance), ratio(t.momentum_max, velocity_tolerance)});
}

}  // namespace sim
