// A uniform-grid spatial hash over axis-aligned boxes (the surface triangles' grown boxes of
// particle_triangle_contacts.cpp), rebuilt every step in buffers that keep their capacity: each
// box is entered in every cell it overlaps, and the (bucket, item) entries are counting-sorted into
// CSR order, so a build is O(items · cells per item) and allocates nothing once warm. The cell
// edge is the boxes' mean largest extent (at least a quarter of the largest one, so no box spans
// more than 5³ cells); the table has a power of two ≥ 2 × items buckets. A query visits the cells
// of its box and returns each overlapping item once, ascending (deterministic, whatever the
// insertion order), falling back to a scan of all boxes when its box covers more cells than the
// table has buckets.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/geometry.hpp"

namespace sim::detail {

struct BoxHash {
  Real cell = 1;                              // cell edge [m]
  Vec3 origin = Vec3::Zero();                 // lowest corner of all boxes [m]
  std::uint32_t mask = 0;                     // bucket count − 1
  std::vector<std::uint32_t> bucket_start;    // CSR offsets into items (bucket count + 1)
  std::vector<int> items;                     // item indices by bucket
  std::vector<std::uint32_t> entry_bucket;    // build scratch: the bucket of every entry
  std::vector<int> entry_item;                //   and its item
  const Aabb* boxes = nullptr;                // the boxes of the last build (caller-owned)
  int count = 0;
};

// Builds the hash over boxes[0, count); the boxes must outlive the queries.
void build_box_hash(const Aabb* boxes, int count, BoxHash& hash);

// Appends to `out` (cleared first) every item whose box overlaps `box`, once each, ascending.
void query_box_hash(const BoxHash& hash, const Aabb& box, std::vector<int>& out);

}  // namespace sim::detail
