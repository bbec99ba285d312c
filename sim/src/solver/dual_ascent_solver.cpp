// Dual ascent (XPBD-style): the third solver behind the seam (solver/step_solver.hpp), after
// Macklin et al. 2020, "Primal/Dual Descent Methods for Dynamics", §3 (eqs. 14-22) and Alg. 2,
// as corrected in ../shared/papers/notes/primal-dual-descent.md (§7.4, §11).
//
// The unknowns are the rows' multipliers λ (forces, f = Jᵀλ); the velocity follows them. Each
// iteration evaluates every row at the iterate q = q⁻ + h G(q⁻) u (eq. 22: the constraints are
// nonlinear, re-evaluated, unlike PGS, which linearises them at q⁻) and takes one preconditioned
// ascent step on the dual (eqs. 17-20):
//   position rows (joints, distances, FEM, limits, contact normals), c + eλ = 0 or 0 <= C ⊥ λ >= 0:
//       λ ← Π(λ − ω (C(q) + e λ) / (h² D + e))                       (eqs. 19-20, D below)
//   drives (implicit PD, velocity level), φ = J u + b + e λ, |λ| <= F:
//       λ ← clamp(λ − ω φ / (h D + e), ±F)
//   friction (velocity level: the slip over the step, digest §7.4), a contact's two rows together:
//       λ_f ← Π_cone(λ_f − ω Dᵀu / (h D_f))   onto |λ_f| <= μ max(λ_n, 0) (or its ellipse)
// and moves the velocity incrementally with the multipliers' change (the paper's "fast projection",
// Alg. 2; digest §11.2):
//       u ← u + h M⁻¹ J(q)ᵀ Δλ                                        (eq. 21, incremental)
// λ persists over the iterations (digest §11.1: the printed "λ ← 0" inside the loop is a typo); it
// starts at zero or at the warm start, with u⁰ = ũ + h M⁻¹ J(q⁻)ᵀ λ⁰.
//
// The preconditioner is block-diagonal over the rows' groups (digest §11.6 and §11.14): a joint's
// bilateral rows, a tet's seven, a membrane triangle's four and an attachment's three are one
// block each, solved together (as XPBD solves a joint), every other row (distances, bending,
// drives, limits, normals) a block of one, a contact's friction pair a block of two taken with
// the scalar of its largest eigenvalue (so the cone projection stays the maximal-dissipation one).
// With mass splitting (Tonge et al. 2012) each block is
//   D_G = Σ_nodes n_node J_G,node M⁻¹ J_G,nodeᵀ,   n_node = the groups that touch the node,
// so that J M⁻¹ Jᵀ <= blockdiag(D_G) (Cauchy–Schwarz over each node's groups) and the Jacobi
// step with ω < 2 cannot overshoot however many groups share a body. A position block moves by
//   Δλ_G = −ω (h² D_G + E_G)⁻¹ (C_G(q) + E_G λ_G)
// (E_G the rows' compliance, a tet's re-evaluated at each iterate). With dual_gauss_seidel the
// groups are visited in layout order, each seeing the velocity the earlier ones left (C
// linearised within the sweep: C(q) + h J (u − u_q)), and n_node = 1: the serial,
// order-dependent baseline (digest §11.19), not the paper's parallel method.
//
// Residuals: each iteration measures the iterate before its update exactly as the Newton solver
// does (the same row errors, friction natural map with the same r, momentum residual
// g = M(u − ũ) − h J(q)ᵀλ of eq. 57, and merit), so the Convergence panel and the solver debugger
// plot them on one axis. The iterations stop within newton_tolerance and
// newton_velocity_tolerance, else at dual_iterations (kStepNotConverged).
#include <algorithm>
#include <chrono>
#include <cmath>

#include <Eigen/Dense>

#include "constraint/friction_cone.hpp"
#include "constraint/row_assembly.hpp"
#include "core/kinematics.hpp"
#include "kernels/compliant_row_kernel.hpp"
#include "kernels/attachment_row_kernel.hpp"
#include "kernels/friction_projection_kernel.hpp"
#include "kernels/membrane_row_kernel.hpp"
#include "kernels/tet_row_kernel.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "solver/solve_outcome.hpp"
#include "solver/ncp.hpp"
#include "solver/iterate_measure.hpp"
#include "solver/newton_residuals.hpp"
#include "solver/newton_solver.hpp"
#include "solver/row_capacity.hpp"
#include "solver/schur_system.hpp"
#include "solver/solve_capture_record.hpp"
#include "solver/step_solver.hpp"

namespace sim::detail {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

class DualAscentStepSolver final : public StepSolver {
 public:
  SolverKind kind() const override { return SolverKind::DualAscent; }
  const RowSet& rows() const override { return core_.rows; }
  TraceCapacity trace_capacity(const SolverOptions& o) const override { return {o.dual_iterations + 1, 0}; }

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
    for (VecX* v : {&next_, &delta_}) grow_rows(*v, rows.count);
    build_groups(m, contacts);
    split_inverse_masses(m, o.dual_gauss_seidel);

    // u⁰ = ũ + h M⁻¹ J(q⁻)ᵀ λ⁰: the velocity the starting multipliers give.
    use_gradients(rows);
    sys.jt(rows.row_lambda.data(), s.jt);
    sys.inv_h(s.jt, s.hinv);
    for (int k = 0; k < dofs; ++k) s.u[k] = s.u_tilde[k] + h * s.hinv[k];
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
      const bool finite = measure_rows_and_momentum(m, contacts, h, sys, s, it);
      if (sink) capture_iterate(*sink, rows, s.u, it);
      if (judge_iterate(o, rows, finite, it, iterations, o.dual_iterations, "dual ascent", cancel, converged, report) !=
          IterateVerdict::Continue) {
        trace.iterations.push_back(it);
        break;
      }
      s.dofs1 = s.u;  // the measured iterate, where C(q) was evaluated
      if (o.dual_consistent) {  // u = ũ + h M⁻¹ J(q)ᵀ λ: the momentum equation met at J(q)
        sys.inv_h(s.jt, s.hinv);  // s.jt = J(q)ᵀ λ from the measurement
        for (int k = 0; k < dofs; ++k) s.u[k] = s.u_tilde[k] + h * s.hinv[k];
      }
      iterate(contacts, h, o.dual_relaxation, o.dual_gauss_seidel, sys, it);
      it.step_size = o.dual_relaxation;
      trace.iterations.push_back(it);
      ++iterations;
    }
    if (sink) {
      for (std::size_t k = trace_first; k < trace.iterations.size() && k - trace_first < sink->iterates.size(); ++k)
        sink->iterates[k - trace_first].trace = trace.iterations[k];
    }
    count_solve(o, iterations, converged, trace, report);
    report.timings.solve += ms_since(ts);
    if (!report.ok()) return;  // step() keeps the state at the step's start

    const auto ti = Clock::now();
    // s.q and the rows are those of the last measurement: the result.
    if (!accept_result(m, o, rows, it, trace, report)) {
      report.timings.integrate += ms_since(ti);
      return;
    }
    commit_step(m, o, h, contacts, s, state);
    report.timings.integrate += ms_since(ti);
  }

 private:
  // The system rows are the constraint gradients (no NCP scaling): Jᵀλ is the constraint force.
  static void use_gradients(RowSet& rows) {
    std::copy(rows.entry_grad.begin(), rows.entry_grad.begin() + rows.entry_count, rows.entry_jac.begin());
  }

  // The groups of the rows (see the top), in layout order, with their kinds' row ranges.
  void build_groups(const Model& m, const ContactBuffer& contacts) {
    const RowSet& rows = core_.rows;
    group_first_.clear();
    auto blocks = [&](int first, int last, int size) {
      for (int r = first; r < last; r += size) group_first_.push_back(r);
    };
    for (int j = 0; j < m.joint_count; ++j) {
      const int first = rows.joint_bilateral_first[j], last = rows.joint_bilateral_first[j + 1];
      blocks(first, last, last - first <= kMaxGroupRows ? std::max(last - first, 1) : 1);
    }
    blocks(rows.joint_bilateral_first[m.joint_count], rows.first_tet, 1);  // distances
    blocks(rows.first_tet, rows.first_attachment, kTetRows);
    blocks(rows.first_attachment, rows.first_membrane, kAttachmentRows);
    blocks(rows.first_membrane, rows.first_bending, kMembraneRows);
    blocks(rows.first_bending, rows.first_friction, 1);  // bending, drives, limits, normals
    blocks(rows.first_friction, rows.first_friction + 2 * contacts.size(), 2);
    group_first_.push_back(rows.count);
  }

  // D_G of every group (see the top) at q⁻, once per step, stored row-major per group.
  void split_inverse_masses(const Model& m, bool gauss_seidel) {
    const RowSet& rows = core_.rows;
    const int groups = static_cast<int>(group_first_.size()) - 1;
    node_groups_.assign(static_cast<std::size_t>(m.body_count + m.particle_count), 0);
    if (!gauss_seidel)
      for (int g = 0; g < groups; ++g)
        for (int e = rows.row_entry_first[group_first_[g]]; e < rows.row_entry_first[group_first_[g + 1]]; ++e) {
          const int node = rows.entry_node[e];
          bool seen = false;  // count each node once per group
          for (int f = rows.row_entry_first[group_first_[g]]; f < e && !seen; ++f) seen = rows.entry_node[f] == node;
          if (!seen) ++node_groups_[node];
        }
    block_first_.resize(group_first_.size());
    int size = 0;
    for (int g = 0; g < groups; ++g) {
      block_first_[g] = size;
      const int n = group_first_[g + 1] - group_first_[g];
      size += n * n;
    }
    block_first_[groups] = size;
    blocks_.assign(static_cast<std::size_t>(size), Real(0));
    for (int g = 0; g < groups; ++g) {
      const int first = group_first_[g], n = group_first_[g + 1] - first;
      Real* block = blocks_.data() + block_first_[g];
      for (int a = 0; a < n; ++a)
        for (int ea = rows.row_entry_first[first + a]; ea < rows.row_entry_first[first + a + 1]; ++ea) {
          const int node = rows.entry_node[ea];
          Real minv_g[6] = {0, 0, 0, 0, 0, 0};
          core_.inv_mass.apply_node(m, node, rows.entry_grad[ea].data(), minv_g);
          const Real split = gauss_seidel ? Real(1) : Real(node_groups_[node]);
          for (int b = 0; b < n; ++b)
            for (int eb = rows.row_entry_first[first + b]; eb < rows.row_entry_first[first + b + 1]; ++eb) {
              if (rows.entry_node[eb] != node) continue;
              Real dot = 0;
              for (int k = 0; k < rows.entry_width[eb]; ++k) dot += rows.entry_grad[eb][k] * minv_g[k];
              block[a * n + b] += split * dot;
            }
        }
    }
  }

  // The multipliers group g moves to from λ (written to next_), for the rows' values `c` (position
  // rows: C at the iterate, linearised within a Gauss–Seidel sweep; drives: the velocity J u).
  void update_group(int g, const Real* c, Real h, Real omega) {
    const RowSet& rows = core_.rows;
    const int first = group_first_[g], n = group_first_[g + 1] - first;
    const Real* block = blocks_.data() + block_first_[g];
    const RowKind kind = rows.row_kind[first];
    if (n > 1) {  // a bilateral block: (h² D_G + E_G) Δλ = −ω (C + E λ)
      using Block = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxGroupRows, kMaxGroupRows>;
      using Column = Eigen::Matrix<Real, Eigen::Dynamic, 1, 0, kMaxGroupRows, 1>;
      Block k(n, n);
      Column rhs(n);
      for (int a = 0; a < n; ++a) {
        const Real e = rows.row_compliance[first + a];
        for (int b = 0; b < n; ++b) k(a, b) = h * h * block[a * n + b];
        k(a, a) += e;
        rhs[a] = -omega * (c[a] + e * rows.row_lambda[first + a]);
      }
      const Real shift = Real(1e-12) * k.diagonal().cwiseAbs().maxCoeff();  // redundant rows: no pivot of 0
      k.diagonal().array() += shift;
      const Eigen::LDLT<Block> ldlt(k);
      const Column delta = ldlt.solve(rhs);
      for (int a = 0; a < n; ++a)
        next_[first + a] = delta.allFinite() && ldlt.info() == Eigen::Success ? rows.row_lambda[first + a] + delta[a]
                                                                               : rows.row_lambda[first + a];
      return;
    }
    const Real lambda = rows.row_lambda[first], e = rows.row_compliance[first], d = block[0];
    switch (kind) {
      case RowKind::Bilateral: {
        const Real k = h * h * d + e;
        next_[first] = k > 0 ? lambda - omega * (c[0] + e * lambda) / k : lambda;
        return;
      }
      case RowKind::Drive: {
        const Real k = h * d + e;
        const Real next = k > 0 ? lambda - omega * (c[0] + rows.row_bias[first] + e * lambda) / k : lambda;
        const Real bound = rows.row_bound[first];
        next_[first] = bound < 0 ? next : std::clamp(next, -bound, bound);
        return;
      }
      case RowKind::Limit:
      case RowKind::Normal: {
        const Real k = h * h * d + e;
        next_[first] = std::max(Real(0), k > 0 ? lambda - omega * (c[0] + e * lambda) / k : lambda);
        return;
      }
      case RowKind::Friction: break;
    }
  }

  // A contact's friction pair f, f + 1 (group g) moved from λ_f by −ω Dᵀu / (h D_f), D_f the largest
  // eigenvalue of its 2 × 2 block, and projected onto the cone of the normal multiplier `lambda_n`
  // (the disc, or the ellipse of an anisotropic contact). Written to next_.
  void update_friction(int g, const Contact& contact, Real s1, Real s2, Real lambda_n, Real h, Real omega) {
    const RowSet& rows = core_.rows;
    const int f = group_first_[g];
    const Real* b = blocks_.data() + block_first_[g];
    const Real mean = Real(0.5) * (b[0] + b[3]), half = Real(0.5) * (b[0] - b[3]);
    const Real d = mean + std::sqrt(half * half + b[1] * b[1]);  // largest eigenvalue
    Real packed[3] = {lambda_n, rows.row_lambda[f], rows.row_lambda[f + 1]};  // λ_n, then the pair
    if (d > 0) {
      packed[1] -= omega * s1 / (h * d);
      packed[2] -= omega * s2 / (h * d);
    }
    project_contact_friction(packed, 0, 1, 0, contact.friction, contact.friction_bitangent, contact.anisotropic);
    next_[f] = packed[1];
    next_[f + 1] = packed[2];
  }

  // The rows' values an update reads: C(q) for position rows, J u for drives, Dᵀu for friction;
  // position rows linearised from the measured iterate `u_q` when u has moved since (Gauss–Seidel).
  void group_values(int g, const VecX& u, const VecX* u_q, Real h, Real* c) const {
    const RowSet& rows = core_.rows;
    for (int i = group_first_[g], a = 0; i < group_first_[g + 1]; ++i, ++a) {
      const RowKind k = rows.row_kind[i];
      if (k == RowKind::Drive || k == RowKind::Friction) {
        c[a] = rows.gradient_dot(i, u.data());
      } else {
        c[a] = rows.row_value[i];
        if (u_q) c[a] += h * (rows.gradient_dot(i, u.data()) - rows.gradient_dot(i, u_q->data()));
      }
    }
  }

  // One iteration over the groups in layout order. Jacobi: every group's update from the same
  // iterate, then u += h M⁻¹ J(q)ᵀ Δλ. Gauss–Seidel: each group's velocity change applied before
  // the next group reads u. Friction sees this iteration's λ_n either way.
  void iterate(const ContactBuffer& contacts, Real h, Real omega, bool gauss_seidel, const SchurSystem& sys,
               IterationTrace& t) {
    SolverScratch& s = core_;
    RowSet& rows = s.rows;
    const int groups = static_cast<int>(group_first_.size()) - 1;
    Real c[kMaxGroupRows];
    for (int g = 0; g < groups; ++g) {
      group_values(g, s.u, &s.dofs1, h, c);
      const int first = group_first_[g];
      if (rows.row_kind[first] != RowKind::Friction) {
        update_group(g, c, h, omega);
      } else {
        const int contact = (first - rows.first_friction) / 2;
        update_friction(g, contacts.contacts[contact], c[0], c[1], next_[rows.first_normal + contact], h, omega);
      }
      if (!gauss_seidel) continue;
      for (int i = first; i < group_first_[g + 1]; ++i) {
        if (next_[i] != rows.row_lambda[i]) sys.add_inv_h_jt_row(i, h * (next_[i] - rows.row_lambda[i]), s.u);
        note_active(i, t);
        rows.row_lambda[i] = next_[i];
      }
    }
    if (gauss_seidel) return;
    for (int i = 0; i < rows.count; ++i) {
      delta_[i] = next_[i] - rows.row_lambda[i];
      note_active(i, t);
      rows.row_lambda[i] = next_[i];
    }
    sys.jt(delta_.data(), s.jt);
    sys.inv_h(s.jt, s.hinv);
    for (int k = 0; k < static_cast<int>(s.u.size()); ++k) s.u[k] += h * s.hinv[k];
  }

  // Counts a contact row switching between carrying force and not (normal/limit: λ > 0; friction:
  // on the cone's rim is not tracked here, λ ≠ 0 is).
  void note_active(int i, IterationTrace& t) const {
    const RowKind k = core_.rows.row_kind[i];
    if (k != RowKind::Normal && k != RowKind::Limit && k != RowKind::Friction) return;
    const bool before = core_.rows.row_lambda[i] != 0, after = next_[i] != 0;
    if (before != after) ++t.active_set_changes;
  }

  static constexpr int kMaxGroupRows = 7;  // a tet's rows; a joint has at most 6

  SolverScratch core_;             // rows, M⁻¹, ũ, u and q of the shared set-up (solver/newton_solver.hpp)
  VecX next_;                      // the multipliers an iteration moves to (row_capacity.hpp)
  VecX delta_;                     // their change Δλ
  std::vector<int> group_first_;   // first row of each group, then the row count (CSR)
  std::vector<int> block_first_;   // each group's D_G in blocks_ (row-major, n × n)
  std::vector<Real> blocks_;       // D_G with mass splitting, at q⁻
  std::vector<int> node_groups_;   // groups touching each node (mass splitting)
};

}  // namespace

std::unique_ptr<StepSolver> make_dual_ascent_step_solver() { return std::make_unique<DualAscentStepSolver>(); }

}  // namespace sim::detail
