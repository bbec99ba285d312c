#include "cuda/device_sdf_grid.hpp"

#include <cuda_runtime.h>

#include "sdf/sdf_grid_impl.hpp"

namespace sim::cuda {

namespace {

// Copies a NanoVDB handle's buffer to the device; `grid` (into that buffer) becomes the same
// offset into the copy.
cudaError_t upload_buffer(const nanovdb::GridHandle<nanovdb::HostBuffer>& handle, const nanovdb::FloatGrid* grid,
                          void*& device, const nanovdb::FloatGrid*& device_grid) {
  const std::size_t size = handle.size();
  if (const cudaError_t e = cudaMalloc(&device, size); e != cudaSuccess) return e;
  if (const cudaError_t e = cudaMemcpy(device, handle.data(), size, cudaMemcpyHostToDevice); e != cudaSuccess) return e;
  const std::ptrdiff_t offset = reinterpret_cast<const char*>(grid) - reinterpret_cast<const char*>(handle.data());
  device_grid = reinterpret_cast<const nanovdb::FloatGrid*>(static_cast<const char*>(device) + offset);
  return cudaSuccess;
}

}  // namespace

std::unique_ptr<DeviceSdfGrid> DeviceSdfGrid::upload(const SdfGrid& grid, std::string& error) {
  const SdfGridImpl& impl = grid.impl();
  std::unique_ptr<DeviceSdfGrid> d(new DeviceSdfGrid());
  d->view_ = detail::grid_view(impl);
  cudaError_t e = upload_buffer(impl.handle, impl.grid, d->fine_, d->view_.grid);
  d->bytes_ = impl.handle.size();
  if (e == cudaSuccess) {
    if (impl.far_grid) {
      e = upload_buffer(impl.far_handle, impl.far_grid, d->far_, d->view_.far_grid);
      d->bytes_ += impl.far_handle.size();
    } else {
      d->view_.far_grid = d->view_.grid;
    }
  }
  if (e != cudaSuccess) {
    error = std::string("uploading an SDF grid to the device: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return nullptr;
  }
  return d;
}

DeviceSdfGrid::~DeviceSdfGrid() {
  cudaFree(fine_);
  cudaFree(far_);
}

}  // namespace sim::cuda
