// Every option of the step's solvers, selectable at run time: which solver runs (SolverKind, the
// seam of solver/step_solver.hpp), the non-smooth Newton solver's options (paper §3-§8,
// Appendix A; defaults are the paper's, §8, §10), the projected Gauss–Seidel solver's, and the
// options every solver shares (tolerances, substeps, contact margin, depenetration, blow-up).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/math.hpp"

namespace sim {

enum class NcpFunction { FischerBurmeister, MinMap };                 // Appendix A, eqs. 93-98
enum class Preconditioner { Identity, TimeStepSquared, EffectiveMass };  // §8.1, eq. 66
// §8.2. Auto: per step, the direct solver on articulated systems with few contacts, PCR
// otherwise (resolve_linear_solver, solver/linear_solvers.hpp).
enum class LinearSolver { PCR, PCG, Jacobi, GaussSeidel, Direct, Auto };
// The factorisation of the condensed elastic system H̃ (condense_elastic): simplicial sparse LDLᵀ
// (Eigen), supernodal Cholesky (CHOLMOD), or Auto: supernodal from 2,000 condensed dofs on
// (solver/elastic_condensation.hpp, kSupernodalDofs).
enum class ElasticFactorization { Simplicial, Supernodal, Auto };

// Which solver step() runs (docs/ARCHITECTURE.md, "The solver seam"). Adding one: a value here,
// its name in to_string (core/solver_options.cpp), a StepSolver and its line in make_step_solver
// (solver/step_solver.cpp).
enum class SolverKind {
  NonSmoothNewton,       // "nsn": the paper's non-smooth Newton method (solver/newton_solver.cpp)
  ProjectedGaussSeidel,  // "pgs": velocity-level projected Gauss–Seidel over the same rows (solver/pgs_solver.cpp)
  DualAscent,            // "dual": XPBD-style dual ascent, Jacobi with mass splitting (solver/dual_ascent_solver.cpp)
  PrimalDescent,         // "primal": penalty forces, block-Jacobi preconditioned descent (solver/primal_descent_solver.cpp)
};
inline constexpr SolverKind kSolverKinds[] = {SolverKind::NonSmoothNewton, SolverKind::ProjectedGaussSeidel,
                                              SolverKind::DualAscent, SolverKind::PrimalDescent};

struct SolverOptions {
  SolverKind kind = SolverKind::NonSmoothNewton;
  NcpFunction ncp = NcpFunction::FischerBurmeister;
  Preconditioner preconditioner = Preconditioner::EffectiveMass;
  LinearSolver linear_solver = LinearSolver::Auto;
  // Newton iterations stop when every residual is within tolerance (solver/newton_residuals.hpp):
  // position rows (joints, distances, limits, contact normals) and the complementarity
  // |min(C, rλ)| within newton_tolerance [m or rad]; velocity rows (drives, friction) and the
  // momentum error |M⁻¹g| within newton_velocity_tolerance [m/s or rad/s]; or at
  // newton_iterations (the cap: a step that reaches it above tolerance is reported as not
  // converged). newton_tolerance = 0 runs exactly newton_iterations (the paper's fixed budget).
  // The two tolerances are every solver kind's: the projected Gauss–Seidel solver stops on them
  // too (at pgs_iterations).
  int newton_iterations = 16;       // iteration cap per step (substep)
  // Linear iterations per Newton iteration. 40, twice the paper's 20: with 20 the directions on
  // hard contact scenes are too inexact for the line search (bench, 300 steps, against the paper's
  // fixed protocol 6 x 20 PCR, t = 0.75): friction_spread ended at complementarity 2.6e-5 m
  // (paper 3.4e-6), at 40 3.6e-8 m; pyramid friction 3.5e-5 -> 5.9e-6 m/s, rope 7.5e-3 ->
  // 2.3e-3 m/s; sdf_bowl needs 3.3 Newton iterations a step where it needed 12.3.
  int linear_iterations = 40;
  // Inexact Newton (with the line search): a Newton iteration whose direction no step length
  // could accept (a watchdog step) solves the next system with twice the linear budget, up to
  // linear_iterations_max (<= linear_iterations: a fixed budget, the default). A scene that sets
  // a smaller budget (table_pile, arch: 20) escalates to 40: table_pile complementarity
  // 1.7e-3 m (paper's protocol) -> 1.2e-3 m. 40 and not more: at 80 a Fetch grip closing while
  // its fingers touch the table pressed 183 N in one unconverged step (90 N link limit) where 40
  // holds it to 73 N (test_teleop_pick_place.cpp).
  int linear_iterations_max = 40;
  // With the line search: stop (not converged) once the lowest merit has not fallen by 10% over
  // this many Newton iterations at the full linear budget with inexact linear solves (the
  // directions are what limits progress); the result is that best iterate (0: off, the default:
  // a stall stop let cloth dip 10 mm into a cone where running to the cap holds it to 8 mm).
  int newton_stall_iterations = 0;
  Real newton_tolerance = Real(1e-6);          // [m or rad] (0: always newton_iterations)
  Real newton_velocity_tolerance = Real(1e-5); // [m/s or rad/s]
  Real linear_tolerance = 0;        // relative residual to stop the linear solve early (0: never)
  // Inexact Newton forcing (solver/inexact_newton_forcing.hpp) for the Krylov linear solvers
  // (pcr, pcg): a Newton iteration's linear solve stops once its residual is below η·‖b‖ (or at
  // linear_iterations), η = 0.1 / ρ kept within [linear_tolerance, linear_forcing_max], where ρ
  // is the iterate's largest residual over its Newton tolerance: no solve more accurate than
  // the stopping test needs (resting and slowly moving scenes, the last iterations of a solve);
  // far from the tolerance, and for the rest of a step once its line search shortened a step,
  // solves run to linear_tolerance or the budget as without forcing. 0: off, the default (every
  // solve to linear_tolerance or the budget): the forcing moves knife-edge stick-slip onsets
  // (a box under a slowly ramped push held 5% past its friction ellipse; docs/ARCHITECTURE.md).
  Real linear_forcing_max = 0;
  // Step length of each Newton update (eqs. 61-62): a backtracking line search from t = 1 on the
  // merit ½gᵀM⁻¹g + ½Σh²/k (no accepted iteration ends worse than the last), or, with
  // line_search = false, the paper's fixed t = damping (§8.1) for paper comparisons.
  bool line_search = true;
  Real damping = Real(0.75);        // fixed Newton step t when line_search is off
  // The merit's friction term: on (the default), the contact's natural-map error
  // e = r|λ_f − proj(λ_f − Dᵀu/r)|, the quantity the convergence test reads; off, each friction
  // row's NCP residual φ_f = Dᵀu + Wλ_f (eqs. 99-106). φ_f jumps at the cone's tip: as μλ_n leaves
  // 0 the row goes from the inactive residual rλ_f to the full slip (W at its cap, λ_f still 0),
  // so a direction that gives a sliding contact its first load reads as an ascent direction
  // however short the step; and on a sliding contact whose load moves (a box sliding flat: its
  // friction tilts the load to the leading edge) a direction that changes λ_n at the frozen W
  // changes φ_f by the slip times Δλ_n/λ_n, so the line search finds no descent near the solution
  // (59 of 60 steps of a sliding 0.2 m cube above tolerance). e is continuous and small there
  // (solver/newton_residuals.hpp; docs/benchmarks.md "Friction merit at the cone's tip").
  bool friction_merit_natural_map = true;
  Real regularization = Real(1e-6); // ε identity shift of the Schur complement, §8.4
  // The gyroscopic term of ũ (eq. 46): on (the default), one Newton iteration of backward Euler
  // on Euler's equations, which never adds kinetic energy; off, the paper's explicit term, which
  // spins up a body rotating off its principal axes until the step blows up
  // (kernels/body_kernels.hpp implicit_gyroscopic_step; docs/benchmarks.md "Gyroscopic term").
  bool implicit_gyroscopic = true;
  bool warm_start = true;           // start from last step's u and λ (false: u = 0, λ = 0, eqs. 67-68)
  bool geometric_stiffness = true;  // diagonal approximation, eqs. 71-74 (particle dofs)
  // With geometric_stiffness and the elastic rows condensed (condense_elastic, pcr/pcg): each tet's,
  // membrane triangle's and hinge's exact constraint curvature −Σλ∂²m/∂x² (eq. 53's K), projected
  // positive semi-definite, joins H̃ in place of the diagonal secant on their particles, so H̃ is
  // the elastic energy's Hessian (solver/elastic_condensation.hpp). Stretched sheets and squeezed
  // soft bodies converge where the secant oscillates (Fig. 12); it costs a finite-difference
  // Hessian per element per Newton iteration (docs/benchmarks.md).
  bool element_geometric_stiffness = false;
  // With geometric_stiffness, condense_elastic and pcr/pcg: each rope link's (a distance row whose
  // particles are each in at most two: chains, not cloth) exact curvature −λ ∂²C/∂x² =
  // −(λ/l)[I − nnᵀ, −(I − nnᵀ); −(I − nnᵀ), I − nnᵀ] (eq. 53's K of C = |x_b − x_a| − L; a link in
  // tension, λ < 0, is stiff across itself by its tension over its length) joins a factorised H̃ in
  // place of the diagonal secant on the links' particles (solver/elastic_condensation.hpp). The
  // secant of eqs. 71-74 keeps only the diagonal of this coupling: a swinging rope's momentum
  // residual then falls about 0.7× a Newton iteration and a quarter of its steps at dt 8.3 ms reach
  // the cap (docs/benchmarks.md "Rope geometric stiffness").
  bool rope_geometric_stiffness = true;
  // Solve each Newton direction with the FEM rows (tets, membranes, hinges) condensed into the
  // particles' mass block, H̃ = H + J_Eᵀ C_E⁻¹ J_E, factorised (sparse LDLᵀ): the same direction as
  // the plain Schur system, which stiff elements leave nearly singular (solver/elastic_condensation.hpp).
  // With the Krylov linear solvers (pcr, pcg) only.
  bool condense_elastic = true;
  ElasticFactorization elastic_factorization = ElasticFactorization::Auto;
  bool project_friction = true;     // FB: clamp λ_f onto its cone after each Newton update (safeguard)
  Real jacobi_weight = Real(0.5);   // relaxation ω of the Jacobi linear solver
  // Projected Gauss–Seidel (kind = pgs, solver/pgs_solver.cpp): sweeps per step (the cap; it
  // stops earlier within the tolerances above) and the relaxation ω of each row's update.
  int pgs_iterations = 100;
  Real pgs_relaxation = Real(1);
  // Dual ascent (kind = dual, solver/dual_ascent_solver.cpp; Macklin et al. 2020 §3): iterations
  // per step (the cap; it stops earlier within the tolerances above), the step ω of each
  // multiplier's update (eq. 20's α, on top of the mass splitting), and Gauss–Seidel ordering
  // instead of the paper's parallel Jacobi.
  int dual_iterations = 100;
  Real dual_relaxation = Real(1);
  bool dual_gauss_seidel = false;
  bool dual_consistent = false;
  // Primal descent (kind = primal, solver/primal_descent_solver.cpp; Macklin et al. 2020 §2, §5-6):
  // iterations per step (the cap), the step α of eq. 7 (the paper's 0.5), the penalty stiffness of
  // rows without compliance (joints, rigid distances) [N/m or N m/rad], of contact normals and
  // limits (k_n of eq. 27, p = 2) [N/m] and of friction on the slip over the step (k_f, digest §6)
  // [N/m]. The paper's scenes use k_n = k_f (1e4 to 1e8); a k_n/k_f of 100 lets contacts slip.
  int primal_iterations = 100;
  Real primal_step = Real(0.5);
  Real primal_stiffness = Real(1e8);
  Real primal_contact_stiffness = Real(1e8);
  Real primal_friction_stiffness = Real(1e8);
  int substeps = 1;                 // steps of dt/substeps per call of step()
  // A step that fails (a blow-up, a diverged or broken-down solve: any StepFlags but invalid input
  // and cancel) is undone and taken again with twice the substeps, up to this many times (each
  // retry halves h again); a step that passes on a retry is reported with kStepRetried and the
  // failure it recovered from. 0: off, the failure stands (and the next step starts from the same
  // state, where it usually fails again). A retry costs about the step's time times its substeps.
  int step_retries = 2;
  Real contact_margin = Real(0.01); // contacts are created within this gap [m]
  // A contact already penetrating at the step's start is asked to recover at most this speed
  // times h per step, and never to penetrate further (0: hold the depth; inf: close the whole
  // gap in one step, eq. 9 as printed) [m/s]. See relax_initial_penetration (newton_solver.cpp).
  Real max_depenetration_velocity = Real(1);
  Real divergence_limit = Real(1e8);// residual above this marks the step diverged
  // Blow-up detector (joint rows after the solve, solver/joint_error_check.cpp): a
  // step whose result leaves a joint's rotational row violated by more than this angle [rad], or
  // a positional row by more than this fraction of the larger jointed body's bounding radius, is
  // flagged kStepJointViolated and not taken (inf: off).
  Real joint_angle_error_limit = Real(0.05);
  Real joint_position_error_limit = Real(0.25);
  // Blow-up detector for free motion (pipeline/state_bounds_check.cpp): a step whose result puts
  // a body's centre of mass or a particle farther than world_bound from the origin on any axis
  // [m], or moves one faster than speed_limit [m/s] (or a body spins faster than
  // angular_speed_limit [rad/s]), is flagged kStepOutOfBounds, names the body or particle and is
  // undone; a state entering the step beyond them is refused the same way (inf: off). Defaults
  // far beyond a sane scene: 10 km, 1 km/s (a rifle bullet), 10^4 rad/s (95,000 rpm).
  Real world_bound = Real(1e4);
  Real speed_limit = Real(1e3);
  Real angular_speed_limit = Real(1e4);
};

std::string_view to_string(SolverKind v);
// One line for help texts and the UI: what the kind is.
std::string_view describe(SolverKind v);
// The iteration cap of the selected kind: newton_iterations (NSN), pgs_iterations (PGS) or
// dual_iterations (dual ascent) or primal_iterations (primal descent).
int iteration_cap(const SolverOptions& options);
// Sets that cap (the sweep of `coulomb bench --sweep` gives every kind the same budget).
void set_iteration_cap(SolverOptions& options, int cap);
std::string_view to_string(NcpFunction v);
std::string_view to_string(Preconditioner v);
std::string_view to_string(LinearSolver v);
std::string_view to_string(ElasticFactorization v);

// Sets one option by its key as used in scene files and `--set solver.key=value`
// (e.g. "kind=pgs", "ncp=min_map", "linear_solver=pcg", "newton_iterations=8"). Returns an error message,
// empty on success.
std::string set_solver_option(SolverOptions& options, std::string_view key, std::string_view value);

// The value of one option as set_solver_option reads it (for files and the UI); "" for an unknown key.
std::string get_solver_option(const SolverOptions& options, std::string_view key);

// The keys set_solver_option understands, for help texts and the UI.
std::vector<std::string> solver_option_keys();

// Every option is one line of the table in core/solver_options.cpp (key, field, range): a new
// option is a field here and its line there; the scene reader and writer, recordings, `--set`
// and the app's property view go through these three functions.

}  // namespace sim
