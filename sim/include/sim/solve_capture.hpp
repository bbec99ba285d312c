// Capture of one Newton solve for the solver debugger (issue 15): every iterate (u, λ), the
// residual, W, r and active/stick-slip state of every row at it, the solve's trace (step sizes,
// line-search trials, the linear solver's residual history) and, optionally, the Newton system of
// one iteration. With the step's input (the State at its start, the Control, the options) it is
// enough to re-solve the step headless and get the same iterates bit for bit
// (`coulomb solve-captured`), or another configuration's iterates for an A/B comparison.
//
// Capturing: set Workspace::capture to a SolveCapture before sim::step(); the step's solves
// (the non-smooth Newton solver; one per substep, the last one is kept) fill it. Nothing is
// recorded and nothing is allocated for it when Workspace::capture is null. A capture used again
// (the app's ring of the last N solves) keeps its buffers: once it has held a solve as large,
// capturing another allocates nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/result.hpp"
#include "sim/solver_options.hpp"
#include "sim/state.hpp"
#include "sim/trace.hpp"

namespace sim {

struct Model;

// The rows of the captured solve, in the solver's layout [bilateral | drive | limit | normal | friction].
struct CapturedRows {
  std::vector<std::int8_t> kind;     // RowKind (constraint/rows.hpp): row_kind_name() names it
  std::vector<int> source;           // joint, distance or contact index of the row
  std::vector<std::int8_t> sub;      // which row of its source
  std::vector<Real> r;               // complementarity preconditioner r (eq. 66)
  std::vector<int> node_first;       // CSR offsets into node (count + 1)
  std::vector<int> node;             // the row's nodes: bodies 0..body_count-1, then particles
  int count() const { return static_cast<int>(kind.size()); }
};

// One iterate of the solve, as the Newton iteration measured it (before its update).
struct CapturedIterate {
  IterationTrace trace;              // the scalars of the iteration (residuals, merit, t, trials)
  std::vector<Real> u;               // generalized velocities (State::u layout)
  std::vector<Real> lambda;          // multipliers per row [N or N m]
  std::vector<Real> residual;        // per row in the row's units: |c + eλ|, |φ_n|, friction error
  std::vector<Real> w;               // W of eq. 106 (friction rows; 0 elsewhere)
  std::vector<std::int8_t> active;   // normal/limit: NCP active; friction: slipping
};

// The Newton system of one iteration (eq. 59), A x = b with A = J H⁻¹ Jᵀ + C + εI, and the
// solution x = hΔλ the linear solver returned (with the iteration's linear residual |b − A x|).
struct CapturedSystem {
  int iteration = -1;                // Newton iteration it belongs to (-1: none captured)
  int rows = 0, dofs = 0;
  std::vector<int> j_row, j_col;     // J (NCP-scaled rows) as triplets
  std::vector<Real> j_value;
  std::vector<int> hinv_row, hinv_col;  // H⁻¹ (block diagonal: 6x6 per body, 3x3 per particle)
  std::vector<Real> hinv_value;
  std::vector<Real> c_diagonal;      // C + εI (diagonal)
  std::vector<Real> b, x;
};

struct SolveCapture {
  // What to capture (set before the step).
  int system_iteration = -1;         // also keep the Newton system of this iteration (-1: none)

  // The step's input (filled by sim::step): enough to solve it again.
  State start;
  Control control;
  SolverOptions options;
  Real h = 0;                        // the solve's step length (dt / substeps)
  int substep = 0;                   // which substep this solve was

  // The solve.
  int body_count = 0, particle_count = 0, contact_count = 0;
  CapturedRows rows;
  std::vector<CapturedIterate> iterates;  // one per Newton iteration, then the result's measurement
  std::vector<Real> linear_residuals;     // SolverTrace::linear_residuals of this solve
  bool returned_to_best = false;
  bool filled = false;               // a solve was captured
  CapturedSystem system;

  // Buffers of iterates forgotten by clear_solve(), reused by the next solve's iterates (so a
  // reused capture does not free and allocate its per-row arrays again). Not part of the solve.
  std::vector<CapturedIterate> spare_iterates;

  void clear_solve();                // forget the solve, keep what to capture (and the buffers)
  std::size_t bytes() const;         // heap memory held (capacities, spare buffers included)
};

const char* row_kind_name(int kind);  // "bilateral", "drive", "limit", "normal", "friction"

// Saves a capture into `folder` (created if missing): step.rec (the step's input as a one-step
// session recording of `scene_file`), capture.json (metadata, rows, per-iteration scalars, for
// people and tools) and iterates.bin (the per-row arrays, little-endian doubles). Every file is
// written atomically. With a system, system_J.mtx, system_Hinv.mtx, system_C.mtx, system_b.mtx
// and system_x.mtx in Matrix Market format.
Result<bool> save_capture(const SolveCapture& capture, const Model& model, const std::string& scene_file,
                          const std::string& folder);

// Loads the per-iteration arrays of a saved capture (iterates.bin; bounded by docs/LIMITS.md).
Result<SolveCapture> load_capture_iterates(const std::string& folder);

// Compares two captures' iterates bit for bit. Returns "" when identical, else where they first
// differ ("iteration 3: lambda[17] 0.25 != 0.2500001").
std::string compare_captures(const SolveCapture& a, const SolveCapture& b);

}  // namespace sim
