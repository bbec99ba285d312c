// A row's gradient against central differences: ∇C G·u (RowSet::gradient_dot) along random
// velocities u against (C(q ⊕ ε h u) − C(q ⊖ ε h u)) / (2 ε h) of an exact C(q) the test writes
// itself (q ⊕ h u: sim::integrate_positions, so bodies' rotations are covered too).
#pragma once

#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "solver/schur_system.hpp"  // VecX
#include "sim/state.hpp"

namespace test {

// `exact(const Real* q)` is the row's C at the coordinates q; `trials` random u from `seed`.
template <class Exact>
void check_row_gradient(const sim::Model& m, const sim::State& s, const sim::RowSet& rows, int r, Exact&& exact,
                        unsigned seed, int trials, sim::Real margin, sim::Real epsilon) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<sim::Real> d(-1, 1);
  for (int trial = 0; trial < trials; ++trial) {
    sim::VecX u(m.dof_count());
    for (int i = 0; i < u.size(); ++i) u[i] = d(rng);
    const sim::Real eps = 1e-6, h = m.dt;
    std::vector<sim::Real> plus(s.q.size()), minus(s.q.size());
    sim::VecX v = eps * u;
    sim::integrate_positions(m, s.q.data(), v.data(), h, plus.data());
    v = -eps * u;
    sim::integrate_positions(m, s.q.data(), v.data(), h, minus.data());
    const sim::Real fd = (exact(plus.data()) - exact(minus.data())) / (2 * eps * h);
    INFO("row " << r << ": gradient·u " << rows.gradient_dot(r, u.data()) << ", finite difference " << fd);
    CHECK(rows.gradient_dot(r, u.data()) == Approx(fd).margin(margin).epsilon(epsilon));
  }
}

}  // namespace test
