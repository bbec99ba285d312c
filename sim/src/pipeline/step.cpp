// step(): the pipeline of one time step, as a table of contents:
//   for each substep: collision (once, from the state at the substep's start, with a margin)
//                     -> the solve by the StepSolver of options.kind (solver/step_solver.hpp; NSN:
//                        rows, NCP, Schur system, linear solver)
//                     -> positions and velocities written back.
#include "sim/step.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "collision/collide.hpp"
#include "core/trace_bound.hpp"
#include "core/parallel.hpp"
#include "kernels/contact_kernels.hpp"
#include "pipeline/state_bounds_check.hpp"
#include "pipeline/step_input_check.hpp"
#include "solver/newton_solver.hpp"
#include "solver/step_solver.hpp"

namespace sim {

Workspace::Workspace() = default;
Workspace::~Workspace() = default;
Workspace::Workspace(Workspace&&) noexcept = default;
Workspace& Workspace::operator=(Workspace&&) noexcept = default;

StepReport step(const Model& model, State& state, const Control& control, Workspace& ws) {
  return step(model, model.solver, state, control, ws);
}

namespace {

// Contact forces and joint forces of the last solve, for overlays and read-outs.
void publish_forces(const Model& m, const ContactBuffer& contacts, const RowSet& rows, Workspace& ws) {
  const int n = contacts.size();
  ws.contact_normal_force.resize(n);
  ws.contact_friction_force.resize(n);
  const ContactLambdaView lambdas{rows.row_lambda.data(), rows.first_normal, rows.first_friction, n};
  parallel_for(n, [&](int c) {
    read_contact_force(lambdas, c, ws.contact_normal_force.data(), ws.contact_friction_force.data());
  });
  ws.joint_force.assign(m.joint_count, Real(0));
  for (int i = 0; i < rows.first_normal; ++i) {
    const RowKind k = rows.row_kind[i];
    if (k == RowKind::Bilateral && rows.row_sub[i] < 0) continue;  // particle distance rows
    ws.joint_force[rows.row_source[i]] += std::abs(rows.row_lambda[i]);
  }
}

// dst = src for a vector whose length follows the contact count (the warm start's): a copy
// assignment would reallocate to the exact length each time the count passes the capacity, so the
// capacity grows geometrically instead and is never given back.
template <class T>
void assign_keeping_capacity(const std::vector<T>& src, std::vector<T>& dst) {
  if (dst.capacity() < src.size()) dst.reserve(std::max(src.size(), 2 * dst.capacity()));
  dst.assign(src.begin(), src.end());
}

// ws.step_start = state, without allocating once the capacities cover the state's lengths. Field
// by field: the asserts fail when State or WarmStart gain a field this copy would miss.
static_assert(sizeof(WarmStart) == 3 * sizeof(std::vector<Real>));
static_assert(sizeof(State) == 3 * sizeof(std::vector<Real>) + sizeof(Real) + sizeof(std::int64_t) + sizeof(WarmStart));
void keep_step_start(const State& state, State& start) {
  assign_keeping_capacity(state.q, start.q);
  assign_keeping_capacity(state.u, start.u);
  start.time = state.time;
  start.step_index = state.step_index;
  assign_keeping_capacity(state.joint_position, start.joint_position);
  assign_keeping_capacity(state.warm_start.contact_key, start.warm_start.contact_key);
  assign_keeping_capacity(state.warm_start.contact_lambda, start.warm_start.contact_lambda);
  assign_keeping_capacity(state.warm_start.row_lambda, start.warm_start.row_lambda);
}

// The contacts a workspace is sized for before its first step, from the model: 16 per collision
// shape (a resting box has 4 to 8 against its support and as many against its neighbours, a
// mesh on an SDF up to 16) and one per particle. Only capacity: more contacts grow the buffers
// (geometrically, never shrinking), fewer leave them partly unused.
std::size_t expected_contacts(const Model& m) {
  return 16 * static_cast<std::size_t>(m.shape_count) + static_cast<std::size_t>(m.particle_count);
}

// The contact-sized buffers step() itself fills: the contacts, their forces and the warm start of
// the state and of the step's start copy.
void reserve_for_contacts(std::size_t n, State& state, Workspace& ws) {
  ws.contacts.contacts.reserve(n);
  ws.contact_normal_force.reserve(n);
  ws.contact_friction_force.reserve(n);
  for (WarmStart* w : {&state.warm_start, &ws.step_start.warm_start}) {
    w->contact_key.reserve(n);
    w->contact_lambda.reserve(3 * n);
  }
}

}  // namespace

StepReport step(const Model& model, const SolverOptions& options, State& state, const Control& control,
                Workspace& ws) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  StepReport report;
  if (static_cast<int>(state.q.size()) != model.coord_count() ||
      static_cast<int>(state.u.size()) != model.dof_count()) {
    report.flags |= kStepInvalidInput;
    report.message = "state does not match the model (" + std::to_string(state.q.size()) + " coordinates, model has " +
                     std::to_string(model.coord_count()) + ")";
    return report;
  }
  // NaN or inf entering the step (a file, a recording, an edit, a control) is refused here,
  // before collision detection derives anything from it.
  if (!detail::check_step_input(model, options, state, control, report)) return report;
  // The solver seam: one solver object per Workspace, made again only when the kind changes.
  if (!ws.solver || ws.solver->kind() != options.kind) ws.solver = detail::make_step_solver(options.kind);
  if (!ws.collision) {
    ws.collision = std::make_unique<detail::CollisionScratch>();
    reserve_for_contacts(expected_contacts(model), state, ws);
  }
  ws.trace.clear();
  ws.trace.kind = options.kind;

  const int asked_substeps = options.substeps > 0 ? options.substeps : 1;
  const int retries = step_retries_within_trace_bound(options);
  // The trace's worst case (every substep of the last retry at the iteration cap), reserved once:
  // a step that needs more iterations than the last allocates nothing.
  const detail::TraceCapacity cap = ws.solver->trace_capacity(options);
  const std::size_t most_substeps = static_cast<std::size_t>(asked_substeps) << retries;
  ws.trace.iterations.reserve(most_substeps * cap.iterations);
  ws.trace.linear_residuals.reserve(most_substeps * cap.linear_residuals);
  // A failed step is undone whole: the state at its start is kept (its vectors keep their
  // capacity in the Workspace, so the copy allocates nothing after warm-up) and restored.
  keep_step_start(state, ws.step_start);
  ws.solver->capture = ws.capture;
  ws.solver->cancel = ws.cancel;
  ws.solver->device_solver = ws.device_solver.get();
  StepReport first_failure;  // the step as asked, when it failed and was retried
  for (int attempt = 0;; ++attempt) {
    const int substeps = asked_substeps << attempt;
    const Real h = model.dt / substeps;
    if (ws.capture) {  // the step's input, to solve it again (coulomb solve-captured)
      ws.capture->clear_solve();
      ws.capture->start = state;
      ws.capture->control = control;
      ws.capture->options = options;
      ws.capture->options.substeps = substeps;
      ws.capture->h = h;
    }
    report.substeps = substeps;
    for (int sub = 0; sub < substeps; ++sub) {
      if (ws.capture) ws.capture->substep = sub;
      const auto tc = Clock::now();
      generate_contacts(model, state, h, options.contact_margin, *ws.collision, ws.contacts);
      report.timings.collision += std::chrono::duration<double, std::milli>(Clock::now() - tc).count();
      ws.solver->solve(model, options, h, state, control, ws.contacts, ws.trace, report);
      // The solver flags what its rows see; the bounds of free motion no row sees.
      if (report.ok()) detail::check_state_bounds(model, options, state, detail::BoundsCheckAt::StepResult, report);
      if (!report.ok()) {
        state = ws.step_start;
        if (substeps > 1) report.message += " (substep " + std::to_string(sub + 1) + " of " + std::to_string(substeps) +
                                            "; the whole step was undone)";
        break;
      }
    }
    // Taken again with h halved: a blow-up or a diverged solve, not bad input or a cancel.
    const bool retryable = !report.ok() && !(report.flags & (kStepInvalidInput | kStepCancelled));
    if (!retryable || attempt == retries) break;
    if (attempt == 0) first_failure = report;
    StepReport again;
    again.retries = attempt + 1;
    again.timings = report.timings;
    report = std::move(again);
    ws.trace.clear();
    ws.trace.kind = options.kind;
  }
  if (report.retries > 0) {
    if (report.ok()) {
      report.warnings |= kStepRetried;
      report.message = "retried with " + std::to_string(report.substeps) + " substeps after: " + first_failure.message;
    } else if (!(report.flags & kStepCancelled)) {  // a cancel during a retry stays a cancel
      // The failure of the step as asked (its flags, rows and message), and how far the retries went.
      first_failure.message += " (also with " + std::to_string(report.substeps) + " substeps, after " +
                               std::to_string(report.retries) + " retries)";
      first_failure.retries = report.retries;
      first_failure.timings = report.timings;
      report = std::move(first_failure);
    }
  }
  if (report.ok()) ++state.step_index;  // a failed step is not a step
  report.contact_count = ws.contacts.size();
  publish_forces(model, ws.contacts, ws.solver->rows(), ws);
  report.timings.total = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return report;
}

}  // namespace sim
