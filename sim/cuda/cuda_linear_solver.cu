#include "cuda/cuda_linear_solver.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda/device_pcr.hpp"
#include "kernels/views.hpp"

namespace sim::cuda {

namespace {

// A device array that only grows.
template <class T>
struct Grown {
  T* data = nullptr;
  std::size_t capacity = 0;
  ~Grown() { cudaFree(data); }
  cudaError_t fit(std::size_t count) {
    if (count <= capacity) return cudaSuccess;
    cudaFree(data);
    data = nullptr;
    capacity = 0;
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&data), count * sizeof(T));
    if (e == cudaSuccess) capacity = count;
    return e;
  }
  // Grows to `count` and copies host[0, count) in on `stream`.
  cudaError_t upload(const T* host, std::size_t count, cudaStream_t stream) {
    cudaError_t e = fit(std::max<std::size_t>(count, 1));
    if (e == cudaSuccess && count > 0) e = cudaMemcpyAsync(data, host, count * sizeof(T), cudaMemcpyHostToDevice, stream);
    return e;
  }
};

class CudaLinearSolver final : public DeviceLinearSolver {
 public:
  CudaLinearSolver(int device, int min_rows) : min_rows_(min_rows) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, device) == cudaSuccess) {
      char text[400];
      std::snprintf(text, sizeof text, "CUDA: %s (sm_%d%d, %zu MiB)", p.name, p.major, p.minor,
                    static_cast<std::size_t>(p.totalGlobalMem >> 20));
      description_ = text;
    } else {
      description_ = "CUDA device " + std::to_string(device);
    }
  }
  ~CudaLinearSolver() override {
    if (stream_) cudaStreamDestroy(stream_);
  }
  cudaError_t init() { return cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); }

  std::string description() const override { return description_; }
  int min_rows() const override { return min_rows_; }

  bool solve_pcr(const SchurSystemArrays& a, const Real* b, Real* x, int iterations, Real tolerance,
                 DeviceLinearStats& stats, std::vector<Real>* history, std::string& error) override {
    auto failed = [&](cudaError_t e, const char* what) {
      error = std::string(what) + ": " + cudaGetErrorString(e);
      cudaGetLastError();  // clear a sticky launch error so the next step may try again
      return false;
    };
    const int nodes = a.body_count + a.particle_count;
    const int dofs = 6 * a.body_count + 3 * a.particle_count;
    cudaError_t e = cudaSuccess;
    // Each node's dofs and width: rebuilt when the bodies and particles change.
    if (a.body_count != layout_bodies_ || a.particle_count != layout_particles_) {
      host_node_dof_.resize(static_cast<std::size_t>(nodes));
      host_node_width_.resize(static_cast<std::size_t>(nodes));
      for (int n = 0; n < nodes; ++n) {
        host_node_dof_[static_cast<std::size_t>(n)] = node_dof_offset(a.body_count, n);
        host_node_width_[static_cast<std::size_t>(n)] = n < a.body_count ? 6 : 3;
      }
      if ((e = node_dof_.upload(host_node_dof_.data(), host_node_dof_.size(), stream_)) != cudaSuccess ||
          (e = node_width_.upload(host_node_width_.data(), host_node_width_.size(), stream_)) != cudaSuccess)
        return failed(e, "uploading the node layout");
      layout_bodies_ = a.body_count;
      layout_particles_ = a.particle_count;
    }
    const std::size_t rows = static_cast<std::size_t>(a.rows), entries = static_cast<std::size_t>(a.entries);
    const std::size_t bodies = static_cast<std::size_t>(a.body_count);
    if ((e = row_entry_first_.upload(a.row_entry_first, rows + 1, stream_)) != cudaSuccess ||
        (e = entry_node_.upload(a.entry_node, entries, stream_)) != cudaSuccess ||
        (e = entry_dof_.upload(a.entry_dof, entries, stream_)) != cudaSuccess ||
        (e = entry_width_.upload(a.entry_width, entries, stream_)) != cudaSuccess ||
        (e = entry_jac_.upload(a.entry_jac, entries, stream_)) != cudaSuccess ||
        (e = node_entry_first_.upload(a.node_entry_first, static_cast<std::size_t>(nodes) + 1, stream_)) != cudaSuccess ||
        (e = node_entries_.upload(a.node_entries, entries, stream_)) != cudaSuccess ||
        (e = node_entry_rows_.upload(a.node_entry_rows, entries, stream_)) != cudaSuccess ||
        (e = body_inv_mass_.upload(a.body_inv_mass, bodies, stream_)) != cudaSuccess ||
        (e = body_inv_inertia_.upload(a.body_inv_inertia, bodies, stream_)) != cudaSuccess ||
        (e = particle_inv_mass_.upload(a.particle_inv_mass, 3 * static_cast<std::size_t>(a.particle_count), stream_)) != cudaSuccess ||
        (e = c_diagonal_.upload(a.c_diagonal, rows, stream_)) != cudaSuccess ||
        (e = b_.upload(b, rows, stream_)) != cudaSuccess || (e = x_.fit(rows)) != cudaSuccess)
      return failed(e, "uploading the Schur system");
    if ((e = pcr_.reserve(a.rows, dofs, std::max(iterations, 1))) != cudaSuccess) return failed(e, "device PCR scratch");
    DeviceSchurView view;
    view.rows = {row_entry_first_.data, entry_dof_.data, entry_width_.data, entry_jac_.data};
    view.entry_node = entry_node_.data;
    view.nodes = {node_entry_first_.data, node_entries_.data, node_entry_rows_.data};
    view.node_dof = node_dof_.data;
    view.node_width = node_width_.data;
    view.inv_mass = {body_inv_mass_.data, body_inv_inertia_.data, particle_inv_mass_.data, a.body_count};
    view.c_diagonal = c_diagonal_.data;
    view.row_count = a.rows;
    view.node_count = nodes;
    view.dof_count = dofs;
    if ((e = pcr_.solve(view, b_.data, x_.data, iterations, tolerance, stream_)) != cudaSuccess)
      return failed(e, "launching the device PCR");
    DevicePcrResult r;
    if ((e = pcr_.result(r, &history_, stream_)) != cudaSuccess) return failed(e, "the device PCR");
    if ((e = cudaMemcpy(x, x_.data, rows * sizeof(Real), cudaMemcpyDeviceToHost)) != cudaSuccess)
      return failed(e, "downloading x");
    stats.iterations = r.iterations;
    stats.initial_residual = r.initial_residual;
    stats.final_residual = r.final_residual;
    stats.breakdown = r.breakdown;
    if (history) history->insert(history->end(), history_.begin(), history_.end());
    return true;
  }

 private:
  int min_rows_;
  std::string description_;
  cudaStream_t stream_ = nullptr;
  DevicePcr pcr_;
  int layout_bodies_ = -1, layout_particles_ = -1;
  std::vector<int> host_node_dof_, host_node_width_;
  std::vector<Real> history_;
  Grown<int> row_entry_first_, entry_node_, entry_dof_, node_entry_first_, node_entries_, node_entry_rows_, node_dof_,
      node_width_;
  Grown<std::int8_t> entry_width_;
  Grown<Vec6> entry_jac_;
  Grown<Real> body_inv_mass_, particle_inv_mass_, c_diagonal_, b_, x_;
  Grown<Mat3> body_inv_inertia_;
};

}  // namespace

std::shared_ptr<DeviceLinearSolver> make_cuda_linear_solver(std::string& message, int min_rows) {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    message = std::string("no CUDA device (") + (e == cudaSuccess ? "none found" : cudaGetErrorString(e)) + ")";
    return nullptr;
  }
  auto solver = std::make_shared<CudaLinearSolver>(0, min_rows);
  if ((e = solver->init()) != cudaSuccess) {
    message = std::string("CUDA stream: ") + cudaGetErrorString(e);
    return nullptr;
  }
  message = solver->description();
  return solver;
}

}  // namespace sim::cuda
