#include "cuda/device_broadphase.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "kernels/sweep_kernel.hpp"

namespace sim::cuda {

namespace {

constexpr int kBlock = 256;
inline int blocks_for(int n) { return (n + kBlock - 1) / kBlock; }

// Sort keys: the lower bound along the axis; excluded objects sort last (+inf) and are flagged 0.
__global__ void sweep_keys(const detail::Aabb* boxes, const std::uint8_t* groups, int count, int axis, double* key,
                           int* index, int* included) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  const bool excluded = groups[i] & detail::kBroadphaseExcluded;
  key[i] = excluded ? INFINITY : double(boxes[i].lo[axis]);
  index[i] = i;
  included[i] = excluded ? 0 : 1;
}

__global__ void sweep_lower_bounds(const double* sorted_key, int count, Real* sorted_lo) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < count) sorted_lo[k] = Real(sorted_key[k]);
}

__global__ void sweep_count(detail::SweepView v, int* counts) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < v.count) counts[k] = detail::sweep_object(v, k, [](std::uint64_t) {});
}

__global__ void sweep_write(detail::SweepView v, const int* offsets, std::uint64_t* pairs) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k >= v.count) return;
  std::uint64_t* out = pairs + offsets[k];
  detail::sweep_object(v, k, [&](std::uint64_t pair) { *out++ = pair; });
}

}  // namespace

template <class T>
cudaError_t DeviceBroadphase::fit(Grown<T>& buffer, std::size_t count) {
  count = std::max<std::size_t>(count, 1);
  if (count <= buffer.capacity) return cudaSuccess;
  cudaFree(buffer.data);
  buffer = {};
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&buffer.data), count * sizeof(T));
  if (e == cudaSuccess) buffer.capacity = count;
  return e;
}

DeviceBroadphase::~DeviceBroadphase() {
  for (void* p : {static_cast<void*>(keys_.data), static_cast<void*>(sorted_keys_.data),
                  static_cast<void*>(index_.data), static_cast<void*>(order_.data), static_cast<void*>(counts_.data),
                  static_cast<void*>(offsets_.data), static_cast<void*>(pairs_.data), static_cast<void*>(sorted_.data),
                  static_cast<void*>(temp_.data)})
    cudaFree(p);
  cudaFreeHost(totals_host_);
}

cudaError_t DeviceBroadphase::run(const detail::Aabb* boxes, const std::uint8_t* groups, int count, int axis,
                                  cudaStream_t stream) {
  pair_count_ = 0;
  sorted_pairs_ = sorted_.data;
  if (count <= 0) return cudaSuccess;
  cudaError_t e = cudaSuccess;
  const std::size_t n = std::size_t(count);
  if (!totals_host_ && (e = cudaMallocHost(reinterpret_cast<void**>(&totals_host_), 2 * sizeof(int))) != cudaSuccess)
    return e;
  // counts_ holds n + 1 entries: the scan of n + 1 (the last 0) leaves the total at offsets_[n].
  if ((e = fit(keys_, n)) != cudaSuccess || (e = fit(sorted_keys_, n)) != cudaSuccess ||
      (e = fit(index_, n)) != cudaSuccess || (e = fit(order_, n)) != cudaSuccess ||
      (e = fit(counts_, n + 1)) != cudaSuccess || (e = fit(offsets_, n + 1)) != cudaSuccess)
    return e;
  // Temporary storage for the largest CUB call of this size (the pair sort is sized below).
  std::size_t sort_bytes = 0, scan_bytes = 0;
  if ((e = cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_.data, sorted_keys_.data, index_.data,
                                           order_.data, count)) != cudaSuccess ||
      (e = cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts_.data, offsets_.data, count + 1)) != cudaSuccess)
    return e;
  if ((e = fit(temp_, std::max(sort_bytes, scan_bytes))) != cudaSuccess) return e;

  // 1. Keys and included flags (into counts_), the count of included objects (a scan of the flags).
  sweep_keys<<<blocks_for(count), kBlock, 0, stream>>>(boxes, groups, count, axis, keys_.data, index_.data,
                                                       counts_.data);
  if ((e = cudaMemsetAsync(counts_.data + count, 0, sizeof(int), stream)) != cudaSuccess) return e;
  std::size_t bytes = temp_.capacity;
  if ((e = cub::DeviceScan::ExclusiveSum(temp_.data, bytes, counts_.data, offsets_.data, count + 1, stream)) !=
      cudaSuccess)
    return e;
  if ((e = cudaMemcpyAsync(&totals_host_[1], offsets_.data + count, sizeof(int), cudaMemcpyDeviceToHost, stream)) !=
      cudaSuccess)
    return e;
  // 2. Sort by lower bound (stable: equal bounds keep index order, as the CPU's (bound, index) key).
  bytes = temp_.capacity;
  if ((e = cub::DeviceRadixSort::SortPairs(temp_.data, bytes, keys_.data, sorted_keys_.data, index_.data, order_.data,
                                           count, 0, int(sizeof(double) * 8), stream)) != cudaSuccess)
    return e;
  if ((e = cudaStreamSynchronize(stream)) != cudaSuccess) return e;
  const int included = totals_host_[1];
  if (included == 0) return cudaSuccess;
  // The lower bounds in sorted order, as Real (the CPU's sorted_lo), into keys_ (free now).
  Real* sorted_lo = reinterpret_cast<Real*>(keys_.data);
  sweep_lower_bounds<<<blocks_for(included), kBlock, 0, stream>>>(sorted_keys_.data, included, sorted_lo);
  detail::SweepView view;
  view.boxes = boxes;
  view.groups = groups;
  view.order = order_.data;
  view.sorted_lo = sorted_lo;
  view.count = included;
  view.axis = axis;
  // 3. Count, scan, total.
  sweep_count<<<blocks_for(included), kBlock, 0, stream>>>(view, counts_.data);
  if ((e = cudaMemsetAsync(counts_.data + included, 0, sizeof(int), stream)) != cudaSuccess) return e;
  bytes = temp_.capacity;
  if ((e = cub::DeviceScan::ExclusiveSum(temp_.data, bytes, counts_.data, offsets_.data, included + 1, stream)) !=
      cudaSuccess)
    return e;
  if ((e = cudaMemcpyAsync(&totals_host_[0], offsets_.data + included, sizeof(int), cudaMemcpyDeviceToHost,
                           stream)) != cudaSuccess ||
      (e = cudaStreamSynchronize(stream)) != cudaSuccess)
    return e;
  const int total = totals_host_[0];
  if (total == 0) return cudaGetLastError();
  // 4. Write, then sort the pairs ascending.
  if ((e = fit(pairs_, std::size_t(total))) != cudaSuccess || (e = fit(sorted_, std::size_t(total))) != cudaSuccess)
    return e;
  sweep_write<<<blocks_for(included), kBlock, 0, stream>>>(view, offsets_.data, pairs_.data);
  std::size_t pair_sort_bytes = 0;
  if ((e = cub::DeviceRadixSort::SortKeys(nullptr, pair_sort_bytes, pairs_.data, sorted_.data, total)) != cudaSuccess ||
      (e = fit(temp_, pair_sort_bytes)) != cudaSuccess)
    return e;
  bytes = temp_.capacity;
  if ((e = cub::DeviceRadixSort::SortKeys(temp_.data, bytes, pairs_.data, sorted_.data, total, 0, 64, stream)) !=
      cudaSuccess)
    return e;
  sorted_pairs_ = sorted_.data;
  pair_count_ = total;
  return cudaGetLastError();
}

}  // namespace sim::cuda
