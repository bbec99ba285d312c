// The one-line explanation of a failed step (issue 15 item 6): from the step's report and the
// capture of its solve (sim/solve_capture.hpp), which rows went wrong (kind, bodies), at which
// Newton iteration, and whether their values went non-finite or grew. A pure function (no ImGui):
// the simulation thread computes it once when it re-runs a failed step with a capture, the Solve
// capture panel shows it and highlights its rows.
#pragma once

#include <string>
#include <vector>

#include "sim/model.hpp"
#include "sim/solve_capture.hpp"
#include "sim/trace.hpp"

namespace ui {

struct SolveDiagnosis {
  std::vector<int> rows;        // the offending rows (indices into the capture's rows), worst first
  std::vector<int> bodies;      // their bodies, ascending, no repeats
  int worst_row = -1;           // rows.front(), or -1 when the step was refused before any solve
  int iteration = -1;           // the captured iterate where it went wrong (first non-finite, else the last)
  bool non_finite = false;      // a value went NaN or inf (else it grew past the divergence limit, or a
                                // joint opened / a body left the bounds after the solve)
  std::string explanation;      // one line: what, which row kind, which bodies, where
};

// "body 'a'" / "particle 3" for a node of the rows (bodies first, then particles).
std::string node_name(const sim::Model& model, int node);

// The joint a captured row belongs to (drive and limit rows, bilateral rows on bodies only), or
// -1 (contact, distance, FEM element rows).
int row_joint(const sim::Model& model, const sim::SolveCapture& capture, int row);

// Explains `report` (a failed step) with the capture of its solve; `capture.filled` false (the
// step was refused before its solve: non-finite input) explains it with the report's message.
SolveDiagnosis diagnose_failed_step(const sim::Model& model, const sim::SolveCapture& capture,
                                    const sim::StepReport& report);

// A step that did not fail, kept by a capture trigger (`why`: "kept because its residual 0.002 is
// above 0.001"): its worst row at the last iterate, highlighted like a failure's offending row.
SolveDiagnosis describe_captured_step(const sim::Model& model, const sim::SolveCapture& capture, const std::string& why);

}  // namespace ui
