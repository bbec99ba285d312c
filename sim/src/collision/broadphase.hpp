// Broadphase: sweep and prune over world AABBs along the axis of largest spread (the per-object
// sweep and the group bits: kernels/sweep_kernel.hpp, shared with the device's broadphase). The sort is an
// insertion sort on last step's order (nearly sorted for a coherent scene, so O(n) per step),
// keyed by (lower bound, index) so the order, and the sorted pair list, are deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/geometry.hpp"
#include "kernels/sweep_kernel.hpp"

namespace sim::detail {

struct SweepAndPrune {
  int axis = -1;                  // sweep axis of the last call
  std::vector<int> order;         // object indices sorted by lower bound along the axis
  std::vector<Real> sorted_lo;    // their lower bounds, in that order
};

// Appends to `pairs` every pair i < j (packed) of overlapping boxes whose groups do not share a
// bit, then sorts `pairs` ascending (unless `sort` is false: the caller sorts).
void sweep_and_prune(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& groups,
                     SweepAndPrune& sap, std::vector<std::uint64_t>& pairs, bool sort = true);

}  // namespace sim::detail
