// Filling a SolveCapture (sim/solve_capture.hpp) from inside the Newton solve: the rows'
// structure once per solve, every measured iterate, and the Newton system of one iteration.
// Called only when a capture was asked for (Workspace::capture): the step loop of a run without
// one neither allocates nor copies anything for it.
#pragma once

#include "constraint/rows.hpp"
#include "sim/solve_capture.hpp"
#include "solver/schur_system.hpp"

namespace sim::detail {

// Starts the capture of a solve (forgets an earlier substep's): the rows' kinds, sources and
// nodes, r (eq. 66), and the counts.
void capture_solve_begin(SolveCapture& c, const Model& m, const RowSet& rows, int contact_count);

// Appends the iterate the Newton iteration measured: u, and each row's λ, residual, W and
// active/slipping flag, with the iteration's scalars. With `replace_last` it overwrites the last
// one (the solve returned to its best iterate and measured it again).
void capture_iterate(SolveCapture& c, const RowSet& rows, const VecX& u, const IterationTrace& it,
                     bool replace_last = false);

// Keeps the Newton system A x = b of `iteration` (eq. 59) as sparse triplets: J, the block
// diagonal H⁻¹ (with the geometric-stiffness shift), C + εI, b and the solution x.
void capture_system(SolveCapture& c, const SchurSystem& sys, const VecX& b, const VecX& x, int iteration);

}  // namespace sim::detail
