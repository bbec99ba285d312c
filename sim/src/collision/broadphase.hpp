// Broadphase: sweep and prune over world AABBs along the axis of largest spread. The sort is an
// insertion sort on last step's order (nearly sorted for a coherent scene, so O(n) per step),
// keyed by (lower bound, index) so the order, and the sorted pair list, are deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/geometry.hpp"

namespace sim::detail {

// Group bits of an object: a pair is skipped when both objects share a bit (two static objects,
// two particles). kBroadphaseExcluded leaves an object out of the sweep (planes).
enum BroadphaseGroup : std::uint8_t {
  kGroupStatic = 1,
  kGroupParticle = 2,
  kBroadphaseExcluded = 0x80,
};

struct SweepAndPrune {
  int axis = -1;                  // sweep axis of the last call
  std::vector<int> order;         // object indices sorted by lower bound along the axis
  std::vector<Real> sorted_lo;    // their lower bounds, in that order
};

inline std::uint64_t pack_pair(int i, int j) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) | static_cast<std::uint32_t>(j);
}
inline int pair_first(std::uint64_t p) { return static_cast<int>(p >> 32); }
inline int pair_second(std::uint64_t p) { return static_cast<int>(p & 0xffffffffu); }

// Appends to `pairs` every pair i < j (packed) of overlapping boxes whose groups do not share a
// bit, then sorts `pairs` ascending (unless `sort` is false: the caller sorts).
void sweep_and_prune(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& groups,
                     SweepAndPrune& sap, std::vector<std::uint64_t>& pairs, bool sort = true);

}  // namespace sim::detail
