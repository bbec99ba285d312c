// find_body_overlaps(): broadphase pairs of grouped bodies, then only each pair's narrowphase
// depth (see overlap_query.hpp).
#include "collision/overlap_query.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

namespace sim::detail {

namespace {

constexpr std::size_t kChunkPairs = 1024;  // candidate pairs per work unit

int group_of(const std::vector<int>& body_group, const CollisionObject& o) {
  return o.body >= 0 && o.body < static_cast<int>(body_group.size()) ? body_group[static_cast<std::size_t>(o.body)] : -1;
}

}  // namespace

void find_body_overlaps(const Model& model, const State& state, const std::vector<int>& body_group, Real tolerance,
                        CollisionScratch& scratch, std::vector<BodyOverlap>& out) {
  out.clear();
  if (static_cast<int>(state.q.size()) < model.coord_count() || static_cast<int>(state.u.size()) < model.dof_count())
    return;
  prepare_pairs(model, state, model.dt, Real(0), scratch);
  // Only pairs of two bodies of one group (particles and world shapes have no body).
  std::vector<std::uint64_t> pairs;
  for (std::uint64_t p : scratch.pairs) {
    const CollisionObject &x = scratch.objects[pair_first(p)], &y = scratch.objects[pair_second(p)];
    const int g = group_of(body_group, x);
    if (g >= 0 && x.particle < 0 && y.particle < 0 && g == group_of(body_group, y)) pairs.push_back(p);
  }
  const std::size_t chunk_count = (pairs.size() + kChunkPairs - 1) / kChunkPairs;
  if (scratch.chunks.size() < chunk_count) scratch.chunks.resize(chunk_count);
  std::vector<std::vector<BodyOverlap>> found(chunk_count);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunk_count, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      NarrowScratch& ns = scratch.chunks[k].narrow;
      const std::size_t end = std::min(pairs.size(), (k + 1) * kChunkPairs);
      for (std::size_t p = k * kChunkPairs; p < end; ++p) {
        const PairSides sides = narrow_pair(scratch, pairs[p], model.dt, Real(0), ns);
        Real depth = -std::numeric_limits<Real>::infinity();
        for (const RawContact& c : ns.contacts) depth = std::max(depth, sides.thickness - c.separation());
        if (!(depth > tolerance)) continue;
        const int a = scratch.objects[sides.a].body, b = scratch.objects[sides.b].body;
        found[k].push_back({std::min(a, b), std::max(a, b), depth});
      }
    }
  });
  for (const std::vector<BodyOverlap>& f : found) out.insert(out.end(), f.begin(), f.end());
}

}  // namespace sim::detail
