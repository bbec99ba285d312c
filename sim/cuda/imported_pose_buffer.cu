#include "cuda/imported_pose_buffer.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "sim/pose_layout.hpp"

namespace sim::cuda {

namespace {

// One thread per body, then one per particle. State::q: body b at 7b, particle p at 7B + 3p
// (Model::body_coord, Model::particle_coord).
__global__ void write_poses_kernel(const Real* q, const Real* radius, int body_count, int particle_count,
                                   float* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < body_count) {
    write_body_pose(q + 7 * i, out + kPoseFloatsPerBody * i);
  } else if (i < body_count + particle_count) {
    const int p = i - body_count;
    write_particle_pose(q + 7 * body_count + 3 * p, radius[p],
                        out + kPoseFloatsPerBody * body_count + kPoseFloatsPerParticle * p);
  }
}

std::string cuda_message(const char* what, cudaError_t e) { return std::string(what) + ": " + cudaGetErrorString(e); }

}  // namespace

bool cuda_device_uuid(int device, std::array<std::uint8_t, 16>& uuid, std::string& error) {
  cudaDeviceProp p{};
  if (const cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) {
    error = cuda_message("cudaGetDeviceProperties", e);
    cudaGetLastError();
    return false;
  }
  std::memcpy(uuid.data(), p.uuid.bytes, uuid.size());
  return true;
}

std::unique_ptr<ImportedPoseBuffer> ImportedPoseBuffer::import(const SharedPoseMemory& memory,
                                                               const Real* particle_radius,
                                                               int particle_radius_count, std::string& error) {
  int memory_fd = memory.memory_fd, semaphore_fd = memory.semaphore_fd;  // closed below unless taken over
  auto fail = [&](std::string message) -> std::unique_ptr<ImportedPoseBuffer> {
    if (memory_fd >= 0) close(memory_fd);
    if (semaphore_fd >= 0) close(semaphore_fd);
    cudaGetLastError();
    error = "CUDA pose import: " + std::move(message);
    return nullptr;
  };
  if (memory_fd < 0) return fail("no memory descriptor");
  if (semaphore_fd < 0)
    return fail("the exporter has no timeline semaphore (VK_KHR_external_semaphore_fd): kernel writes could not be "
                "ordered with the frames that read them");
  if (particle_radius_count != memory.particle_count)
    return fail("particle radii for " + std::to_string(particle_radius_count) + " particles, the buffer has " +
                std::to_string(memory.particle_count));
  std::array<std::uint8_t, 16> uuid{};
  std::string uuid_error;
  if (!cuda_device_uuid(0, uuid, uuid_error)) return fail(uuid_error);
  if (uuid != memory.device_uuid) return fail("the exporting Vulkan device is not CUDA device 0 (UUIDs differ)");
  if (const cudaError_t e = cudaSetDevice(0); e != cudaSuccess) return fail(cuda_message("cudaSetDevice", e));

  std::unique_ptr<ImportedPoseBuffer> b(new ImportedPoseBuffer());
  b->layout_ = memory;
  cudaExternalMemoryHandleDesc memory_desc{};
  memory_desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  memory_desc.handle.fd = memory_fd;
  memory_desc.size = memory.allocation_size;
  memory_desc.flags = memory.dedicated ? cudaExternalMemoryDedicated : 0;
  if (const cudaError_t e = cudaImportExternalMemory(&b->memory_, &memory_desc); e != cudaSuccess)
    return fail(cuda_message("cudaImportExternalMemory", e));
  memory_fd = -1;  // the CUDA driver owns it now
  cudaExternalMemoryBufferDesc buffer_desc{};
  buffer_desc.offset = 0;
  buffer_desc.size = memory.slot_stride * std::uint64_t(memory.slot_count);
  if (const cudaError_t e = cudaExternalMemoryGetMappedBuffer(reinterpret_cast<void**>(&b->mapped_), b->memory_,
                                                              &buffer_desc);
      e != cudaSuccess)
    return fail(cuda_message("cudaExternalMemoryGetMappedBuffer", e));
  cudaExternalSemaphoreHandleDesc semaphore_desc{};
  semaphore_desc.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  semaphore_desc.handle.fd = semaphore_fd;
  if (const cudaError_t e = cudaImportExternalSemaphore(&b->semaphore_, &semaphore_desc); e != cudaSuccess)
    return fail(cuda_message("cudaImportExternalSemaphore", e));
  semaphore_fd = -1;
  if (const cudaError_t e = cudaStreamCreateWithFlags(&b->stream_, cudaStreamNonBlocking); e != cudaSuccess)
    return fail(cuda_message("cudaStreamCreateWithFlags", e));
  const std::size_t radii = std::max<std::size_t>(std::size_t(particle_radius_count), 1);
  if (const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&b->radius_), radii * sizeof(Real)); e != cudaSuccess)
    return fail(cuda_message("cudaMalloc", e));
  if (particle_radius_count > 0) {
    if (const cudaError_t e = cudaMemcpy(b->radius_, particle_radius, std::size_t(particle_radius_count) * sizeof(Real),
                                         cudaMemcpyHostToDevice);
        e != cudaSuccess)
      return fail(cuda_message("cudaMemcpy", e));
  }
  return b;
}

ImportedPoseBuffer::~ImportedPoseBuffer() {
  if (stream_) cudaStreamSynchronize(stream_);
  cudaFree(q_);
  cudaFree(radius_);
  if (stream_) cudaStreamDestroy(stream_);
  if (mapped_) cudaFree(mapped_);  // a mapped external buffer is freed with cudaFree
  if (semaphore_) cudaDestroyExternalSemaphore(semaphore_);
  if (memory_) cudaDestroyExternalMemory(memory_);
}

float* ImportedPoseBuffer::slot_pointer(int slot) const {
  return reinterpret_cast<float*>(mapped_ + layout_.slot_stride * std::uint64_t(slot));
}

cudaError_t ImportedPoseBuffer::write(const Real* q_device, int slot, std::uint64_t signal_value) {
  if (slot < 0 || slot >= layout_.slot_count) return cudaErrorInvalidValue;
  const int items = layout_.body_count + layout_.particle_count;
  if (items > 0) {
    constexpr int kBlock = 128;
    write_poses_kernel<<<(items + kBlock - 1) / kBlock, kBlock, 0, stream_>>>(
        q_device, radius_, layout_.body_count, layout_.particle_count, slot_pointer(slot));
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  cudaExternalSemaphoreSignalParams signal{};
  signal.params.fence.value = signal_value;
  return cudaSignalExternalSemaphoresAsync(&semaphore_, &signal, 1, stream_);
}

cudaError_t ImportedPoseBuffer::write_host(const Real* q, std::size_t q_count, int slot,
                                           std::uint64_t signal_value) {
  const std::size_t needed = std::size_t(7 * layout_.body_count + 3 * layout_.particle_count);
  if (q_count != needed) return cudaErrorInvalidValue;
  if (needed > q_capacity_) {
    cudaFree(q_);
    q_ = nullptr;
    q_capacity_ = 0;
    if (const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&q_), needed * sizeof(Real)); e != cudaSuccess)
      return e;
    q_capacity_ = needed;
  }
  if (needed > 0) {
    if (const cudaError_t e = cudaMemcpyAsync(q_, q, needed * sizeof(Real), cudaMemcpyHostToDevice, stream_);
        e != cudaSuccess)
      return e;
  }
  return write(q_, slot, signal_value);
}

cudaError_t ImportedPoseBuffer::synchronize() { return cudaStreamSynchronize(stream_); }

}  // namespace sim::cuda
