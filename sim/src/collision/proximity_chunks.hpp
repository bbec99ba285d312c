// The work units of the proximity contacts (particle against triangle, edge against edge): fixed
// chunks of queries, run serially or in parallel, their contacts appended in chunk order, so the
// output is the same either way (deterministic warm starts and state hashes).
#pragma once

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "collision/box_hash.hpp"
#include "collision/collide.hpp"

namespace sim::detail {

// One chunk's work: queries [chunk × chunk_size, min(count, (chunk + 1) × chunk_size)), each the
// items of `hash` overlapping query_box(i), every candidate j handed to visit(i, j, contacts).
// The buffers are reserved once for a query that returns every entry of the hash (an item once
// per cell it shares with the query, before the duplicates go) and for a few contacts per query:
// the counts change as surfaces fold and would otherwise reallocate after warm-up.
template <class QueryBox, class Visit>
void run_proximity_queries(const BoxHash& hash, std::size_t items, int chunk, int chunk_size, int count,
                           CollisionScratch::ProximityChunk& ch, QueryBox&& query_box, Visit&& visit) {
  ch.contacts.clear();
  ch.candidates.reserve(std::max(items, hash.items.capacity()));
  ch.contacts.reserve(4 * static_cast<std::size_t>(chunk_size));
  for (int i = chunk * chunk_size; i < std::min(count, (chunk + 1) * chunk_size); ++i) {
    query_box_hash(hash, query_box(i), ch.candidates);
    for (int j : ch.candidates) visit(i, j, ch.contacts);
  }
}

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
