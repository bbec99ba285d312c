// Deterministic parallel loops over TBB. Work is split into fixed-size chunks that do not depend
// on the thread count, and reductions add the per-chunk partial sums in chunk order, so results
// are bit-identical on 1 or N threads (ARCHITECTURE.md §5).
#pragma once

#include <tbb/parallel_for.h>
#include <tbb/parallel_scan.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "sim/math.hpp"

namespace sim {

// Items per chunk; chunks never depend on the thread count. Small loops run on the calling
// thread: the fork/join overhead (~10 µs) outweighs the work of small scenes.
inline constexpr int kChunkSize = 512;
// Loops shorter than this run serially; adjustable so tests can force the parallel path on small
// scenes (results are identical either way).
inline int& parallel_threshold() {
  static int threshold = 4096;
  return threshold;
}

template <class F>
void parallel_for(int count, F&& body) {
  if (count < parallel_threshold()) {
    for (int i = 0; i < count; ++i) body(i);
    return;
  }
  const int chunks = (count + kChunkSize - 1) / kChunkSize;
  tbb::parallel_for(tbb::blocked_range<int>(0, chunks, 1), [&](const tbb::blocked_range<int>& r) {
    for (int c = r.begin(); c != r.end(); ++c) {
      const int end = std::min(count, (c + 1) * kChunkSize);
      for (int i = c * kChunkSize; i < end; ++i) body(i);
    }
  }, tbb::static_partitioner());
}

// Loops of independent items whose results do not depend on how they are split (no reduction:
// each item writes only its own outputs): parallel once `work` (the items' cost in some unit, e.g.
// the row entries a per-body gather reads) reaches `threshold`, split evenly over the arena's
// threads (static partitioner: the split follows the thread count; the results cannot).
template <class F>
void parallel_for_work(int count, long work, long threshold, F&& body) {
  if (work < threshold || count < 2) {
    for (int i = 0; i < count; ++i) body(i);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<int>(0, count), [&](const tbb::blocked_range<int>& r) {
    for (int i = r.begin(); i != r.end(); ++i) body(i);
  }, tbb::static_partitioner());
}

// Row entries from which a per-node gather (SchurSystem::jt, jt_inv_h, gradient_t, inv_h) goes
// parallel: the row loops' 4096 items in entries (about two per row), so a 210-box pyramid's
// gather (~9,600 entries, 210 bodies) runs on both cores where the node count (4096) kept it
// serial; docs/benchmarks.md has what the shared 2-core machine could and could not resolve.
// Tests set it to 1 to force the parallel path.
inline long& gather_parallel_entries() {
  static long threshold = 4096;
  return threshold;
}

// K sums at once: terms(i, acc) adds item i's K terms into acc[0..K) (and may write item i's own
// outputs: a fused pass that updates vectors and reduces them). Per-chunk partial sums (chunks of
// kChunkSize items, independent of the thread count) added in chunk order, so the sums are
// bit-identical on 1 or N threads. `partials` is caller-owned scratch (no allocation once grown).
template <int K, class F>
std::array<Real, K> deterministic_sums(int count, std::vector<Real>& partials, F&& terms) {
  const int chunks = (count + kChunkSize - 1) / kChunkSize;
  if (static_cast<int>(partials.size()) < K * chunks) partials.resize(static_cast<std::size_t>(K) * chunks);
  auto chunk_sum = [&](int c) {
    const int end = std::min(count, (c + 1) * kChunkSize);
    Real acc[K] = {};
    for (int i = c * kChunkSize; i < end; ++i) terms(i, acc);
    for (int k = 0; k < K; ++k) partials[static_cast<std::size_t>(K) * c + k] = acc[k];
  };
  if (count < parallel_threshold()) {
    for (int c = 0; c < chunks; ++c) chunk_sum(c);
  } else {
    tbb::parallel_for(tbb::blocked_range<int>(0, chunks, 1), [&](const tbb::blocked_range<int>& r) {
      for (int c = r.begin(); c != r.end(); ++c) chunk_sum(c);
    }, tbb::static_partitioner());
  }
  std::array<Real, K> total{};
  for (int c = 0; c < chunks; ++c)
    for (int k = 0; k < K; ++k) total[k] += partials[static_cast<std::size_t>(K) * c + k];
  return total;
}

// Sum of term(i) for i in [0, count): deterministic_sums with one sum.
template <class F>
Real deterministic_sum(int count, std::vector<Real>& partials, F&& term) {
  return deterministic_sums<1>(count, partials, [&](int i, Real* acc) { acc[0] += term(i); })[0];
}

// In place: v[i] = v[0] + … + v[i − 1] for i in [0, n] (v has n + 1 entries, v[n] ends as the
// total): the offsets of items from their counts. Integer sums are exact, so the parallel scan
// (TBB, for long arrays) and the serial one give the same offsets.
inline void exclusive_scan_counts(std::vector<int>& v, int n) {
  v[n] = 0;
  if (n + 1 < parallel_threshold()) {
    std::exclusive_scan(v.begin(), v.begin() + n + 1, v.begin(), 0);
    return;
  }
  tbb::parallel_scan(
      tbb::blocked_range<int>(0, n + 1, kChunkSize), 0,
      [&](const tbb::blocked_range<int>& r, int sum, bool is_final) {
        for (int i = r.begin(); i != r.end(); ++i) {
          const int count = v[i];
          if (is_final) v[i] = sum;
          sum += count;
        }
        return sum;
      },
      [](int a, int b) { return a + b; });
}

}  // namespace sim
