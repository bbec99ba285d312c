// The kernel layer compiled for the device: nvcc instantiates the SIM_HD kernels of
// sim/src/kernels/ and sim/src/solver/ncp.hpp in __global__ launchers over the same plain views
// the CPU loops use. Built whenever nvcc is found (CI compiles it; no GPU runs here), which proves
// the seam compiles for the device; the launchers are what the CUDA backend will call.
#include <cuda_runtime.h>

#include "kernels/compliant_row_kernel.hpp"
#include "kernels/row_entry_kernels.hpp"
#include "kernels/unilateral_row_kernel.hpp"
#include "solver/ncp.hpp"

namespace sim::cuda {

__global__ void unilateral_rows(UnilateralRowView view, int first, int count, bool fischer_burmeister, Real h) {
  const int i = first + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < first + count) evaluate_unilateral_row(view, i, fischer_burmeister, h);
}

// Friction compliance W (eqs. 99-106) per contact: v = |Dᵀu|, μλ_n, |λ_f|, r in; W out.
__global__ void friction_w(const Real* slip, const Real* mu_lambda_n, const Real* lambda_f, const Real* r, Real* w,
                           int count, bool fischer_burmeister) {
  const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (c >= count) return;
  w[c] = fischer_burmeister ? friction_w_fischer_burmeister(slip[c], mu_lambda_n[c], lambda_f[c], r[c])
                            : friction_w_min_map(slip[c], mu_lambda_n[c], lambda_f[c], r[c]);
}

// Bilateral rows [first, first + count): NCP terms and J = ∇C G.
__global__ void bilateral_rows(CompliantRowView view, const int* row_entry_first, const Vec6* grad, Vec6* jac,
                               int first, int count, Real h) {
  const int i = first + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= first + count) return;
  evaluate_bilateral_row(view, i, h);
  copy_row_blocks(row_entry_first, grad, jac, i);
}

// Drive rows [first, first + count) with their velocities ∇θ G u (one per row): NCP terms and J.
__global__ void drive_rows(CompliantRowView view, const int* row_entry_first, const Vec6* grad, Vec6* jac,
                           const Real* velocity, int first, int count, Real h) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k >= count) return;
  const int i = first + k;
  if (evaluate_drive_row_ncp(view, i, velocity[k], h) > 0)
    copy_row_blocks(row_entry_first, grad, jac, i);
  else
    zero_row_blocks(row_entry_first, jac, i);
}

// out = J z over the rows' (node, block) entries (rows over any number of nodes).
__global__ void rows_times(RowBlocksView view, const Real* z, Real* out, int rows) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < rows) out[i] = row_times(view, i, z);
}

// out = Jᵀ x gathered per node (each thread one node; its entries in row order).
__global__ void nodes_transpose_times(NodeEntriesView nodes, const Vec6* block, const Real* x, const int* node_dof,
                                      const int* node_width, Real* out, int node_count) {
  const int n = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (n >= node_count) return;
  const Vec6 acc = node_transpose_times(nodes, block, n, x);
  for (int k = 0; k < node_width[n]; ++k) out[node_dof[n] + k] = acc[k];
}

// Host-side launchers (asynchronous on `stream`): the CUDA backend's entry points.
cudaError_t launch_unilateral_rows(const UnilateralRowView& view, int first, int count, bool fischer_burmeister,
                                   Real h, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const int block = 256;
  unilateral_rows<<<(count + block - 1) / block, block, 0, stream>>>(view, first, count, fischer_burmeister, h);
  return cudaGetLastError();
}

cudaError_t launch_friction_w(const Real* slip, const Real* mu_lambda_n, const Real* lambda_f, const Real* r, Real* w,
                              int count, bool fischer_burmeister, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const int block = 256;
  friction_w<<<(count + block - 1) / block, block, 0, stream>>>(slip, mu_lambda_n, lambda_f, r, w, count,
                                                                  fischer_burmeister);
  return cudaGetLastError();
}

cudaError_t launch_rows_times(const RowBlocksView& view, const Real* z, Real* out, int rows, cudaStream_t stream) {
  if (rows <= 0) return cudaSuccess;
  const int block = 256;
  rows_times<<<(rows + block - 1) / block, block, 0, stream>>>(view, z, out, rows);
  return cudaGetLastError();
}

cudaError_t launch_nodes_transpose_times(const NodeEntriesView& nodes, const Vec6* block_data, const Real* x,
                                         const int* node_dof, const int* node_width, Real* out, int node_count,
                                         cudaStream_t stream) {
  if (node_count <= 0) return cudaSuccess;
  const int block = 256;
  nodes_transpose_times<<<(node_count + block - 1) / block, block, 0, stream>>>(nodes, block_data, x, node_dof,
                                                                                 node_width, out, node_count);
  return cudaGetLastError();
}

}  // namespace sim::cuda
