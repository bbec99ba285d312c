// step(): advance a State by one time step: collision once per step -> contacts -> the solver of
// SolverOptions::kind (the non-smooth Newton method, Algorithm 1, by default) -> integrate.
// Nothing inside throws; numerical trouble is reported in the StepReport.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "sim/contact.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/trace.hpp"

namespace sim {

struct SolveCapture;   // the solver debugger's capture of a solve (sim/solve_capture.hpp)
class DeviceLinearSolver;  // another device's linear solve (sim/device_linear_solver.hpp)

namespace detail {
class StepSolver;     // the solver of options.kind with its scratch (solver/step_solver.hpp)
struct CollisionScratch;  // broadphase state (collision/collide.hpp)
}

// Everything derived or scratch, allocated on first use and reused: no allocation in step()
// after warm-up for a scene whose contact count does not grow.
struct Workspace {
  Workspace();
  ~Workspace();
  Workspace(Workspace&&) noexcept;
  Workspace& operator=(Workspace&&) noexcept;

  ContactBuffer contacts;                   // this step's contacts (frozen during the solve)
  std::vector<Real> contact_normal_force;   // λ_n per contact after the step [N]
  std::vector<Vec2> contact_friction_force; // λ_f per contact in (tangent1, tangent2) [N]
  std::vector<Real> joint_force;            // summed |λ| of each joint's rows [N or N m]
  SolverTrace trace;                        // per-iteration residuals of the last step's solver
  State step_start;                         // the state at the step's start, to undo a failed step
  // When set, step() records its input and the Newton solve's every iterate into it (the last
  // substep's solve; sim/solve_capture.hpp). Null (the default): nothing is recorded or allocated.
  SolveCapture* capture = nullptr;
  // When set, the solver reads it between iterations (Newton and linear, relaxed loads): once it
  // is true the step stops, is undone (the state as at its start) and reports kStepCancelled.
  // The app's quit and pause and the CLI's Ctrl+C raise it; the owner clears it.
  const std::atomic<bool>* cancel = nullptr;
  // When set (the CUDA backend), the Newton loop's PCR solves of at least its min_rows() rows run
  // on it (sim/device_linear_solver.hpp). Null (the default): every solve on the CPU.
  std::shared_ptr<DeviceLinearSolver> device_solver;

  std::unique_ptr<detail::StepSolver> solver;  // created for options.kind, re-created when it changes
  std::unique_ptr<detail::CollisionScratch> collision;
};

// Advances state by model.dt (in model.solver.substeps substeps).
StepReport step(const Model& model, State& state, const Control& control, Workspace& workspace);

// Same, with options overriding model.solver (the UI and the CLI's --set use this).
StepReport step(const Model& model, const SolverOptions& options, State& state,
                const Control& control, Workspace& workspace);

}  // namespace sim
