// sim/cuda/device_pcr.hpp: the fused PCR of solver/linear_solvers.cpp on the device. Each step
// of the CPU loop is one launch here (a row pass, a node pass, a CUB sum, or a one-thread kernel
// that turns sums into the next scalars), in the same order and with the same arithmetic.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cmath>

#include "cuda/device_pcr.hpp"
#include "kernels/inverse_mass_kernel.hpp"
#include "kernels/row_entry_kernels.hpp"

namespace sim::cuda {

// The solve's scalars, in device memory.
struct DevicePcrScalars {
  Real sum[3];  // the three reductions of an iteration: ‖r‖²_P, ρ' = zᵀAz, ‖Ap‖²_P
  Real rho, denom, alpha, beta;
  Real initial_residual, final_residual, stop;
  int iterations, active, breakdown, bad;  // bad: a diagonal entry <= 0 (1) or non-finite (2), x non-finite (4)
};

namespace {

constexpr int kBlock = 256;
inline int grid_for(int count) { return (count + kBlock - 1) / kBlock; }
__device__ inline int thread_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }

// The row vectors in DevicePcr::row_scratch_.
struct RowVectors {
  Real *diag, *inv_diag, *r, *z, *p, *ap, *az, *terms;
};

RowVectors row_vectors(Real* base, int rows) {
  RowVectors v;
  Real** slots[] = {&v.diag, &v.inv_diag, &v.r, &v.z, &v.p, &v.ap, &v.az, &v.terms};
  for (int k = 0; k < 8; ++k) *slots[k] = base + static_cast<std::size_t>(k) * rows;
  return v;
}

// As krylov_breakdown (linear_solvers.cpp): NaN is non-finite; <= 0 at round-off is convergence.
__device__ inline int krylov_breakdown(Real value, const DevicePcrScalars& s) {
  if (!isfinite(value)) return 2;
  if (s.final_residual <= Real(1e-10) * s.initial_residual) return 0;
  return 1;
}

// setup_pass: the diagonal (C + Σ_entries b H⁻¹ bᵀ, as SchurSystem::diagonal_row), x = 0, r = b,
// z = P r, p = z; terms = r² P.
__global__ void setup_rows(DeviceSchurView a, const Real* b, Real* x, RowVectors v, DevicePcrScalars* s) {
  const int i = thread_index();
  if (i >= a.row_count) return;
  Real d = a.c_diagonal[i];
  for (int e = a.rows.row_entry_first[i]; e < a.rows.row_entry_first[i + 1]; ++e)
    add_inverse_mass_quadratic(a.inv_mass, a.entry_node[e], a.rows.block[e], d);
  if (!(d > 0)) atomicOr(&s->bad, isfinite(d) ? 1 : 2);
  v.diag[i] = d;
  v.inv_diag[i] = d > 0 ? Real(1) / d : Real(0);
  x[i] = 0;
  v.r[i] = b[i];
  v.z[i] = v.inv_diag[i] * v.r[i];
  v.p[i] = v.z[i];
  v.terms[i] = v.r[i] * v.r[i] * v.inv_diag[i];
}

__global__ void start(DevicePcrScalars* s, Real tolerance) {
  s->initial_residual = s->final_residual = sqrt(s->sum[0]);
  s->stop = tolerance * s->initial_residual;
  s->iterations = 0;
  s->breakdown = (s->bad & 2) ? 2 : (s->bad & 1) ? 1 : 0;
  s->active = s->bad ? 0 : 1;
}

// The node half of A z: out = H⁻¹ Jᵀ z (SchurSystem::jt_inv_h without a condensation).
__global__ void node_pass(DeviceSchurView a, const Real* z, Real* out, const DevicePcrScalars* s) {
  const int n = thread_index();
  if (n >= a.node_count || !s->active) return;
  const Vec6 acc = node_transpose_times(a.nodes, a.rows.block, n, z);
  apply_inverse_mass(a.inv_mass, n, acc.data(), out + a.node_dof[n]);
}

// The row half: (A z)_i = J_i H⁻¹Jᵀz + C_ii z_i (SchurSystem::apply_row).
__device__ inline Real apply_row(const DeviceSchurView& a, int i, const Real* hinv_jt_z, const Real* z) {
  return row_times(a.rows, i, hinv_jt_z) + a.c_diagonal[i] * z[i];
}

// Before the loop: Az, Ap = Az; terms: zᵀAz and ‖Ap‖²_P (in the two halves of the scratch's
// az/terms: the second sum reads ap's terms from `terms2`).
__global__ void first_product(DeviceSchurView a, const Real* hinv_jt_z, RowVectors v, Real* terms2,
                              const DevicePcrScalars* s) {
  const int i = thread_index();
  if (i >= a.row_count || !s->active) return;
  v.az[i] = apply_row(a, i, hinv_jt_z, v.z);
  v.ap[i] = v.az[i];
  v.terms[i] = v.z[i] * v.az[i];
  terms2[i] = v.ap[i] * v.ap[i] * v.inv_diag[i];
}

__global__ void first_scalars(DevicePcrScalars* s) {
  if (!s->active) return;
  s->rho = s->sum[1];
  s->denom = s->sum[2];
}

// The top of an iteration: the stop test, then ρ and ‖Ap‖²_P must be positive; α = ρ / ‖Ap‖²_P.
__global__ void begin_iteration(DevicePcrScalars* s) {
  if (!s->active) return;
  if (s->final_residual <= s->stop) {
    s->active = 0;
  } else if (!(s->rho > 0)) {
    s->breakdown = krylov_breakdown(s->rho, *s);
    s->active = 0;
  } else if (!(s->denom > 0)) {
    s->breakdown = krylov_breakdown(s->denom, *s);
    s->active = 0;
  } else {
    s->alpha = s->rho / s->denom;
  }
}

// Pass 1: x += α p, r −= α Ap, z −= α P Ap; terms: ‖r‖²_P.
__global__ void update_x(int rows, Real* x, RowVectors v, const DevicePcrScalars* s) {
  const int i = thread_index();
  if (i >= rows || !s->active) return;
  const Real alpha = s->alpha;
  x[i] += alpha * v.p[i];
  v.r[i] -= alpha * v.ap[i];
  v.z[i] -= alpha * v.inv_diag[i] * v.ap[i];
  v.terms[i] = v.r[i] * v.r[i] * v.inv_diag[i];
}

// Pass 2: Az; terms: ρ' = zᵀAz.
__global__ void product(DeviceSchurView a, const Real* hinv_jt_z, RowVectors v, const DevicePcrScalars* s) {
  const int i = thread_index();
  if (i >= a.row_count || !s->active) return;
  v.az[i] = apply_row(a, i, hinv_jt_z, v.z);
  v.terms[i] = v.z[i] * v.az[i];
}

__global__ void take_beta(DevicePcrScalars* s) {
  if (!s->active) return;
  s->beta = s->sum[1] / s->rho;
  s->rho = s->sum[1];
}

// Pass 3: p = z + β p, Ap = Az + β Ap; terms: ‖Ap‖²_P.
__global__ void update_p(int rows, RowVectors v, const DevicePcrScalars* s) {
  const int i = thread_index();
  if (i >= rows || !s->active) return;
  const Real beta = s->beta;
  v.p[i] = v.z[i] + beta * v.p[i];
  v.ap[i] = v.az[i] + beta * v.ap[i];
  v.terms[i] = v.ap[i] * v.ap[i] * v.inv_diag[i];
}

__global__ void end_iteration(DevicePcrScalars* s, Real* history, int k) {
  if (!s->active) return;
  s->denom = s->sum[2];
  s->iterations = k + 1;
  s->final_residual = sqrt(s->sum[0]);
  history[k] = s->final_residual;
}

__global__ void check_x(int rows, const Real* x, DevicePcrScalars* s) {
  const int i = thread_index();
  if (i < rows && !isfinite(x[i])) atomicOr(&s->bad, 4);
}

// solve_linear's checks after the loop: non-finite figures or x, or a residual that did not fall.
__global__ void finish(DevicePcrScalars* s) {
  if (s->breakdown != 0) return;
  if (!isfinite(s->initial_residual) || !isfinite(s->final_residual) || (s->bad & 4))
    s->breakdown = 2;
  else if (s->iterations > 0 && s->initial_residual > 0 && !(s->final_residual < s->initial_residual))
    s->breakdown = 3;
}

}  // namespace

DevicePcr::~DevicePcr() {
  if (graph_exec_) cudaGraphExecDestroy(graph_exec_);
  if (graph_) cudaGraphDestroy(graph_);
  cudaFree(row_scratch_);
  cudaFree(dof_scratch_);
  cudaFree(history_);
  cudaFree(scalars_);
  cudaFree(reduce_storage_);
}

cudaError_t DevicePcr::reserve(int rows, int dofs, int max_iterations) {
  cudaError_t e = cudaSuccess;
  if (!scalars_ && (e = cudaMalloc(reinterpret_cast<void**>(&scalars_), sizeof(DevicePcrScalars))) != cudaSuccess) return e;
  if (rows > rows_) {
    cudaFree(row_scratch_);
    row_scratch_ = nullptr;
    cudaFree(reduce_storage_);
    reduce_storage_ = nullptr;
    rows_ = 0;
    // 8 vectors, plus a second terms vector for the first product's two sums.
    if ((e = cudaMalloc(reinterpret_cast<void**>(&row_scratch_), 9 * static_cast<std::size_t>(rows) * sizeof(Real))) != cudaSuccess)
      return e;
    std::size_t bytes = 0;
    if ((e = cub::DeviceReduce::Sum(nullptr, bytes, row_scratch_, &scalars_->sum[0], rows)) != cudaSuccess) return e;
    if ((e = cudaMalloc(&reduce_storage_, bytes > 0 ? bytes : 1)) != cudaSuccess) return e;
    reduce_bytes_ = bytes;
    rows_ = rows;
  }
  if (dofs > dofs_) {
    cudaFree(dof_scratch_);
    dof_scratch_ = nullptr;
    dofs_ = 0;
    if ((e = cudaMalloc(reinterpret_cast<void**>(&dof_scratch_), static_cast<std::size_t>(dofs) * sizeof(Real))) != cudaSuccess)
      return e;
    dofs_ = dofs;
  }
  if (max_iterations > iterations_) {
    cudaFree(history_);
    history_ = nullptr;
    iterations_ = 0;
    if ((e = cudaMalloc(reinterpret_cast<void**>(&history_), static_cast<std::size_t>(max_iterations) * sizeof(Real))) != cudaSuccess)
      return e;
    iterations_ = max_iterations;
  }
  return cudaSuccess;
}

cudaError_t DevicePcr::solve(const DeviceSchurView& a, const Real* b, Real* x, int iterations, Real tolerance,
                             cudaStream_t stream) {
  if (a.row_count > rows_ || a.dof_count > dofs_ || iterations > iterations_ || a.row_count < 1)
    return cudaErrorInvalidValue;  // reserve() first (and an empty system has nothing to solve)
  const int n = a.row_count;
  const RowVectors v = row_vectors(row_scratch_, rows_);
  Real* terms2 = row_scratch_ + 8 * static_cast<std::size_t>(rows_);
  auto sum = [&](const Real* in, int slot) {
    std::size_t bytes = reduce_bytes_;
    return cub::DeviceReduce::Sum(reduce_storage_, bytes, in, &scalars_->sum[slot], n, stream);
  };
  cudaError_t e = cudaMemsetAsync(scalars_, 0, sizeof(DevicePcrScalars), stream);
  if (e != cudaSuccess) return e;
  setup_rows<<<grid_for(n), kBlock, 0, stream>>>(a, b, x, v, scalars_);
  if ((e = sum(v.terms, 0)) != cudaSuccess) return e;
  start<<<1, 1, 0, stream>>>(scalars_, tolerance);
  node_pass<<<grid_for(a.node_count), kBlock, 0, stream>>>(a, v.z, dof_scratch_, scalars_);
  first_product<<<grid_for(n), kBlock, 0, stream>>>(a, dof_scratch_, v, terms2, scalars_);
  if ((e = sum(v.terms, 1)) != cudaSuccess || (e = sum(terms2, 2)) != cudaSuccess) return e;
  first_scalars<<<1, 1, 0, stream>>>(scalars_);
  for (int k = 0; k < iterations; ++k) {
    begin_iteration<<<1, 1, 0, stream>>>(scalars_);
    update_x<<<grid_for(n), kBlock, 0, stream>>>(n, x, v, scalars_);
    if ((e = sum(v.terms, 0)) != cudaSuccess) return e;
    node_pass<<<grid_for(a.node_count), kBlock, 0, stream>>>(a, v.z, dof_scratch_, scalars_);
    product<<<grid_for(n), kBlock, 0, stream>>>(a, dof_scratch_, v, scalars_);
    if ((e = sum(v.terms, 1)) != cudaSuccess) return e;
    take_beta<<<1, 1, 0, stream>>>(scalars_);
    update_p<<<grid_for(n), kBlock, 0, stream>>>(n, v, scalars_);
    if ((e = sum(v.terms, 2)) != cudaSuccess) return e;
    end_iteration<<<1, 1, 0, stream>>>(scalars_, history_, k);
  }
  check_x<<<grid_for(n), kBlock, 0, stream>>>(n, x, scalars_);
  finish<<<1, 1, 0, stream>>>(scalars_);
  return cudaGetLastError();
}

cudaError_t DevicePcr::record_graph(const DeviceSchurView& a, const Real* b, Real* x, int iterations, Real tolerance,
                                     cudaStream_t stream) {
  if (graph_exec_) cudaGraphExecDestroy(graph_exec_);
  if (graph_) cudaGraphDestroy(graph_);
  graph_exec_ = nullptr;
  graph_ = nullptr;
  cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  if (e != cudaSuccess) return e;
  const cudaError_t recorded = solve(a, b, x, iterations, tolerance, stream);
  e = cudaStreamEndCapture(stream, &graph_);
  if (recorded != cudaSuccess) return recorded;
  if (e != cudaSuccess) return e;
  return cudaGraphInstantiate(&graph_exec_, graph_, 0);
}

cudaError_t DevicePcr::launch_graph(cudaStream_t stream) {
  if (!graph_exec_) return cudaErrorInvalidValue;  // record_graph() first
  return cudaGraphLaunch(graph_exec_, stream);
}

cudaError_t DevicePcr::result(DevicePcrResult& out, std::vector<Real>* history, cudaStream_t stream) const {
  cudaError_t e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return e;
  if (!scalars_) return cudaErrorInvalidValue;
  DevicePcrScalars s{};
  if ((e = cudaMemcpy(&s, scalars_, sizeof(DevicePcrScalars), cudaMemcpyDeviceToHost)) != cudaSuccess) return e;
  out.iterations = s.iterations;
  out.initial_residual = s.initial_residual;
  out.final_residual = s.final_residual;
  out.breakdown = s.breakdown;
  if (history) {
    history->assign(static_cast<std::size_t>(s.iterations), 0);
    if (s.iterations > 0 &&
        (e = cudaMemcpy(history->data(), history_, static_cast<std::size_t>(s.iterations) * sizeof(Real),
                        cudaMemcpyDeviceToHost)) != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

}  // namespace sim::cuda
