// The preconditioned conjugate residual solve of the Schur system (eq. 59, §8.2) on the device:
// the same fused recurrences as the CPU's pcr (solver/linear_solvers.cpp), each iteration one node
// pass (H⁻¹ Jᵀ z gathered per node, kernels/row_entry_kernels.hpp and inverse_mass_kernel.hpp) and
// three row passes, each followed by its reduction through cub::DeviceReduce::Sum (run-to-run
// deterministic: the same bits on the same GPU; a different summation order from the CPU's
// chunks, so CPU and device agree to round-off, not to the bit). The scalars (ρ, ‖Ap‖²_P, α, β,
// the residual, the stop test and breakdowns) stay in device memory, read by the kernels that
// need them: an enqueued solve never waits for the host, so it can be captured in a CUDA graph;
// once the stop test or a breakdown ends it, the remaining launches do nothing; recorded as a
// CUDA graph, the whole solve is one submission. Plain C++ header
// (host code compiled without nvcc includes it); the pointers in DeviceSchurView are device memory.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "kernels/row_entry_kernels.hpp"
#include "kernels/views.hpp"

namespace sim::cuda {

// A = J H⁻¹ Jᵀ + C (C including ε) over the RowSet's (node, block) entries.
struct DeviceSchurView {
  RowBlocksView rows;       // J: each row's entries
  const int* entry_node;    // each entry's node (the diagonal's H⁻¹ blocks)
  NodeEntriesView nodes;    // node -> entries, in row order (the gather of Jᵀ)
  const int* node_dof;      // per node: first dof
  const int* node_width;    // per node: 6 (body) or 3 (particle)
  InverseMassView inv_mass; // H⁻¹ per node
  const Real* c_diagonal;   // C + εI per row
  int row_count = 0;
  int node_count = 0;
  int dof_count = 0;
};

// As sim::LinearBreakdown: 0 none, 1 non-positive curvature (or diagonal), 2 non-finite, 3 stagnated.
struct DevicePcrResult {
  int iterations = 0;
  Real initial_residual = 0;  // ‖b‖_P
  Real final_residual = 0;    // ‖b − A x‖_P
  int breakdown = 0;
};

struct DevicePcrScalars;  // the solve's scalars in device memory (device_pcr.cu)

class DevicePcr {
 public:
  DevicePcr() = default;
  ~DevicePcr();
  DevicePcr(const DevicePcr&) = delete;
  DevicePcr& operator=(const DevicePcr&) = delete;

  // Device scratch for systems up to `rows` rows, `dofs` dofs and `max_iterations` iterations;
  // allocates only when one of them grows.
  cudaError_t reserve(int rows, int dofs, int max_iterations);
  // Enqueues x = A⁻¹ b from x = 0 on `stream`: at most `iterations` iterations, or until
  // ‖b − A x‖_P <= tolerance · ‖b‖_P. b and x hold a.row_count entries (device memory).
  cudaError_t solve(const DeviceSchurView& a, const Real* b, Real* x, int iterations, Real tolerance,
                    cudaStream_t stream);
  // The same solve recorded once as a CUDA graph (stream capture of solve(); `stream` must not be
  // the legacy default stream), then replayed by launch_graph() in one submission instead of ~13
  // launches an iteration. The graph keeps the arguments it was recorded with (the view's arrays,
  // b, x, iterations, tolerance) and reads their current contents at each launch: record again
  // only when an argument changes (a new size, other arrays).
  cudaError_t record_graph(const DeviceSchurView& a, const Real* b, Real* x, int iterations, Real tolerance,
                           cudaStream_t stream);
  cudaError_t launch_graph(cudaStream_t stream);
  // Waits for `stream`, then reads the last solve's figures and its residual after each iteration.
  cudaError_t result(DevicePcrResult& out, std::vector<Real>* history, cudaStream_t stream) const;

 private:
  int rows_ = 0, dofs_ = 0, iterations_ = 0;
  Real* row_scratch_ = nullptr;  // diag, inv_diag, r, z, p, ap, az, terms: 8 × rows
  Real* dof_scratch_ = nullptr;  // H⁻¹ Jᵀ z (dofs)
  Real* history_ = nullptr;      // (max_iterations)
  DevicePcrScalars* scalars_ = nullptr;
  void* reduce_storage_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t graph_exec_ = nullptr;
  std::size_t reduce_bytes_ = 0;
};

}  // namespace sim::cuda
