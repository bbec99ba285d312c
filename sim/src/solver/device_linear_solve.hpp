// A Newton iteration's PCR solve handed to Workspace::device_solver (sim/device_linear_solver.hpp):
// the SchurSystem's arrays passed as they are (row entries, node adjacency, H⁻¹), C + εI gathered
// into a kept buffer (no allocation once it has the rows' capacity), the device's figures turned
// into LinearSolveStats. Only the plain system (no elastic condensation: its H̃⁻¹ is a sparse
// factor on the CPU) of at least the device's min_rows() is taken.
#pragma once

#include <string>
#include <vector>

#include "sim/device_linear_solver.hpp"
#include "solver/linear_solvers.hpp"
#include "solver/schur_system.hpp"

namespace sim::detail {

struct DeviceSolveScratch {
  std::vector<Real> c_diagonal;  // C + εI per row
  std::string error;             // the device's last error
};

enum class DeviceSolveOutcome { NotTaken, Solved, Failed };

// Solves A x = b with PCR on `device` when it takes the system; NotTaken (nothing done) or
// Failed (a device error, in s.error; x undefined) leave the solve to the CPU.
DeviceSolveOutcome solve_pcr_on_device(DeviceLinearSolver& device, const SchurSystem& A, const VecX& b, VecX& x,
                                       int iterations, Real tolerance, DeviceSolveScratch& s,
                                       std::vector<Real>* history, LinearSolveStats& stats);

}  // namespace sim::detail
