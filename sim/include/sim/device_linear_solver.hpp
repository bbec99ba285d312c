// The seam through which step() hands a Newton iteration's linear solve to another device (the
// CUDA backend's PCR, sim/cuda/cuda_linear_solver.hpp): the plain Schur system of eq. 59 as host
// arrays in the solver's own layout, A = J H⁻¹ Jᵀ + C + εI over the rows' (node, block) entries,
// and the figures PCR reports. Set through Workspace::device_solver; the Newton loop uses it for
// PCR solves of the plain (uncondensed) system of at least min_rows() rows and solves on the CPU
// otherwise, or when the device reports an error (then with kStepLinearFallback and a message).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/math.hpp"

namespace sim {

// Host memory, valid for the call. Nodes: bodies (6 dofs each), then particles (3).
struct SchurSystemArrays {
  int rows = 0, entries = 0, body_count = 0, particle_count = 0;
  const int* row_entry_first = nullptr;     // (rows + 1)
  const int* entry_node = nullptr;          // (entries)
  const int* entry_dof = nullptr;           // (entries) first dof of the entry's node
  const std::int8_t* entry_width = nullptr; // (entries) 6 or 3
  const Vec6* entry_jac = nullptr;          // (entries) J's block
  const int* node_entry_first = nullptr;    // (nodes + 1): node -> entries, in row order
  const int* node_entries = nullptr;        // (entries)
  const int* node_entry_rows = nullptr;     // (entries)
  const Real* body_inv_mass = nullptr;      // (body_count)
  const Mat3* body_inv_inertia = nullptr;   // (body_count) world frame
  const Real* particle_inv_mass = nullptr;  // (3 particle_count) per dof
  const Real* c_diagonal = nullptr;         // (rows) C + εI
};

// As LinearSolveStats; breakdown as sim::LinearBreakdown (0 none, 1 non-positive curvature or
// diagonal, 2 non-finite, 3 stagnated).
struct DeviceLinearStats {
  int iterations = 0;
  Real initial_residual = 0;
  Real final_residual = 0;
  int breakdown = 0;
};

class DeviceLinearSolver {
 public:
  virtual ~DeviceLinearSolver() = default;
  // "CUDA: NVIDIA H200 (sm_90)": what the Stats panel and the CLI name.
  virtual std::string description() const = 0;
  // Systems below this many rows stay on the CPU (where launch latency outweighs the device).
  virtual int min_rows() const = 0;
  // PCR from x = 0 (eq. 69's norm, the CPU pcr's recurrences): at most `iterations`, or until
  // ‖b − A x‖_P <= tolerance ‖b‖_P; x and b hold a.rows entries; one residual per iteration is
  // appended to `history` (may be null). False on a device error, with `error` set (x undefined).
  virtual bool solve_pcr(const SchurSystemArrays& a, const Real* b, Real* x, int iterations, Real tolerance,
                         DeviceLinearStats& stats, std::vector<Real>* history, std::string& error) = 0;
};

}  // namespace sim
