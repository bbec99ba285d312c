// Primal descent: the fourth solver behind the seam (solver/step_solver.hpp), after Macklin et al.
// 2020, "Primal/Dual Descent Methods for Dynamics", §2 and §5-6 (eqs. 1-13, 27-36) and Alg. 1, as
// corrected in ../shared/papers/notes/primal-dual-descent.md (§6 friction on the displacement,
// §7.3, §11.3-11.9).
//
// The unknown is the velocity u; every constraint is a penalty force, so the step minimises the
// variational implicit Euler objective (eq. 2) by preconditioned gradient descent (eq. 7):
//   q = q⁻ + h G(q⁻) u,   rows evaluated at q (values C, gradients J = ∇C G)
//   λ_i = −k_i C_i          bilateral rows: k = 1/e (their compliance; FEM and shells as compliant
//                           rows), or primal_stiffness for hard rows (joints, rigid distances)
//   λ_i = k_n max(0, −C_i)  contact normals and limits (eq. 28, p = 2), k_n = primal_contact_stiffness
//   λ_i = clamp(−(J u + b)/e, ±F)   drives (implicit PD at the velocity level, as the other solvers)
//   λ_f = −Λ Dᵀu            friction, relaxed Coulomb on the slip over the step (digest §6):
//                           Λ = k_f h in stick (k_f h |Dᵀu| < μ λ_n), μ λ_n / |Dᵀu| in slip
//                           (eqs. 32-33 with the scalar Λ of eq. 36; λ_n this iterate's, lagged)
//   d = M (u − ũ) − h Jᵀλ   (eq. 4, the objective's gradient; the Newton solver's g, eq. 57)
//   u ← u − α P d,  P = blockdiag(M_b + h² Σ k_i J_i,bᵀ J_i,b)⁻¹   (eqs. 12-13, 29, 34)
// with the velocity-level terms (drives, friction in slip) entering P with h rather than h²
// (digest §11.4) and the geometric stiffness and the slip projector dropped (§11.8). P is a 6 × 6
// block per body (its world inertia kept whole) and a 3 × 3 block per particle: with pairwise
// forces λ_max(P H) <= 2, so the paper's α = 0.5 has a margin of 2 (digest §8, §11.7).
//
// The multipliers of the trace are the penalty forces, measured as the Newton solver measures its
// own (solver/iterate_measure.hpp): a hard joint held by a penalty shows its stretch λ/k as its
// residual, a contact its penetration. The iterations stop within the tolerances, else at
// primal_iterations (kStepNotConverged).
#include <algorithm>
#include <chrono>
#include <cmath>

#include <Eigen/Dense>

#include "kernels/friction_projection_kernel.hpp"
#include "solver/iterate_measure.hpp"
#include "solver/newton_residuals.hpp"
#include "solver/newton_solver.hpp"
#include "solver/row_capacity.hpp"
#include "solver/schur_system.hpp"
#include "solver/solve_capture_record.hpp"
#include "solver/solve_outcome.hpp"
#include "solver/step_solver.hpp"

namespace sim::detail {

namespace {

using Clock = std::chrono::steady_clock;
using Mat6 = Eigen::Matrix<Real, 6, 6>;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

class PrimalDescentStepSolver final : public StepSolver {
 public:
  SolverKind kind() const override { return SolverKind::PrimalDescent; }
  const RowSet& rows() const override { return core_.rows; }
  TraceCapacity trace_capacity(const SolverOptions& o) const override { return {o.primal_iterations + 1, 0}; }

  void solve(const Model& m, const SolverOptions& o, Real h, State& state, const Control& control,
             const ContactBuffer& contacts, SolverTrace& trace, StepReport& report) override {
    const auto t0 = Clock::now();
    SolverScratch& s = core_;
    RowSet& rows = s.rows;
    prepare_step(m, o, h, state, control, contacts, s);
    SchurSystem sys(m, rows, s.inv_mass, Real(0), s.node_entry_first, s.node_entries, s.node_entry_rows);
    sys.build_adjacency();
    const int dofs = m.dof_count();
    for (VecX* v : {&s.g, &s.jt, &s.hinv, &s.dofs1}) v->setZero(dofs);
    curvature_.resize(static_cast<std::size_t>(m.body_count + m.particle_count));
    grow_rows(stiffness_, rows.count);
    s.u = s.u_tilde;  // u⁺ ← ũ (Alg. 1; digest §11.12)
    report.row_count = rows.count;
    SolveCapture* const sink = capture;
    const std::size_t trace_first = trace.iterations.size();
    if (sink) capture_solve_begin(*sink, m, rows, contacts.size());
    report.timings.assembly += ms_since(t0);

    const auto ts = Clock::now();
    int iterations = 0;
    bool converged = false;
    IterationTrace it;
    for (;;) {
      it = IterationTrace{};
      evaluate_rows_at_iterate(m, contacts, h, s);
      penalty_forces(o, contacts, h);
      const bool finite = measure_rows_and_momentum(m, contacts, h, sys, s, it);
      if (sink) capture_iterate(*sink, rows, s.u, it);
      if (judge_iterate(o, rows, finite, it, iterations, o.primal_iterations, "primal descent", cancel, converged,
                        report) != IterateVerdict::Continue) {
        trace.iterations.push_back(it);
        break;
      }
      descend(m, h, o.primal_step);
      it.step_size = o.primal_step;
      trace.iterations.push_back(it);
      ++iterations;
    }
    if (sink)
      for (std::size_t k = trace_first; k < trace.iterations.size() && k - trace_first < sink->iterates.size(); ++k)
        sink->iterates[k - trace_first].trace = trace.iterations[k];
    count_solve(o, iterations, converged, trace, report);
    report.timings.solve += ms_since(ts);
    if (!report.ok()) return;  // step() keeps the state at the step's start

    const auto ti = Clock::now();
    if (!accept_result(m, o, rows, it, trace, report)) {  // s.q and the rows: the last measurement
      report.timings.integrate += ms_since(ti);
      return;
    }
    commit_step(m, o, h, contacts, s, state);
    report.timings.integrate += ms_since(ti);
  }

 private:
  // Each row's penalty force at the evaluated iterate into row_lambda (see the top), and its
  // stiffness in P (with its h or h²) into stiffness_.
  void penalty_forces(const SolverOptions& o, const ContactBuffer& contacts, Real h) {
    RowSet& rows = core_.rows;
    const Real* u = core_.u.data();
    for (int i = 0; i < rows.first_friction; ++i) {
      const Real c = rows.row_value[i], e = rows.row_compliance[i];
      Real lambda = 0, stiffness = 0;
      switch (rows.row_kind[i]) {
        case RowKind::Bilateral: {
          const Real k = e > 0 ? 1 / e : o.primal_stiffness;
          lambda = -k * c;
          stiffness = h * h * k;
          break;
        }
        case RowKind::Drive: {
          const Real k = e > 0 ? 1 / e : o.primal_stiffness;  // [N s/m]: a damper at the velocity level
          lambda = -k * (rows.gradient_dot(i, u) + rows.row_bias[i]);
          const Real bound = rows.row_bound[i];
          const bool clamped = bound >= 0 && std::abs(lambda) > bound;
          if (clamped) lambda = lambda > 0 ? bound : -bound;
          stiffness = clamped ? Real(0) : h * k;
          break;
        }
        case RowKind::Limit:
        case RowKind::Normal: {
          const Real k = o.primal_contact_stiffness;
          lambda = c < 0 ? -k * c : Real(0);  // eq. 28 with p = 2 (digest §11.3: |min(0, C)|)
          stiffness = c < 0 ? h * h * k : Real(0);
          break;
        }
        case RowKind::Friction: break;
      }
      rows.row_lambda[i] = lambda;
      stiffness_[i] = stiffness;
    }
    for (int c = 0; c < contacts.size(); ++c) {
      const Contact& contact = contacts.contacts[c];
      const int f = rows.first_friction + 2 * c;
      const Real s1 = rows.gradient_dot(f, u), s2 = rows.gradient_dot(f + 1, u);
      const Real kf = o.primal_friction_stiffness * h;  // on the slip over the step: k_f h (digest §6)
      // Stick: λ_f = −k_f h Dᵀu; outside the cone (the disc or ellipse of this iterate's λ_n), the
      // force on its rim and Λ = |λ_f| / |Dᵀu| (eq. 36's scalar).
      Real packed[3] = {rows.row_lambda[rows.first_normal + c], -kf * s1, -kf * s2};
      project_contact_friction(packed, 0, 1, 0, contact.friction, contact.friction_bitangent, contact.anisotropic);
      const Real slip = std::sqrt(s1 * s1 + s2 * s2);
      const Real force = std::sqrt(packed[1] * packed[1] + packed[2] * packed[2]);
      const bool sticking = force >= kf * slip * (1 - Real(1e-12));
      const Real lambda_scale = sticking ? kf : (slip > 0 ? force / slip : Real(0));
      for (int k = 0; k < 2; ++k) {
        rows.row_lambda[f + k] = packed[1 + k];
        stiffness_[f + k] = h * lambda_scale;
      }
    }
  }

  // u ← u − α P d with d = g (the measurement's momentum residual) and P the inverse of each
  // node's block M_b + Σ_i stiffness_i J_i,bᵀ J_i,b.
  void descend(const Model& m, Real h, Real alpha) {
    SolverScratch& s = core_;
    const RowSet& rows = s.rows;
    for (int b = 0; b < m.body_count; ++b) {
      Mat6& k = curvature_[b];
      k.setZero();
      if (!m.body_is_dynamic(b)) continue;
      k.topLeftCorner<3, 3>() = Mat3::Identity() / m.body_inv_mass[b];
      k.bottomRightCorner<3, 3>() = s.body_inertia_world[b];
    }
    for (int p = 0; p < m.particle_count; ++p) {
      Mat6& k = curvature_[m.body_count + p];
      k.setZero();
      const Real im = m.particle_inv_mass[p];
      if (im > 0) k.topLeftCorner<3, 3>() = Mat3::Identity() / im;
    }
    for (int i = 0; i < rows.count; ++i) {
      const Real stiffness = stiffness_[i];
      if (!(stiffness > 0)) continue;
      for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e) {
        const Vec6& g = rows.entry_grad[e];
        curvature_[rows.entry_node[e]] += stiffness * (g * g.transpose());
      }
    }
    const int nodes = m.body_count + m.particle_count;
    for (int n = 0; n < nodes; ++n) {
      const bool body = n < m.body_count;
      const int dof = body ? 6 * n : m.particle_dof(n - m.body_count);
      if (body ? !m.body_is_dynamic(n) : !(m.particle_inv_mass[n - m.body_count] > 0)) continue;
      if (body) {
        const Vec6 d = s.g.segment<6>(dof);
        s.u.segment<6>(dof) -= alpha * curvature_[n].ldlt().solve(d);
      } else {
        const Vec3 d = s.g.segment<3>(dof);
        s.u.segment<3>(dof) -= alpha * curvature_[n].topLeftCorner<3, 3>().ldlt().solve(d);
      }
    }
  }

  SolverScratch core_;           // rows, M⁻¹, ũ, u and q of the shared set-up (solver/newton_solver.hpp)
  VecX stiffness_;               // each row's term in P⁻¹: h² k, h k or h Λ (row_capacity.hpp)
  std::vector<Mat6> curvature_;  // P⁻¹ per node: M_b + Σ stiffness JᵀJ (particles: the top-left 3 × 3)
};

}  // namespace

std::unique_ptr<StepSolver> make_primal_descent_step_solver() { return std::make_unique<PrimalDescentStepSolver>(); }

}  // namespace sim::detail
