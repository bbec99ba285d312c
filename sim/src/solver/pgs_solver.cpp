// Projected Gauss–Seidel: the second solver behind the seam (solver/step_solver.hpp), a
// velocity-level fixed-point iteration over the same rows as the Newton solver.
//
// The rows are assembled once at q⁻ exactly as the Newton solver's (prepare_step: structure,
// values C⁻, gradients J = ∇C G, compliance, drive bias, depenetration allowance, warm start) and
// linearised there. With impulses x = hλ [N s] and u = ũ + H⁻¹ Jᵀ x (eq. 46 with the constraint
// impulses), each row's velocity-level residual is
//   φ_i = J_i u + β_i + c_i x_i                                    [m/s]
//   bilateral   eq. 8 with c(q) ≈ c⁻ + h J u:   β = c⁻/h,           c = e/h²,  x ∈ ℝ
//   drive       implicit PD (as the Newton row): β = b,              c = e/h,   |x| <= h F
//   limit,      eq. 9 with C(q) ≈ C⁻ + h J u:   β = (C⁻ + bias)/h,  c = 0,     0 <= x ⊥ φ >= 0
//   normal      (Signorini at the step's end position: the full gap, no Baumgarte factor)
//   friction    maximal dissipation:            β = 0,              c = 0,     (x₁, x₂) ∈ μ x_n cone
// the same C blocks as the Newton system (E/h², e/h; eq. 55). A sweep visits the rows in layout
// order [bilateral | drive | limit | normal | friction], so friction sees this sweep's normal
// impulses, and moves each by
//   x_i ← P_i(x_i − ω φ_i / A_ii),   A_ii = J_i H⁻¹ J_iᵀ + c_i + ε   (SchurSystem::diagonal)
// updating u by H⁻¹ J_iᵀ Δx_i (SchurSystem::add_inv_h_jt_row). A contact's two friction rows move
// together with one diagonal A_f = max(A_f1, A_f2) and are projected onto the disc of radius μ x_n
// (radially) or, for an anisotropic contact, onto its ellipse (friction_cone.hpp, Euclidean): a
// scalar step keeps the fixed point the maximal-dissipation solution.
//
// Residual of a row (or friction pair): the natural map A |x − P(x − φ/A)| [m/s], zero exactly at
// a solution; for friction the Newton solver's friction error with r = hA. Position rows
// (bilateral, limit, normal) are reported times h, in metres, as the Newton trace. Each sweep's
// trace entry holds the residuals met before each row's update; the last entry measures the
// result without updating. The sweeps stop when position rows are within newton_tolerance and
// velocity rows within newton_velocity_tolerance, else at pgs_iterations (kStepNotConverged).
// Then q = q⁻ + h G(q⁻) u (eq. 63), the rows are evaluated at q and the blow-up detector checks the
// joints' |c(q) + eλ| there (solver/joint_error_check.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "constraint/friction_cone.hpp"
#include "core/kinematics.hpp"
#include "solver/newton_solver.hpp"
#include "solver/row_capacity.hpp"
#include "solver/schur_system.hpp"
#include "solver/solve_outcome.hpp"
#include "solver/step_solver.hpp"

namespace sim::detail {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

bool is_position_row(RowKind k) { return k != RowKind::Drive && k != RowKind::Friction; }

// The linearised rows' system rows are the constraint gradients themselves (no NCP scaling) and
// their C block the compliance (the only place this solver writes the rows' storage).
void use_gradients_as_system_rows(Real h, RowSet& rows) {
  std::copy(rows.entry_grad.begin(), rows.entry_grad.begin() + rows.entry_count, rows.entry_jac.begin());
  for (int i = 0; i < rows.count; ++i) {
    const RowKind k = rows.row_kind[i];
    rows.row_diag_c[i] = k == RowKind::Bilateral ? rows.row_compliance[i] / (h * h)
                         : k == RowKind::Drive   ? rows.row_compliance[i] / h
                                                 : Real(0);
  }
}

// β_i of the table above, from the rows evaluated at q⁻.
Real velocity_bias(const RowSet& rows, int i, Real h) {
  switch (rows.row_kind[i]) {
    case RowKind::Bilateral: return rows.row_value[i] / h;
    case RowKind::Drive: return rows.row_bias[i];
    case RowKind::Limit:
    case RowKind::Normal: return (rows.row_value[i] + rows.row_bias[i]) / h;
    case RowKind::Friction: return 0;
  }
  return 0;
}

// P_i for a single row (friction pairs: project_friction).
Real project_row(const RowSet& rows, int i, Real x, Real h) {
  switch (rows.row_kind[i]) {
    case RowKind::Drive: {
      const Real bound = rows.row_bound[i] * h;
      return rows.row_bound[i] < 0 ? x : std::clamp(x, -bound, bound);
    }
    case RowKind::Limit:
    case RowKind::Normal: return std::max(Real(0), x);
    case RowKind::Bilateral:
    case RowKind::Friction: return x;
  }
  return x;
}

Vec2 project_friction(const Contact& contact, Real normal_impulse, const Vec2& y) {
  const Real xn = std::max(Real(0), normal_impulse);
  if (contact.anisotropic) return project_onto_ellipse(y, contact.friction * xn, contact.friction_bitangent * xn);
  const Real radius = contact.friction * xn, norm = y.norm();
  if (norm <= radius) return y;
  return norm > 0 ? Vec2(y * (radius / norm)) : Vec2::Zero();
}

// Maxima and sums of the rows' residuals over one sweep, into an IterationTrace.
struct ResidualTally {
  Real n2 = 0, f2 = 0, b2 = 0, energy = 0;
  bool finite = true;

  // `residual`: the natural map [m/s] of a row (or a friction pair, counted once) of kind k.
  void add(RowKind k, Real residual, Real diagonal, Real h, IterationTrace& t) {
    if (!std::isfinite(residual)) {
      finite = false;
      return;
    }
    const Real e = is_position_row(k) ? residual * h : residual;  // rows' units: m (or rad), m/s
    switch (k) {
      case RowKind::Normal:
      case RowKind::Limit:
        t.normal_max = std::max(t.normal_max, e);
        t.complementarity_max = std::max(t.complementarity_max, e);  // the natural map is a min-map
        n2 += e * e;
        break;
      case RowKind::Friction:
        t.friction_max = std::max(t.friction_max, e);
        f2 += e * e;
        break;
      case RowKind::Bilateral:
      case RowKind::Drive:
        t.bilateral_max = std::max(t.bilateral_max, e);
        b2 += e * e;
        break;
    }
    Real& worst = is_position_row(k) ? t.position_error_max : t.velocity_error_max;
    worst = std::max(worst, e);
    energy += residual * residual / diagonal;  // ½ Σ φ²/A: kinetic energy of the errors (×2)
  }
  void finish(IterationTrace& t) const {
    t.normal_l2 = std::sqrt(n2);
    t.friction_l2 = std::sqrt(f2);
    t.bilateral_l2 = std::sqrt(b2);
    t.merit += Real(0.5) * energy;
  }
};

class PgsStepSolver final : public StepSolver {
 public:
  SolverKind kind() const override { return SolverKind::ProjectedGaussSeidel; }
  const RowSet& rows() const override { return core_.rows; }
  TraceCapacity trace_capacity(const SolverOptions& o) const override { return {o.pgs_iterations + 1, 0}; }

  void solve(const Model& m, const SolverOptions& o, Real h, State& state, const Control& control,
             const ContactBuffer& contacts, SolverTrace& trace, StepReport& report) override {
    const auto t0 = Clock::now();
    SolverScratch& s = core_;
    RowSet& rows = s.rows;
    prepare_step(m, o, h, state, control, contacts, s);
    use_gradients_as_system_rows(h, rows);
    SchurSystem sys(m, rows, s.inv_mass, o.regularization, s.node_entry_first, s.node_entries, s.node_entry_rows);
    sys.build_adjacency();
    const int dofs = m.dof_count();
    s.jt.resize(dofs);
    s.hinv.resize(dofs);
    for (VecX* v : {&diagonal_, &impulse_, &bias_}) grow_rows(*v, rows.count);
    sys.diagonal(diagonal_);
    for (int i = 0; i < rows.count; ++i) {
      impulse_[i] = h * rows.row_lambda[i];  // λ⁰ (warm start or zero)
      bias_[i] = velocity_bias(rows, i, h);
      rows.row_active[i] = -1;
      rows.row_error[i] = 0;
    }
    // u⁰ = ũ + H⁻¹ Jᵀ x⁰: the velocity the starting impulses give (not the state's u).
    sys.jt(impulse_, s.jt);
    sys.inv_h(s.jt, s.u);
    s.u += s.u_tilde;
    report.row_count = rows.count;
    report.timings.assembly += ms_since(t0);

    // Sweeps until the residuals they meet are within the tolerances (0: all pgs_iterations),
    // then a pass that only measures the result: within the tolerances, or at the cap, it ends the
    // solve; else the sweeps go on.
    const auto ts = Clock::now();
    int sweeps = 0;
    bool converged = false, measuring = false;
    IterationTrace it;
    for (;;) {
      if (cancel && cancel->load(std::memory_order_relaxed)) {  // Workspace::cancel, between sweeps
        report.flags |= kStepCancelled;
        report.message = "cancelled after projected Gauss-Seidel sweep " + std::to_string(sweeps);
        break;
      }
      it = IterationTrace{};
      const bool finite = sweep(sys, contacts, h, o.pgs_relaxation, /*update=*/!measuring, s.u, it);
      if (measuring && finite) measure_momentum(m, sys, s, it);
      if (!finite || !std::isfinite(it.merit) ||
          std::max({it.normal_max, it.friction_max, it.bilateral_max}) > o.divergence_limit) {
        const bool non_finite = !finite || !std::isfinite(it.merit);
        report.flags |= non_finite ? kStepNonFinite : kStepResidualExploded;
        report.message = non_finite ? "non-finite values in the projected Gauss-Seidel iteration"
                                    : "projected Gauss-Seidel residual exploded above divergence_limit";
        flag_rows(o, report);
        trace.iterations.push_back(it);
        break;
      }
      const bool within = o.newton_tolerance > 0 && it.position_error_max <= o.newton_tolerance &&
                          it.velocity_error_max <= o.newton_velocity_tolerance;
      if (measuring) {
        converged = within && it.momentum_max <= o.newton_velocity_tolerance;
        if (converged || sweeps >= o.pgs_iterations) {
          trace.iterations.push_back(it);
          break;
        }
        // The sweep met the tolerances before its own updates but the result does not (the later
        // rows' updates moved the earlier rows): sweep on. The measurement is not a trace entry.
        measuring = false;
        continue;
      }
      trace.iterations.push_back(it);
      ++sweeps;
      measuring = within || sweeps >= o.pgs_iterations;
    }
    for (int i = 0; i < rows.count; ++i) rows.row_lambda[i] = impulse_[i] / h;
    count_solve(o, sweeps, converged, trace, report);
    report.timings.solve += ms_since(ts);
    if (!report.ok()) return;  // step() keeps the state at the step's start

    const auto ti = Clock::now();
    integrate_positions(m, s.q0.data(), s.u.data(), h, s.q.data());  // q = q⁻ + h G(q⁻) u (eq. 63)
    evaluate_rows_at_result(m, contacts, s);
    for (int i = 0; i < rows.first_drive; ++i)  // joints and distances: |c(q) + eλ| (eq. 8)
      rows.row_error[i] = std::abs(rows.row_value[i] + rows.row_compliance[i] * rows.row_lambda[i]);
    if (!accept_result(m, o, rows, it, trace, report)) {
      report.timings.integrate += ms_since(ti);
      return;
    }
    commit_step(m, o, h, contacts, s, state);
    report.timings.integrate += ms_since(ti);
  }

 private:
  // One sweep over every row (update = false: only measures). Keeps row_error (the row's natural
  // map in its units) and row_active (normal/limit: x > 0; friction: on the cone's boundary).
  bool sweep(const SchurSystem& sys, const ContactBuffer& contacts, Real h, Real omega, bool update, VecX& u,
             IterationTrace& t) {
    RowSet& rows = core_.rows;
    ResidualTally tally;
    auto note_active = [&](int i, std::int8_t active) {
      if (rows.row_active[i] >= 0 && rows.row_active[i] != active) ++t.active_set_changes;
      rows.row_active[i] = active;
    };
    for (int i = 0; i < rows.first_friction; ++i) {
      const Real a = diagonal_[i];
      if (!(a > 0)) continue;  // a row that moves nothing (both sides fixed)
      const Real x = impulse_[i];
      const Real phi = sys.j_row(i, u) + bias_[i] + rows.row_diag_c[i] * x;
      const Real residual = a * std::abs(x - project_row(rows, i, x - phi / a, h));
      rows.row_error[i] = is_position_row(rows.row_kind[i]) ? residual * h : residual;
      tally.add(rows.row_kind[i], residual, a, h, t);
      if (update) {
        const Real next = project_row(rows, i, x - omega * phi / a, h);
        if (next != x) sys.add_inv_h_jt_row(i, next - x, u);
        impulse_[i] = next;
        if (rows.row_kind[i] == RowKind::Normal || rows.row_kind[i] == RowKind::Limit) note_active(i, next > 0 ? 1 : 0);
      }
    }
    for (int c = 0; c < contacts.size(); ++c) {
      const int f = rows.first_friction + 2 * c;
      const Real a = std::max(diagonal_[f], diagonal_[f + 1]);
      if (!(a > 0)) continue;
      const Contact& contact = contacts.contacts[c];
      const Real xn = impulse_[rows.first_normal + c];
      const Vec2 x(impulse_[f], impulse_[f + 1]);
      const Vec2 phi(sys.j_row(f, u), sys.j_row(f + 1, u));
      const Real residual = a * (x - project_friction(contact, xn, x - phi / a)).norm();
      rows.row_error[f] = rows.row_error[f + 1] = residual;
      tally.add(RowKind::Friction, residual, a, h, t);
      Vec2 next = x;
      if (update) {
        const Vec2 free = x - omega * phi / a;
        next = project_friction(contact, xn, free);
        if (next.x() != x.x()) sys.add_inv_h_jt_row(f, next.x() - x.x(), u);
        if (next.y() != x.y()) sys.add_inv_h_jt_row(f + 1, next.y() - x.y(), u);
        impulse_[f] = next.x();
        impulse_[f + 1] = next.y();
        const std::int8_t slipping = (free - next).squaredNorm() > 0 ? 1 : 0;
        note_active(f, slipping);
        note_active(f + 1, slipping);
      }
    }
    tally.finish(t);
    t.step_size = update ? omega : 0;
    return tally.finite && u.allFinite();
  }

  // The momentum error of the result, M⁻¹g = u − ũ − H⁻¹Jᵀx (eq. 57; zero up to the round-off
  // of the incremental updates), its norm |g| and its energy ½gᵀM⁻¹g added to the merit.
  void measure_momentum(const Model& m, const SchurSystem& sys, SolverScratch& s, IterationTrace& t) {
    sys.jt(impulse_, s.jt);
    sys.inv_h(s.jt, s.hinv);
    Real g2 = 0, energy = 0, worst = 0;
    for (int b = 0; b < m.body_count; ++b) {
      if (!m.body_is_dynamic(b)) continue;
      const int d = 6 * b;
      Vec3 dv, dw;
      for (int k = 0; k < 3; ++k) {
        dv[k] = s.u[d + k] - s.u_tilde[d + k] - s.hinv[d + k];
        dw[k] = s.u[d + 3 + k] - s.u_tilde[d + 3 + k] - s.hinv[d + 3 + k];
      }
      const Vec3 gl = dv / m.body_inv_mass[b], ga = s.body_inertia_world[b] * dw;
      g2 += gl.squaredNorm() + ga.squaredNorm();
      energy += gl.dot(dv) + ga.dot(dw);
      worst = std::max({worst, dv.cwiseAbs().maxCoeff(), dw.cwiseAbs().maxCoeff()});
    }
    for (int p = 0; p < m.particle_count; ++p) {
      const Real im = m.particle_inv_mass[p];
      if (!(im > 0)) continue;
      for (int k = 0; k < 3; ++k) {
        const int d = m.particle_dof(p) + k;
        const Real dv = s.u[d] - s.u_tilde[d] - s.hinv[d];
        g2 += dv * dv / (im * im);
        energy += dv * dv / im;
        worst = std::max(worst, std::abs(dv));
      }
    }
    t.momentum_l2 = std::sqrt(g2);
    t.momentum_max = worst;
    t.merit += Real(0.5) * energy;
  }

  // The first rows with non-finite or exploding residuals or impulses.
  void flag_rows(const SolverOptions& o, StepReport& report) const {
    const RowSet& rows = core_.rows;
    for (int i = 0; i < rows.count && report.offending_rows.size() < 16; ++i) {
      const Real e = rows.row_error[i];
      if (!std::isfinite(e) || e > o.divergence_limit || !std::isfinite(impulse_[i])) report.offending_rows.push_back(i);
    }
  }

  SolverScratch core_;  // the rows, M⁻¹, ũ, u and q of the shared set-up (solver/newton_solver.hpp)
  VecX impulse_;        // x = hλ per row [N s or N m s] (row_capacity.hpp: these three keep their capacity)
  VecX bias_;           // β per row [m/s]
  VecX diagonal_;       // A_ii
};

}  // namespace

std::unique_ptr<StepSolver> make_pgs_step_solver() { return std::make_unique<PgsStepSolver>(); }

}  // namespace sim::detail
