// DeviceBroadphase: the broadphase's sweep and prune (collision/broadphase.hpp) on the device, for
// boxes and group bits already in device memory (launch_shape_world_boxes writes the boxes). The
// included objects are sorted by the lower bound of their boxes along the sweep axis (CUB radix
// sort, stable, so ties keep index order), then one thread per sorted position runs the CPU's own
// sweep (kernels/sweep_kernel.hpp) twice: to count its pairs, and, after an exclusive scan of the
// counts, to write them; the pairs are then radix-sorted. The result is the CPU's sorted pair list
// exactly (the set of overlapping pairs does not depend on the axis or on the order of equal
// bounds). Buffers only grow. Plain C++ header.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "collision/geometry.hpp"

namespace sim::cuda {

class DeviceBroadphase {
 public:
  DeviceBroadphase() = default;
  ~DeviceBroadphase();
  DeviceBroadphase(const DeviceBroadphase&) = delete;
  DeviceBroadphase& operator=(const DeviceBroadphase&) = delete;

  // Every pair i < j (packed, ascending) of objects whose boxes overlap and whose groups share no
  // bit, objects with kBroadphaseExcluded left out. `boxes` and `groups` (count each) are device
  // memory; `axis` (0-2) only changes how much each thread sweeps. Waits for the pair count (one
  // copy to the host, to size the output); the pairs are ready when `stream` is.
  cudaError_t run(const detail::Aabb* boxes, const std::uint8_t* groups, int count, int axis, cudaStream_t stream);

  const std::uint64_t* pairs() const { return sorted_pairs_; }  // device memory, pair_count() of them
  int pair_count() const { return pair_count_; }

 private:
  template <class T>
  struct Grown {
    T* data = nullptr;
    std::size_t capacity = 0;
  };
  template <class T>
  cudaError_t fit(Grown<T>& buffer, std::size_t count);

  Grown<double> keys_, sorted_keys_;
  Grown<int> index_, order_, counts_, offsets_;
  Grown<std::uint64_t> pairs_, sorted_;
  Grown<unsigned char> temp_;
  int* totals_host_ = nullptr;  // pinned: [pairs, included]
  std::uint64_t* sorted_pairs_ = nullptr;
  int pair_count_ = 0;
};

}  // namespace sim::cuda
