// Kernel: one object's sweep of the broadphase (collision/broadphase.cpp, sweep and prune). With
// the included objects sorted by the lower bound of their boxes along `axis`, the object at
// sorted position k pairs with each later object whose lower bound lies within its extent along
// the axis, whose group shares no bit with its own, and whose box overlaps its box on the two
// other axes. The CPU runs it for every k in order; the device (sim/cuda/device_broadphase.cu)
// runs one thread per k, once counting and once writing at its scanned offset. Pairs are packed
// (lower index, higher index) as pack_pair does.
#pragma once

#include <cstdint>

#include "collision/geometry.hpp"
#include "kernels/kernel_macros.hpp"

namespace sim::detail {

// Group bits of an object: a pair is skipped when both objects share a bit (two static objects,
// two particles). kBroadphaseExcluded leaves an object out of the sweep (planes).
enum BroadphaseGroup : std::uint8_t {
  kGroupStatic = 1,
  kGroupParticle = 2,
  kBroadphaseExcluded = 0x80,
};

SIM_HD inline std::uint64_t pack_pair(int i, int j) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) | static_cast<std::uint32_t>(j);
}
SIM_HD inline int pair_first(std::uint64_t p) { return static_cast<int>(p >> 32); }
SIM_HD inline int pair_second(std::uint64_t p) { return static_cast<int>(p & 0xffffffffu); }

// The sorted objects as the sweep reads them.
struct SweepView {
  const Aabb* boxes = nullptr;          // by object
  const std::uint8_t* groups = nullptr; // by object
  const int* order = nullptr;           // object at each sorted position (included objects only)
  const Real* sorted_lo = nullptr;      // its lower bound along the axis
  int count = 0;                        // sorted positions
  int axis = 0;
};

// Calls emit(packed pair) for every pair the object at sorted position k makes with the objects
// after it; returns how many.
template <class Emit>
SIM_HD inline int sweep_object(const SweepView& v, int k, Emit&& emit) {
  const int i = v.order[k];
  const Aabb& bi = v.boxes[i];
  const Real hi = bi.hi[v.axis];
  const std::uint8_t gi = v.groups[i];
  const int o1 = (v.axis + 1) % 3, o2 = (v.axis + 2) % 3;
  int found = 0;
  for (int m = k + 1; m < v.count && v.sorted_lo[m] <= hi; ++m) {
    const int j = v.order[m];
    if (gi & v.groups[j]) continue;
    const Aabb& bj = v.boxes[j];
    if (bi.lo[o1] > bj.hi[o1] || bj.lo[o1] > bi.hi[o1] || bi.lo[o2] > bj.hi[o2] || bj.lo[o2] > bi.hi[o2]) continue;
    emit(i < j ? pack_pair(i, j) : pack_pair(j, i));
    ++found;
  }
  return found;
}

}  // namespace sim::detail
