#include "solver/newton_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "constraint/contact_normal_rows.hpp"
#include "constraint/drive_rows.hpp"
#include "constraint/friction_cone.hpp"
#include "constraint/joint_rows.hpp"
#include "constraint/row_assembly.hpp"
#include "constraint/shell_rows.hpp"
#include "constraint/tet_rows.hpp"
#include "core/kernel_views.hpp"
#include "core/parallel.hpp"
#include "kernels/body_kernels.hpp"
#include "kernels/compliant_row_kernel.hpp"
#include "kernels/contact_kernels.hpp"
#include "kernels/friction_projection_kernel.hpp"
#include "kernels/particle_kernels.hpp"
#include "kernels/row_entry_kernels.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "solver/inexact_newton_forcing.hpp"
#include "solver/solve_outcome.hpp"
#include "solver/ncp.hpp"
#include "solver/newton_residuals.hpp"
#include "solver/row_capacity.hpp"
#include "solver/solve_capture_record.hpp"

namespace sim {

using detail::SolverScratch;
using detail::capture_iterate;
using detail::capture_solve_begin;
using detail::accept_result;
using detail::capture_system;
using detail::count_solve;
using detail::DeviceSolveOutcome;
using detail::solve_pcr_on_device;

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// ---- setup ---------------------------------------------------------------------------------

// Mass at q⁻ (eq. 90: world inertia R I Rᵀ), H⁻¹ without geometric stiffness, and the
// unconstrained velocity ũ = u⁻ + h M⁻¹ (f_ext + f_gyro) (eq. 46; the gyroscopic term implicit
// or explicit as the options say).
void setup_mass_and_free_velocity(const Model& m, const SolverOptions& o, Real h, const State& st,
                                  const Control& control, SolverScratch& s) {
  s.body_inertia_world.resize(m.body_count);
  s.inv_mass.body_inv_mass = m.body_inv_mass;
  s.inv_mass.body_inv_inertia.resize(m.body_count);
  s.inv_mass.particle_inv_mass.resize(3 * m.particle_count);
  s.u_tilde.resize(m.dof_count());
  const BodyView bodies = body_view(m);
  const ParticleView particles = particle_view(m);
  const StateView start = state_view(m, st);
  const LoadView loads = load_view(m, control, o);
  const BodyInertiaView inertia{s.body_inertia_world.data(), s.inv_mass.body_inv_inertia.data()};
  parallel_for(m.body_count, [&](int b) {
    body_world_inertia(bodies, start, b, inertia);
    predict_body_velocity(bodies, start, loads, inertia.inertia_world, inertia.inv_inertia_world, h, b,
                          s.u_tilde.data());
  });
  parallel_for(m.particle_count, [&](int p) {
    predict_particle_velocity(particles, start, loads, h, p, s.u_tilde.data(), s.inv_mass.particle_inv_mass.data());
  });
}

// [J M⁻¹ Jᵀ]_ii for the unscaled gradient rows, summed over the row's entries.
Real effective_inverse_mass(const Model& m, const InverseMass& im, const RowSet& rows, int i) {
  Real sum = 0;
  for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
    im.add_quadratic(m, rows.entry_node[e], rows.entry_grad[e], sum);
  return sum;
}

// Complementarity preconditioner (eq. 66), once per step from the rows at q⁻:
// position rows r = h² [J M⁻¹ Jᵀ]_ii, velocity rows (friction, drives) r = h [J M⁻¹ Jᵀ]_ii,
// one r per contact for both friction rows (their mean). Identity: r = 1; "h2": h² or h.
// Also keeps k = [J M⁻¹ Jᵀ]_ii per row (row_inv_mass) for the merit function's weights.
void compute_preconditioner(const Model& m, const SolverOptions& o, Real h, const InverseMass& im,
                            RowSet& rows) {
  parallel_for(rows.count, [&](int i) {
    const RowKind kind = rows.row_kind[i];
    const bool velocity_level = kind == RowKind::Friction || kind == RowKind::Drive;
    Real k = effective_inverse_mass(m, im, rows, i);
    if (kind == RowKind::Friction) {
      const int partner = rows.row_sub[i] == 1 ? i + 1 : i - 1;
      k = Real(0.5) * (k + effective_inverse_mass(m, im, rows, partner));
    }
    rows.row_inv_mass[i] = k;
    Real r = 1;
    switch (o.preconditioner) {
      case Preconditioner::Identity: r = 1; break;
      case Preconditioner::TimeStepSquared: r = velocity_level ? h : h * h; break;
      case Preconditioner::EffectiveMass: r = (velocity_level ? h : h * h) * k; break;
    }
    rows.row_r[i] = std::max(r, Real(1e-12));
  });
}

// ---- NCP evaluation -----------------------------------------------------------------------

// The system row J of row i from its gradient (kernels/row_entry_kernels.hpp).
void copy_gradient_to_jacobian(RowSet& rows, int i) {
  copy_row_blocks(rows.row_entry_first.data(), rows.entry_grad.data(), rows.entry_jac.data(), i);
}
void scale_gradient_to_jacobian(RowSet& rows, int i, Real alpha) {
  scale_row_blocks(rows.row_entry_first.data(), rows.entry_grad.data(), rows.entry_jac.data(), i, alpha);
}
void zero_jacobian(RowSet& rows, int i) { zero_row_blocks(rows.row_entry_first.data(), rows.entry_jac.data(), i); }

// The friction rows f, f+1 of an anisotropic contact (thesis ch. 3): φ_f = Dᵀu + W λ_f with the
// diagonal W = ŵ diag(1/μ_t², 1/μ_b²) of the elliptic cone, block W/h; the error on the ellipse.
void evaluate_elliptic_friction(const Contact& contact, bool fb, Real s1, Real s2, Real lambda_n, Real h, int f,
                                RowSet& rows) {
  const Real r = rows.row_r[f];
  const Real l1 = rows.row_lambda[f], l2 = rows.row_lambda[f + 1];
  const Real mu_t = contact.friction, mu_b = contact.friction_bitangent;
  const EllipticFrictionW w = elliptic_friction_w(fb, s1, s2, l1, l2, mu_t, mu_b, lambda_n, r);
  const Real slip[2] = {s1, s2};
  const Real wk[2] = {w.w_t, w.w_b};
  const Real error = elliptic_friction_error(s1, s2, l1, l2, mu_t, mu_b, lambda_n, r);
  for (int k = 0; k < 2; ++k) {
    copy_gradient_to_jacobian(rows, f + k);
    rows.row_residual[f + k] = slip[k] + wk[k] * rows.row_lambda[f + k];
    rows.row_diag_c[f + k] = wk[k] / h;
    rows.row_w[f + k] = wk[k];
    rows.row_active[f + k] = wk[k] > 0 ? 1 : 0;
    rows.row_error[f + k] = error;
  }
}

// Sets J, the C block, the residual h and the active flag of every row at the current (u, λ).
void evaluate_ncp(const Model& m, const ContactBuffer& contacts, const SolverOptions& o, Real h,
                  const VecX& u, RowSet& rows) {
  const bool fb = o.ncp == NcpFunction::FischerBurmeister;
  const UnilateralRowView unilateral = rows.unilateral_view();
  const CompliantRowView compliant = rows.compliant_view();
  parallel_for(rows.first_friction, [&](int i) {
    switch (rows.row_kind[i]) {
      case RowKind::Bilateral:  // (c + Eλ)/h, block E/h² (eq. 8, 55): the shared kernel
        evaluate_bilateral_row(compliant, i, h);
        copy_gradient_to_jacobian(rows, i);
        break;
      case RowKind::Drive:  // φ = J u + b + e λ, block e/h; clamped at |λ| = F (box NCP)
        if (evaluate_drive_row_ncp(compliant, i, rows.gradient_dot(i, u.data()), h) > 0)
          copy_gradient_to_jacobian(rows, i);
        else
          zero_jacobian(rows, i);
        break;
      case RowKind::Limit:
      case RowKind::Normal: {  // φ_n/h, row α∇C, block S/h² (eqs. 93-98): the shared kernel
        evaluate_unilateral_row(unilateral, i, fb, h);
        scale_gradient_to_jacobian(rows, i, rows.row_jac_scale[i]);
        break;
      }
      case RowKind::Friction: break;
    }
  });
  // Friction (eqs. 99-106): active where μλ_n > 0: φ_f = Dᵀu + W λ_f, row D, block W/h.
  // Inactive set (μλ_n <= 0): rows zeroed, φ_f = r λ_f drives λ_f to 0 (notes: W = 1, scaled).
  parallel_for(contacts.size(), [&](int c) {
    const int n = rows.first_normal + c;
    const int f = rows.first_friction + 2 * c;
    const Real mu_ln = contacts.contacts[c].friction * rows.row_lambda[n];
    const Real r = rows.row_r[f];
    const Real l1 = rows.row_lambda[f], l2 = rows.row_lambda[f + 1];
    if (!(mu_ln > 0)) {
      for (int k = 0; k < 2; ++k) {
        zero_jacobian(rows, f + k);
        rows.row_residual[f + k] = r * rows.row_lambda[f + k];
        rows.row_diag_c[f + k] = r / h;
        rows.row_w[f + k] = r;
        rows.row_active[f + k] = 0;
        rows.row_error[f + k] = contacts.contacts[c].anisotropic ? r * std::sqrt(l1 * l1 + l2 * l2)
                                                                  : friction_error(0, 0, l1, l2, mu_ln, r);
      }
      return;
    }
    const Real s1 = rows.gradient_dot(f, u.data());
    const Real s2 = rows.gradient_dot(f + 1, u.data());
    if (contacts.contacts[c].anisotropic) {  // matchstick ellipse: W = ŵ C (friction_cone.hpp)
      evaluate_elliptic_friction(contacts.contacts[c], fb, s1, s2, rows.row_lambda[n], h, f, rows);
      return;
    }
    const Real v = std::sqrt(s1 * s1 + s2 * s2);
    const Real lf = std::sqrt(l1 * l1 + l2 * l2);
    const Real w = fb ? friction_w_fischer_burmeister(v, mu_ln, lf, r) : friction_w_min_map(v, mu_ln, lf, r);
    const Real slip[2] = {s1, s2};
    const Real error = friction_error(s1, s2, l1, l2, mu_ln, r);
    for (int k = 0; k < 2; ++k) {
      copy_gradient_to_jacobian(rows, f + k);
      rows.row_residual[f + k] = slip[k] + w * rows.row_lambda[f + k];
      rows.row_diag_c[f + k] = w / h;
      rows.row_w[f + k] = w;
      rows.row_active[f + k] = w > 0 ? 1 : 0;
      rows.row_error[f + k] = error;
    }
  });
}

}  // namespace

// g = M (u − ũ) − h f on dynamic dofs, 0 on fixed ones, for the constraint impulses f / h.
void momentum_residual_of(const Model& m, Real h, const SolverScratch& s, const VecX& f, VecX& g) {
  const BodyView bodies = body_view(m);
  const ParticleView particles = particle_view(m);
  const MomentumView mv{s.u.data(), s.u_tilde.data(), f.data(), s.body_inertia_world.data(), g.data()};
  parallel_for(m.body_count, [&](int b) { body_momentum_residual(bodies, mv, h, b); });
  parallel_for(m.particle_count, [&](int p) { particle_momentum_residual(particles, mv, m.body_count, h, p); });
}

namespace {

// g = M (u − ũ) − h Jᵀ λ (eq. 57) with the NCP-scaled rows J (α∇C: keeps the system symmetric,
// as the paper; it agrees with the constraints' own gradients at a solution, where α = 1 on every
// row that carries force). Measuring the merit with ∇Cᵀλ instead was tried: its line search
// stalled on 250 of 300 heavy-stack steps (46 with this g).
void momentum_residual(const Model& m, const SchurSystem& sys, Real h, SolverScratch& s) {
  sys.jt(s.rows.row_lambda.data(), s.jt);
  // A drive clamped at its effort bound has a zero system row (its residual r(λ − F) does not
  // depend on u) but still pushes with λ = ±F along its gradient.
  const RowSet& rows = s.rows;
  for (int i = rows.first_drive; i < rows.first_limit; ++i) {
    if (rows.row_active[i]) continue;
    for (int e = rows.row_entry_first[i]; e < rows.row_entry_first[i + 1]; ++e)
      for (int k = 0; k < rows.entry_width[e]; ++k)
        s.jt[rows.entry_dof[e] + k] += rows.entry_grad[e][k] * rows.row_lambda[i];
  }
  momentum_residual_of(m, h, s, s.jt, s.g);
}

// Diagonal geometric stiffness (eqs. 71-74) on particle dofs: H̃_kk = M_kk + geometric_stiffness_shift
// (kernels/geometric_stiffness_kernel.hpp) from the secant of g along the last Newton step.
void update_geometric_stiffness(const Model& m, SolverScratch& s) {
  const ParticleView particles = particle_view(m);
  const GeometricStiffnessView v{s.g.data(), s.g_prev.data(), s.du_prev.data(), s.dof_shift.data(),
                                 s.inv_mass.particle_inv_mass.data()};
  parallel_for(m.particle_count, [&](int p) { update_particle_geometric_stiffness(particles, v, m.body_count, p); });
}

// The same update (eqs. 71-74) on the particles in H̃, from the secant of g at the last λ:
// g(u⁺, λ⁻) − g(u⁻, λ⁻) = M Δu − h (J⁺ − J⁻)ᵀ λ⁻, the constraints' curvature alone (H = ∂g/∂u).
// The plain secant also moves with the rows' Δλ, which carries the elastic rows' own stiffness
// J_Eᵀ C_E⁻¹ J_E that H̃ holds exactly: counted twice, it stalled the PneuNet solve (bilateral
// residual 3e-7 after 16 iterations, 7e-11 without a shift); without any shift a bar stretched
// to 2× (co-rotational, ν 0.49) did not converge in 30 iterations.
void update_condensed_geometric_stiffness(const Model& m, const SchurSystem& sys, Real h, SolverScratch& s) {
  const RowSet& rows = s.rows;
  grow_rows(s.condensed_rhs, rows.count);
  parallel_for(rows.count, [&](int i) { s.condensed_rhs[i] = rows.row_lambda[i] - s.lambda_base[i]; });
  sys.jt(s.condensed_rhs, s.jt);
  s.g_condensed.resize(s.g.size());
  parallel_for(static_cast<int>(s.g.size()), [&](int k) { s.g_condensed[k] = s.g[k] + h * s.jt[k]; });  // g(u⁺, λ⁻)
  const ParticleView particles = particle_view(m);
  const GeometricStiffnessView v{s.g_condensed.data(), s.g_prev.data(), s.du_prev.data(), s.dof_shift.data(),
                                 s.inv_mass.particle_inv_mass.data()};
  const std::vector<int>& covered = s.condensation.particles();
  parallel_for(static_cast<int>(covered.size()),
               [&](int k) { update_particle_geometric_stiffness(particles, v, m.body_count, covered[k]); });
}

// Safeguard for Fischer–Burmeister: friction forces back onto their cone |λ_f| <= μ max(λ_n, 0)
// after an update. A sticking row (W = 0) is a velocity constraint whose force the linear solve
// does not bound; without this a light particle held by stiff neighbours can carry λ_f many times
// μλ_n into the next iteration, where the FB fixed point reflects rather than projects it. Not
// for the min-map: its W (eq. 105) turns a force outside the cone (a = μλ_n − |λ_f| < 0) into
// slip, and projecting first hides exactly that (a = 0, v = 0 reads as stick): a box on a slope
// steeper than its friction angle stayed put for 30 steps.
void project_friction_onto_cone(const ContactBuffer& contacts, RowSet& rows) {
  parallel_for(contacts.size(), [&](int c) {
    const Contact& contact = contacts.contacts[c];
    project_contact_friction(rows.row_lambda.data(), rows.first_normal, rows.first_friction, c, contact.friction,
                             contact.friction_bitangent, contact.anisotropic);
  });
}

// The projection above cuts the force δ = λ_f − proj(λ_f) off the cone. At the onset of sliding
// the iterate reads as stick (v = 0, |λ_f| = μλ_n: the FB W of eq. 101 is 0), the stick direction
// only pushes λ_f off the cone again, the cut restores the start, and no step length lowers the
// merit: a box under a push ramped past its cone held on to +5 %. So the line search tries a
// trial whose cut fails the Armijo test once more at the same t with the cut carried into the
// velocity, u += H⁻¹ Jᵀ(−h δ): the momentum balance g (eq. 57) is what it was before the cut and
// the excess becomes slip, −r δ to first order, opposed by a force on the cone (the sliding
// branch of eqs. 13-16). Only at contacts that stuck where the direction started: carried at
// sliding contacts it slowed a box sliding down an incline by 7 %. Fills s.friction_excess from
// the trial λ it holds on entry; returns whether anything was cut, and carries only if `carry`.
bool carry_friction_excess_into_velocity(const SchurSystem& sys, Real h, const ContactBuffer& contacts,
                                         SolverScratch& s, bool carry) {
  RowSet& rows = s.rows;
  const int first = rows.first_friction, last = rows.first_friction + 2 * static_cast<int>(contacts.size());
  bool any = false;
  for (int i = first; i < last; ++i) {
    // trial λ minus projected λ, at contacts that stuck at the iterate the direction started from
    s.friction_excess[i] = s.active_prev[i] == 0 ? s.friction_excess[i] - rows.row_lambda[i] : Real(0);
    if (s.friction_excess[i] != 0) any = true;
  }
  if (!any || !carry) return any;
  for (int i = first; i < last; ++i) s.friction_excess[i] *= -h;
  sys.jt(s.friction_excess, s.jt);
  sys.inv_h(s.jt, s.du_slip);
  s.u += s.du_slip;
  return true;
}

// ---- warm start ----------------------------------------------------------------------------

// λ⁰ from the state's warm-start record: the rows before the contacts when the layout matches,
// contacts matched by key (binary search: keys are stored sorted). u⁰ = u⁻ is the state's u.
void warm_start(const ContactBuffer& contacts, const WarmStart& w, RowSet& rows) {
  std::fill(rows.row_lambda.begin(), rows.row_lambda.end(), Real(0));
  if (static_cast<int>(w.row_lambda.size()) == rows.first_normal)
    std::copy(w.row_lambda.begin(), w.row_lambda.end(), rows.row_lambda.begin());
  if (w.contact_lambda.size() != 3 * w.contact_key.size()) return;
  const WarmStartView record{w.contact_key.data(), w.contact_lambda.data(), static_cast<int>(w.contact_key.size())};
  parallel_for(contacts.size(), [&](int c) {
    warm_start_contact(record, contacts.contacts[c].key, c, rows.first_normal, rows.first_friction,
                       rows.row_lambda.data());
  });
}

// The step's multipliers into the state's warm-start record (contacts sorted by key, ties in
// contact order). Reuses the record's capacity: no allocation once it has held this many.
void remember_for_warm_start(const ContactBuffer& contacts, const RowSet& rows, std::vector<int>& order,
                             WarmStart& w) {
  w.row_lambda.assign(rows.row_lambda.begin(), rows.row_lambda.begin() + rows.first_normal);
  const int n = contacts.size();
  order.reserve(contacts.contacts.capacity());
  order.resize(n);
  for (int c = 0; c < n; ++c) order[c] = c;
  // In place (std::stable_sort would take a temporary buffer from the heap every step): ties in
  // key are ordered by contact index, which is what a stable sort of 0..n-1 gives.
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    const auto& kx = contacts.contacts[x].key;
    const auto& ky = contacts.contacts[y].key;
    return kx < ky || (!(ky < kx) && x < y);
  });
  w.contact_key.resize(n);
  w.contact_lambda.resize(3 * n);
  for (int i = 0; i < n; ++i) {
    const int c = order[i];
    w.contact_key[i] = contacts.contacts[c].key;
    w.contact_lambda[3 * i] = rows.row_lambda[rows.first_normal + c];
    w.contact_lambda[3 * i + 1] = rows.row_lambda[rows.first_friction + 2 * c];
    w.contact_lambda[3 * i + 2] = rows.row_lambda[rows.first_friction + 2 * c + 1];
  }
}

// The joint coordinates at q⁻ on the branch nearest to the state's record (θ⁻, the reference
// every evaluation of this step unwraps against).
void joint_reference_at_start(const Model& m, const State& state, const Configuration& c,
                              std::vector<Real>& reference) {
  reference.resize(m.joint_count);
  const bool recorded = static_cast<int>(state.joint_position.size()) == m.joint_count;
  for (int j = 0; j < m.joint_count; ++j) {
    if (!joint_has_coordinate(m.joint_type[j])) {
      reference[j] = 0;
      continue;
    }
    const Real raw = joint_coordinate(m, j, c).value;
    reference[j] = recorded ? joint_position_near(m.joint_type[j], raw, state.joint_position[j]) : raw;
  }
}

// The unwrapped joint coordinates at configuration c into the state.
void store_joint_positions(const Model& m, const Configuration& c, const std::vector<Real>& reference,
                           State& state) {
  state.joint_position.resize(m.joint_count);
  for (int j = 0; j < m.joint_count; ++j)
    state.joint_position[j] = joint_has_coordinate(m.joint_type[j])
                                  ? joint_position_near(m.joint_type[j], joint_coordinate(m, j, c).value, reference[j])
                                  : Real(0);
}

// Rows, NCP terms, momentum residual and their measures at the iterate (s.u, rows.row_lambda):
// everything the convergence test, the merit function and the next direction need.
// With `meet_elastic` (the elastic rows are condensed) the iterate's condensed rows carry λ_E(x)
// (ElasticCondensation::meet_condensed_rows), so the merit measures the elastic forces that the
// positions imply. Measured with the last λ_E instead, a soft body switched to a pressure far from
// its rest state (the PneuNet chambers at 40 MPa from rest) never moved: the start's merit left
// out the unmet rows' forces, every iterate's merit was larger and the step returned to its start.
struct IterateContext {
  const Model& m;
  const SolverOptions& o;
  Real h;
  const ContactBuffer& contacts;
  const SchurSystem& sys;
  bool meet_elastic;
};

bool evaluate_iterate(const IterateContext& x, SolverScratch& s, NewtonIterationTrace& t) {
  integrate_positions(x.m, s.q0.data(), s.u.data(), x.h, s.q.data());  // q = q⁻ + h G(q⁻) u (eq. 63)
  s.config.assign(x.m, s.q.data());
  evaluate_rows(x.m, x.contacts, s.config, s.joint_reference, s.rows);
  if (x.meet_elastic) ElasticCondensation::meet_condensed_rows(s.rows);
  evaluate_ncp(x.m, x.contacts, x.o, x.h, s.u, s.rows);
  momentum_residual(x.m, x.sys, x.h, s);
  return measure_iterate(x.m, s.rows, s.inv_mass_at_start, s.g, t, x.o.friction_merit_natural_map);
}

// Which linear solver is redone after a breakdown: Gauss–Seidel needs no positive curvature to
// take a step and never divides by a Krylov quantity (rows with a non-positive diagonal are
// skipped); it is the fallback of every other solver. Jacobi's growth is its own divergence (the
// paper's comparison), reported but not rescued.
bool needs_fallback(LinearSolver solver, LinearBreakdown b) {
  if (b == LinearBreakdown::None || b == LinearBreakdown::Cancelled || solver == LinearSolver::GaussSeidel) return false;
  if (solver == LinearSolver::Jacobi) return b != LinearBreakdown::Stagnated;
  return true;
}

// Remembers the iterate (s.u, λ) as the best so far.
void keep_best(SolverScratch& s, Real merit) {
  s.best_merit = merit;
  s.u_best = s.u;
  grow_rows(s.lambda_best, s.rows.count);
  std::copy(s.rows.row_lambda.begin(), s.rows.row_lambda.end(), s.lambda_best.data());
}

// Whether this Newton iteration solves with the factorised H̃ (solver/elastic_condensation.hpp):
// asked for, there is something to put in it (elastic rows, or the rope links' exact curvature),
// the linear solver is a Krylov one (Gauss–Seidel and the direct solver read the block-diagonal
// H), and the solver debugger is not exporting this iteration's system (its export is the plain one).
bool use_condensation(const Model& m, const SolverOptions& o, LinearSolver linear, const RowSet& rows,
                      bool rope_curvature, ElasticCondensation& condensation, const SolveCapture* capture,
                      int newton) {
  if (!o.condense_elastic || m.particle_count == 0 || !condensation.wanted(rows, rope_curvature)) return false;
  if (linear != LinearSolver::PCR && linear != LinearSolver::PCG) return false;
  return !(capture && capture->system_iteration == newton);
}

// The right-hand side b of the system the linear solver gets, for the plain or the condensed
// system (sys set accordingly); returns the momentum residual the direction uses (g or g̃).
const VecX& set_up_direction(SchurSystem& sys, bool condensed, SolverScratch& s) {
  const RowSet& rows = s.rows;
  sys.set_condensation(condensed ? &s.condensation : nullptr);
  const VecX* g = &s.g;
  if (condensed) {  // g̃ = g + J_Eᵀ C_E⁻¹ h_E
    grow_rows(s.condensed_rhs, rows.count);
    parallel_for(rows.count, [&](int i) {
      s.condensed_rhs[i] = ElasticCondensation::condensable(rows, i) ? rows.row_residual[i] / sys.diag_c(i) : Real(0);
    });
    sys.jt(s.condensed_rhs, s.jt);
    s.g_condensed.resize(s.g.size());
    parallel_for(static_cast<int>(s.g.size()), [&](int k) { s.g_condensed[k] = s.g[k] + s.jt[k]; });
    g = &s.g_condensed;
  }
  sys.inv_h(*g, s.hinv);
  sys.j(s.hinv, s.b);
  parallel_for(rows.count, [&](int i) {
    s.b[i] = condensed && ElasticCondensation::condensable(rows, i) ? Real(0) : s.b[i] - rows.row_residual[i];
  });
  return *g;
}

// The condensed rows' x_E = −C_E⁻¹ (h_E + J_E Δu) from the direction's Δu (s.hinv).
void recover_condensed_rows(const SchurSystem& sys, SolverScratch& s) {
  const RowSet& rows = s.rows;
  parallel_for(rows.count, [&](int i) {
    if (ElasticCondensation::condensable(rows, i))
      s.x[i] = -(rows.row_residual[i] + sys.j_row(i, s.hinv)) / sys.diag_c(i);
  });
}

void flag_rows(const RowSet& rows, const SolverOptions& o, StepReport& report) {
  for (int i = 0; i < rows.count && report.offending_rows.size() < 16; ++i) {
    const Real e = rows.row_error[i];
    if (!std::isfinite(e) || e > o.divergence_limit || !std::isfinite(rows.row_lambda[i]) ||
        !std::isfinite(rows.row_residual[i]))
      report.offending_rows.push_back(i);
  }
}

}  // namespace

void prepare_step(const Model& m, const SolverOptions& o, Real h, const State& state, const Control& control,
                  const ContactBuffer& contacts, SolverScratch& s) {
  s.u.setZero(m.dof_count());
  s.q0 = Eigen::Map<const VecX>(state.q.data(), m.coord_count());
  s.q.resize(m.coord_count());
  setup_mass_and_free_velocity(m, o, h, state, control, s);
  s.inv_mass_at_start = s.inv_mass;  // M⁻¹ at q⁻ without geometric stiffness: the merit's metric
  RowSet& rows = s.rows;
  assemble_rows(m, contacts, rows);
  s.config.assign(m, s.q0.data());
  joint_reference_at_start(m, state, s.config, s.joint_reference);
  setup_tet_pressure(m, control, rows);  // active pressure per tet (Control::soft_pressure)
  evaluate_rows(m, contacts, s.config, s.joint_reference, rows);
  compute_preconditioner(m, o, h, s.inv_mass, rows);
  setup_drive_rows(m, control, h, rows);
  relax_initial_penetration(o, h, rows);
  setup_tet_damping(m, s.config, h, rows.first_tet, rows);  // FEM rows' strain at q⁻ and β/h
  setup_shell_damping(m, s.config, h, rows);  // shell rows' measures at q⁻ and β/h
  if (o.warm_start) {
    warm_start(contacts, state.warm_start, rows);
    std::copy(state.u.begin(), state.u.end(), s.u.data());
  }
  else std::fill(rows.row_lambda.begin(), rows.row_lambda.end(), Real(0));  // eqs. 67-68
}

void evaluate_rows_at_result(const Model& m, const ContactBuffer& contacts, SolverScratch& s) {
  s.config.assign(m, s.q.data());
  evaluate_rows(m, contacts, s.config, s.joint_reference, s.rows);
}

void commit_step(const Model& m, const SolverOptions& o, Real h, const ContactBuffer& contacts, SolverScratch& s,
                 State& state) {
  std::copy(s.q.data(), s.q.data() + m.coord_count(), state.q.begin());
  std::copy(s.u.data(), s.u.data() + m.dof_count(), state.u.begin());
  store_joint_positions(m, s.config, s.joint_reference, state);
  state.time += h;
  if (o.warm_start) remember_for_warm_start(contacts, s.rows, s.warm_order, state.warm_start);
}

void newton_solve_step(const Model& m, const SolverOptions& o, Real h, State& state, const Control& control,
                       const ContactBuffer& contacts, SolverScratch& s, SolverTrace& trace,
                       StepReport& report) {
  auto t0 = Clock::now();
  const int dofs = m.dof_count();
  for (VecX* v : {&s.g, &s.g_prev, &s.du_prev, &s.jt, &s.hinv, &s.dofs1, &s.du_slip}) v->setZero(dofs);
  s.dof_shift.assign(3 * m.particle_count, Real(0));
  s.linear.cancel = s.cancel;
  prepare_step(m, o, h, state, control, contacts, s);
  RowSet& rows = s.rows;

  SchurSystem sys(m, rows, s.inv_mass, o.regularization, s.node_entry_first, s.node_entries,
                  s.node_entry_rows);
  sys.build_adjacency();
  const int room = std::max(rows.count, static_cast<int>(rows.row_lambda.capacity()));  // rows' capacity
  for (VecX* v : {&s.b, &s.x, &s.dlambda, &s.lambda_base, &s.friction_excess, &s.lambda_best, &s.condensed_rhs})
    grow_rows(*v, room);
  s.friction_excess.head(rows.count).setZero();
  s.active_prev.reserve(room);
  s.active_prev.assign(rows.count, -1);
  report.row_count = rows.count;
  // The solver debugger's capture (Workspace::capture): every measured iterate, the system of one
  // iteration; the trace's entries of this solve are copied in at the end.
  SolveCapture* const capture = s.capture;
  const std::size_t trace_first = trace.iterations.size(), linear_first = trace.linear_residuals.size();
  if (capture) capture_solve_begin(*capture, m, rows, contacts.size());

  const int analyses_at_start = s.linear.direct.analyses();
  // auto: this step's choice (may analyse the direct solver's pattern)
  const LinearSolver linear = resolve_linear_solver(o.linear_solver, sys, o.linear_iterations, s.linear.direct);
  trace.direct_analyses += s.linear.direct.analyses() - analyses_at_start;
  trace.linear_solver = linear;
  const bool krylov = linear == LinearSolver::PCR || linear == LinearSolver::PCG;
  const IterateContext ctx{m, o, h, contacts, sys,
                           o.condense_elastic && krylov && m.particle_count > 0 &&
                               ElasticCondensation::any_condensable(rows)};
  NewtonIterationTrace it;
  bool finite = evaluate_iterate(ctx, s, it);
  report.timings.assembly += ms_since(t0);

  // Newton iterations (Algorithm 1) until the residuals are below tolerance or the cap. Each
  // iteration measures the iterate (done above / by the line search), solves for a direction,
  // and moves along it by a step t that the line search accepts.
  int newton = 0;
  bool converged = false;
  s.best_merit = std::numeric_limits<Real>::infinity();
  if (o.line_search && finite) keep_best(s, it.merit);
  // Inexact Newton: the linear budget grows after a direction no step length accepted (see
  // SolverOptions::linear_iterations_max); the loop stops when the best merit stalls at the full
  // budget (newton_stall_iterations).
  int linear_budget = o.linear_iterations;
  const int linear_budget_max = o.line_search ? std::max(o.linear_iterations, o.linear_iterations_max)
                                              : o.linear_iterations;
  Real stall_reference = s.best_merit;  // best merit when the stall count last restarted
  int stalled = 0;                      // iterations at the full budget without a 10% gain
  bool linear_exact = false;            // the last linear solve reached round-off
  bool condensed_last = false;          // the last direction was solved with the elastic rows condensed
  // Geometric stiffness (eq. 53) of the condensed elastic rows and of the rope links: exact per
  // element / link in H̃ (ElasticCondensation::Curvature), else the diagonal secant of eqs. 71-74
  // as on other particles.
  const bool exact_curvature = o.geometric_stiffness && o.element_geometric_stiffness;
  const bool rope_curvature = o.geometric_stiffness && o.rope_geometric_stiffness;
  if (rope_curvature && o.condense_elastic && m.particle_count > 0) s.condensation.find_rope_links(m, rows);
  bool improved = false;                // an iterate beat the start by 10%: the start (u⁻, λ⁻)
                                        // is never returned by a stall, it may just be a slow start
  // The linear solves' relative tolerance (solver/inexact_newton_forcing.hpp): the Krylov solvers
  // stop at it; the direct solver is exact anyway.
  InexactNewtonForcing forcing(krylov ? o.linear_forcing_max : Real(0), o.linear_tolerance);
  for (;;) {
    auto ta = Clock::now();
    for (int i = 0; i < rows.count; ++i) {
      if (s.active_prev[i] >= 0 && s.active_prev[i] != rows.row_active[i]) ++it.active_set_changes;
      s.active_prev[i] = rows.row_active[i];
    }
    if (capture) capture_iterate(*capture, rows, s.u, it);
    const Real worst = std::max({it.normal_max, it.friction_max, it.bilateral_max});
    if (!finite) {
      report.flags |= kStepNonFinite;
      flag_rows(rows, o, report);
      trace.iterations.push_back(it);
      break;
    }
    if (worst > o.divergence_limit) {
      report.flags |= kStepResidualExploded;
      flag_rows(rows, o, report);
      trace.iterations.push_back(it);
      break;
    }
    if (s.cancel && s.cancel->load(std::memory_order_relaxed)) {  // Workspace::cancel
      report.flags |= kStepCancelled;
      trace.iterations.push_back(it);
      break;
    }
    converged = o.newton_tolerance > 0 && newton_converged(it, o.newton_tolerance, o.newton_velocity_tolerance);
    const bool stall = o.line_search && o.newton_tolerance > 0 && o.newton_stall_iterations > 0 &&
                       stalled >= o.newton_stall_iterations;
    if (converged || stall || newton >= o.newton_iterations) {
      trace.stalled = trace.stalled || (stall && !converged && newton < o.newton_iterations);
      trace.iterations.push_back(it);
      break;
    }
    if (o.geometric_stiffness && newton > 0 && m.particle_count > 0) {
      update_geometric_stiffness(m, s);
      if (condensed_last && !exact_curvature && ElasticCondensation::any_condensable(rows))
        update_condensed_geometric_stiffness(m, sys, h, s);
    }

    // Direction: b = J H⁻¹ g − h (eq. 59), x = hΔλ, Δu = H⁻¹(Jᵀ x − g) (eq. 60); with the elastic
    // rows condensed (solver/elastic_condensation.hpp) the same direction from H̃ and g̃.
    const ElasticCondensation::Curvature curvature{configuration_view(s.config), h, exact_curvature, rope_curvature};
    const bool condensed = use_condensation(m, o, linear, rows, rope_curvature, s.condensation, capture, newton) &&
                           s.condensation.factor(m, rows, s.inv_mass, o.regularization, o.elastic_factorization,
                                                 exact_curvature || rope_curvature ? &curvature : nullptr);
    if (condensed) ++report.condensed_iterations;
    condensed_last = condensed;
    const VecX& g_dir = set_up_direction(sys, condensed, s);
    report.timings.assembly += ms_since(ta);

    auto ts = Clock::now();
    it.linear_residual_offset = static_cast<int>(trace.linear_residuals.size());
    const int analyses_before = s.linear.direct.analyses();
    it.linear_forcing = forcing.tolerance(newton_tolerance_ratio(it, o.newton_tolerance, o.newton_velocity_tolerance));
    // PCR on the device where one is set and takes this system (sim/device_linear_solver.hpp);
    // a device error is reported and the solve done on the CPU.
    LinearSolveStats ls;
    const DeviceSolveOutcome on_device =
        s.device_solver && linear == LinearSolver::PCR
            ? solve_pcr_on_device(*s.device_solver, sys, s.b, s.x, linear_budget, it.linear_forcing, s.device,
                                  &trace.linear_residuals, ls)
            : DeviceSolveOutcome::NotTaken;
    if (on_device == DeviceSolveOutcome::Failed) {
      report.warnings |= kStepLinearFallback;
      ++report.linear_fallbacks;
      report.message = "device linear solve failed (" + s.device.error + "); solved on the CPU";
    }
    if (on_device != DeviceSolveOutcome::Solved)
      ls = solve_linear(linear, sys, s.b, s.x, linear_budget, it.linear_forcing, o.jacobi_weight, s.linear,
                        &trace.linear_residuals);
    trace.direct_analyses += s.linear.direct.analyses() - analyses_before;
    it.linear_breakdown = static_cast<int>(ls.breakdown);
    if (ls.breakdown == LinearBreakdown::Cancelled) {
      sys.set_condensation(nullptr);
      report.flags |= kStepCancelled;
      report.linear_iterations += ls.iterations;
      trace.iterations.push_back(it);
      report.timings.solve += ms_since(ts);
      break;
    }
    const VecX* g_used = &g_dir;
    if (needs_fallback(linear, ls.breakdown)) {
      // Redo the solve with Gauss–Seidel (on the plain system) and say so in the trace and the report.
      if (condensed) g_used = &set_up_direction(sys, false, s);
      report.warnings |= kStepLinearFallback;
      ++report.linear_fallbacks;
      it.linear_fallback = true;
      report.linear_iterations += ls.iterations;
      it.linear_residual_offset = static_cast<int>(trace.linear_residuals.size());
      ls = solve_linear(LinearSolver::GaussSeidel, sys, s.b, s.x, linear_budget, o.linear_tolerance,
                        o.jacobi_weight, s.linear, &trace.linear_residuals);
      if (ls.breakdown == LinearBreakdown::NonFinite) {
        report.flags |= kStepLinearSolveFailed;
        report.message = std::string("linear solve broke down (") + to_string(static_cast<LinearBreakdown>(it.linear_breakdown)) +
                         ") and its Gauss-Seidel fallback gave non-finite values";
        flag_rows(rows, o, report);
        trace.iterations.push_back(it);
        report.timings.solve += ms_since(ts);
        break;
      }
    }
    // A direction from an exactly solved system is the Newton direction: slow progress is then
    // the non-smooth Newton's own, which more iterations may overcome (a stall is not declared).
    if (capture && capture->system_iteration == newton) capture_system(*capture, sys, s.b, s.x, newton);
    linear_exact = ls.final_residual <= Real(1e-8) * ls.initial_residual;
    it.linear_iterations = ls.iterations;
    it.linear_initial_residual = ls.initial_residual;
    it.linear_final_residual = ls.final_residual;
    report.linear_iterations += ls.iterations;
    report.timings.solve += ms_since(ts);

    auto tu = Clock::now();
    sys.jt(s.x, s.jt);
    parallel_for(dofs, [&](int k) { s.dofs1[k] = s.jt[k] - (*g_used)[k]; });
    sys.inv_h(s.dofs1, s.hinv);  // Δu
    if (sys.condensation()) recover_condensed_rows(sys, s);
    sys.set_condensation(nullptr);
    parallel_for(rows.count, [&](int i) { s.dlambda[i] = s.x[i] / h; });
    if (!s.hinv.allFinite() || !s.dlambda.head(rows.count).allFinite()) {
      report.flags |= kStepNonFinite;
      for (int i = 0; i < rows.count && report.offending_rows.size() < 16; ++i)
        if (!std::isfinite(s.x[i])) report.offending_rows.push_back(i);
      trace.iterations.push_back(it);
      report.timings.assembly += ms_since(tu);
      break;
    }

    // Step length (eqs. 61-62): the paper's fixed t, or a backtracking line search from t = 1 on
    // the merit function (solver/newton_residuals.hpp): the first t of 1, ½, ¼, … >= kMinStep
    // whose merit falls by the Armijo fraction is taken. Where none does (the direction is not a
    // descent direction: the paper's symmetric system is not the exact Jacobian of the
    // non-smooth residual, and redundant contacts make it singular), a watchdog step of the
    // paper's t = damping is taken to explore; the iterate with the lowest merit is kept aside
    // and is the step's result if the exploration does not beat it. So the result is never
    // worse than any earlier iterate. The evaluation of the taken point is the next iteration's
    // measurement.
    s.u_base = s.u;
    s.g_prev = s.g;
    std::copy(rows.row_lambda.begin(), rows.row_lambda.end(), s.lambda_base.data());
    const Real merit0 = it.merit;
    Real t = o.line_search ? Real(1) : o.damping;
    NewtonIterationTrace next;
    int trials = 0;
    bool watchdog = false;
    bool carry = false;  // this trial carries the force cut off the cones into slip
    for (;;) {
      ++trials;
      parallel_for(dofs, [&](int k) { s.u[k] = s.u_base[k] + t * s.hinv[k]; });
      parallel_for(rows.count, [&](int i) { rows.row_lambda[i] = s.lambda_base[i] + t * s.dlambda[i]; });
      bool cut = false;
      if (o.project_friction && o.ncp == NcpFunction::FischerBurmeister) {
        if (o.line_search)
          for (int i = rows.first_friction; i < rows.count; ++i) s.friction_excess[i] = rows.row_lambda[i];
        project_friction_onto_cone(contacts, rows);
        if (o.line_search) cut = carry_friction_excess_into_velocity(sys, h, contacts, s, carry);
      }
      next = NewtonIterationTrace{};
      finite = evaluate_iterate(ctx, s, next);
      if (!o.line_search || watchdog) break;
      if (finite && next.merit <= (Real(1) - 2 * kArmijoFraction * t) * merit0) break;
      if (cut && !carry) {  // the same t again, the cut force carried into slip
        carry = true;
        continue;
      }
      carry = false;
      t *= Real(0.5);
      if (t < kMinStep) {
        watchdog = true;
        t = o.damping;
      }
    }
    if (o.line_search && finite && next.merit < s.best_merit) keep_best(s, next.merit);
    if (watchdog) linear_budget = std::min(2 * linear_budget, linear_budget_max);
    forcing.step_taken(!watchdog && t == Real(1));
    if (s.best_merit < Real(0.9) * stall_reference) {
      stall_reference = s.best_merit;
      stalled = 0;
      improved = true;
    } else if (improved && linear_budget == linear_budget_max && !linear_exact) {
      ++stalled;
    }
    parallel_for(dofs, [&](int k) { s.du_prev[k] = t * s.hinv[k]; });
    it.step_size = t;
    it.line_search_trials = trials;
    it.watchdog = watchdog;
    trace.iterations.push_back(it);
    it = next;
    ++newton;
    report.timings.assembly += ms_since(tu);
  }
  // The line search's result is the best iterate: back to it if a watchdog step ended worse
  // (re-evaluated, so the rows, forces and residuals describe the result).
  if (o.line_search && report.flags == kStepOk && s.best_merit < it.merit) {
    s.u = s.u_best;
    std::copy(s.lambda_best.data(), s.lambda_best.data() + rows.count, rows.row_lambda.begin());
    it = NewtonIterationTrace{};
    evaluate_iterate(ctx, s, it);
    converged = o.newton_tolerance > 0 && newton_converged(it, o.newton_tolerance, o.newton_velocity_tolerance);
    trace.returned_to_best = true;
    trace.iterations.back() = it;  // the trace ends with the measurement of the result
    if (capture) capture_iterate(*capture, rows, s.u, it, /*replace_last=*/true);
  }
  if (capture) {
    for (std::size_t k = trace_first; k < trace.iterations.size() && k - trace_first < capture->iterates.size(); ++k) {
      IterationTrace& t = capture->iterates[k - trace_first].trace;
      t = trace.iterations[k];
      t.linear_residual_offset -= static_cast<int>(linear_first);
    }
    capture->linear_residuals.assign(trace.linear_residuals.begin() + static_cast<std::ptrdiff_t>(linear_first),
                                     trace.linear_residuals.end());
    capture->returned_to_best = trace.returned_to_best;
  }
  count_solve(o, newton, converged, trace, report);

  auto ti = Clock::now();
  if (report.flags != kStepOk) {
    if (report.message.empty())
      report.message = (report.flags & kStepCancelled)  ? "cancelled during Newton iteration " + std::to_string(newton + 1)
                       : (report.flags & kStepNonFinite) ? "non-finite values in the Newton iteration"
                                                         : "residual exploded above divergence_limit";
    report.timings.integrate += ms_since(ti);
    return;  // the caller rolls the state back to the step's start
  }
  // The rows are evaluated at the result (the last accepted iterate).
  if (!accept_result(m, o, rows, it, trace, report)) {
    report.timings.integrate += ms_since(ti);
    return;  // rolled back by the caller, as a diverged step
  }

  commit_step(m, o, h, contacts, s, state);
  report.timings.integrate += ms_since(ti);
}

}  // namespace sim
