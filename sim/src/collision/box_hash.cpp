// The spatial hash over boxes (see box_hash.hpp).
#include "collision/box_hash.hpp"

#include <algorithm>
#include <cmath>

namespace sim::detail {

namespace {

constexpr std::int64_t kMaxCellIndex = std::int64_t(1) << 40;

std::int64_t cell_of(Real x, Real origin, Real cell) {
  const Real c = std::floor((x - origin) / cell);
  return static_cast<std::int64_t>(std::clamp(c, Real(-kMaxCellIndex), Real(kMaxCellIndex)));
}

std::uint32_t bucket_of(std::int64_t i, std::int64_t j, std::int64_t k, std::uint32_t mask) {
  const std::uint64_t h = hash_combine(hash_combine(mix64(static_cast<std::uint64_t>(i)), static_cast<std::uint64_t>(j)),
                                       static_cast<std::uint64_t>(k));
  return static_cast<std::uint32_t>(h) & mask;
}

struct CellRange {
  std::int64_t lo[3], hi[3];
  Real cells() const {  // in floating point: a huge query box cannot overflow it
    return Real(hi[0] - lo[0] + 1) * Real(hi[1] - lo[1] + 1) * Real(hi[2] - lo[2] + 1);
  }
};

CellRange cells_of(const BoxHash& h, const Aabb& b) {
  CellRange r;
  for (int a = 0; a < 3; ++a) {
    r.lo[a] = cell_of(b.lo[a], h.origin[a], h.cell);
    r.hi[a] = std::max(r.lo[a], cell_of(b.hi[a], h.origin[a], h.cell));
  }
  return r;
}

template <class Fn>
void for_cells(const CellRange& r, Fn&& fn) {
  for (std::int64_t i = r.lo[0]; i <= r.hi[0]; ++i)
    for (std::int64_t j = r.lo[1]; j <= r.hi[1]; ++j)
      for (std::int64_t k = r.lo[2]; k <= r.hi[2]; ++k) fn(i, j, k);
}

}  // namespace

void build_box_hash(const Aabb* boxes, int count, BoxHash& h) {
  h.boxes = boxes;
  h.count = count;
  std::uint32_t buckets = 64;
  while (buckets < 2u * static_cast<std::uint32_t>(std::max(count, 0))) buckets <<= 1;
  h.mask = buckets - 1;
  h.bucket_start.assign(static_cast<std::size_t>(buckets) + 1, 0);
  h.entry_bucket.clear();
  h.entry_item.clear();
  h.items.clear();
  if (count <= 0) return;
  // Room for 8 cells per box, the most a box of the mean extent spans (the cell is at least that
  // extent), reserved once: boxes that straddle more cells as they move grow it geometrically.
  const std::size_t room = 8 * static_cast<std::size_t>(count);
  h.entry_bucket.reserve(room);
  h.entry_item.reserve(room);
  h.items.reserve(room);
  Real mean = 0, largest = 0;
  h.origin = boxes[0].lo;
  for (int b = 0; b < count; ++b) {
    const Real extent = (boxes[b].hi - boxes[b].lo).maxCoeff();
    mean += extent;
    largest = std::max(largest, extent);
    h.origin = h.origin.cwiseMin(boxes[b].lo);
  }
  mean /= count;
  h.cell = std::max({mean, Real(0.25) * largest, Real(1e-9)});
  for (int b = 0; b < count; ++b)
    for_cells(cells_of(h, boxes[b]), [&](std::int64_t i, std::int64_t j, std::int64_t k) {
      h.entry_bucket.push_back(bucket_of(i, j, k, h.mask));
      h.entry_item.push_back(b);
    });
  for (std::uint32_t e : h.entry_bucket) ++h.bucket_start[e + 1];
  for (std::uint32_t b = 0; b < buckets; ++b) h.bucket_start[b + 1] += h.bucket_start[b];
  if (h.items.capacity() < h.entry_item.size()) h.items.reserve(h.entry_item.capacity());
  h.items.resize(h.entry_item.size());
  // Stable placement: entries were made in item order, so each bucket lists its items ascending.
  for (std::size_t e = 0; e < h.entry_item.size(); ++e) h.items[h.bucket_start[h.entry_bucket[e]]++] = h.entry_item[e];
  for (std::uint32_t b = buckets; b > 0; --b) h.bucket_start[b] = h.bucket_start[b - 1];
  h.bucket_start[0] = 0;
}

void query_box_hash(const BoxHash& h, const Aabb& box, std::vector<int>& out) {
  out.clear();
  if (h.count <= 0) return;
  const CellRange r = cells_of(h, box);
  if (r.cells() > Real(h.mask) + 1) {  // a huge query: scan every box
    for (int b = 0; b < h.count; ++b)
      if (aabb_overlap(h.boxes[b], box)) out.push_back(b);
    return;
  }
  for_cells(r, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    const std::uint32_t bucket = bucket_of(i, j, k, h.mask);
    for (std::uint32_t e = h.bucket_start[bucket]; e < h.bucket_start[bucket + 1]; ++e)
      if (aabb_overlap(h.boxes[h.items[e]], box)) out.push_back(h.items[e]);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace sim::detail
