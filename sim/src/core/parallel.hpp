// Deterministic parallel loops over TBB. Work is split into fixed-size chunks that do not depend
// on the thread count, and reductions add the per-chunk partial sums in chunk order, so results
// are bit-identical on 1 or N threads (ARCHITECTURE.md §5).
#pragma once

#include <tbb/parallel_for.h>
#include <tbb/parallel_scan.h>
#include <tbb/partitioner.h>

#include <algorithm>
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

// Sum of term(i) for i in [0, count): per-chunk partial sums added in chunk order.
// `partials` is caller-owned scratch (no allocation once it has grown).
template <class F>
Real deterministic_sum(int count, std::vector<Real>& partials, F&& term) {
  const int chunks = (count + kChunkSize - 1) / kChunkSize;
  if (static_cast<int>(partials.size()) < chunks) partials.resize(chunks);
  auto chunk_sum = [&](int c) {
    const int end = std::min(count, (c + 1) * kChunkSize);
    Real s = 0;
    for (int i = c * kChunkSize; i < end; ++i) s += term(i);
    partials[c] = s;
  };
  if (count < parallel_threshold()) {
    for (int c = 0; c < chunks; ++c) chunk_sum(c);
  } else {
    tbb::parallel_for(tbb::blocked_range<int>(0, chunks, 1), [&](const tbb::blocked_range<int>& r) {
      for (int c = r.begin(); c != r.end(); ++c) chunk_sum(c);
    }, tbb::static_partitioner());
  }
  Real total = 0;
  for (int c = 0; c < chunks; ++c) total += partials[c];
  return total;
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
