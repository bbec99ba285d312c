// The work units of the proximity contacts (particle against triangle, edge against edge): fixed
// chunks of queries, run serially or in parallel, their contacts appended in chunk order, so the
// output is the same either way (deterministic warm starts and state hashes).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "collision/collide.hpp"

namespace sim::detail {

// Runs run(c, chunk) for c in [0, count) (in parallel when `parallel`), then appends every
// chunk's contacts to `out` in chunk order. The chunks keep their buffers between steps.
template <class Run>
void run_proximity_chunks(std::vector<CollisionScratch::ProximityChunk>& chunks, int count, bool parallel, Run&& run,
                          ContactBuffer& out) {
  if (static_cast<int>(chunks.size()) < count) chunks.resize(static_cast<std::size_t>(count));
  if (!parallel) {
    for (int c = 0; c < count; ++c) run(c, chunks[static_cast<std::size_t>(c)]);
  } else {
    tbb::parallel_for(tbb::blocked_range<int>(0, count, 1), [&](const tbb::blocked_range<int>& r) {
      for (int c = r.begin(); c != r.end(); ++c) run(c, chunks[static_cast<std::size_t>(c)]);
    });
  }
  for (int c = 0; c < count; ++c) {
    const auto& contacts = chunks[static_cast<std::size_t>(c)].contacts;
    out.contacts.insert(out.contacts.end(), contacts.begin(), contacts.end());
  }
}

}  // namespace sim::detail
