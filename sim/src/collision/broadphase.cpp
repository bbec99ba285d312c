#include "collision/broadphase.hpp"

#include <algorithm>

namespace sim::detail {

void sweep_and_prune(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& groups,
                     SweepAndPrune& sap, std::vector<std::uint64_t>& pairs, bool sort) {
  const int count = static_cast<int>(boxes.size());
  // Axis of largest variance of the box centres; switch only for a clear gain, so that last
  // step's order stays nearly sorted.
  Vec3 mean = Vec3::Zero(), sq = Vec3::Zero();
  int included = 0;
  for (int i = 0; i < count; ++i) {
    if (groups[i] & kBroadphaseExcluded) continue;
    const Vec3 c = Real(0.5) * (boxes[i].lo + boxes[i].hi);
    mean += c;
    sq += c.cwiseProduct(c);
    ++included;
  }
  if (included > 0) {
    mean /= Real(included);
    const Vec3 var = sq / Real(included) - mean.cwiseProduct(mean);
    int best = 0;
    for (int k = 1; k < 3; ++k)
      if (var[k] > var[best]) best = k;
    if (sap.axis < 0 || var[best] > Real(1.5) * var[sap.axis]) sap.axis = best;
  }
  if (sap.axis < 0) sap.axis = 0;
  const int axis = sap.axis;

  // Keep last step's order when it holds the same objects, else start from index order.
  bool same = static_cast<int>(sap.order.size()) == included;
  for (int k = 0; same && k < included; ++k) {
    const int i = sap.order[k];
    same = i < count && !(groups[i] & kBroadphaseExcluded);
  }
  if (!same) {
    sap.order.clear();
    for (int i = 0; i < count; ++i)
      if (!(groups[i] & kBroadphaseExcluded)) sap.order.push_back(i);
  }
  const auto less = [&](int a, int b) {
    const Real la = boxes[a].lo[axis], lb = boxes[b].lo[axis];
    return la < lb || (la == lb && a < b);
  };
  // Insertion sort: linear for the nearly sorted order of a coherent scene; a full sort when the
  // order is far off (first call, teleports).
  std::size_t moves = 0;
  for (std::size_t k = 1; k < sap.order.size(); ++k) {
    const int key = sap.order[k];
    std::size_t m = k;
    while (m > 0 && less(key, sap.order[m - 1])) {
      sap.order[m] = sap.order[m - 1];
      --m;
      if (++moves > 8 * sap.order.size() + 64) break;
    }
    sap.order[m] = key;
    if (moves > 8 * sap.order.size() + 64) {
      std::sort(sap.order.begin(), sap.order.end(), less);
      break;
    }
  }
  sap.sorted_lo.resize(sap.order.size());
  for (std::size_t k = 0; k < sap.order.size(); ++k) sap.sorted_lo[k] = boxes[sap.order[k]].lo[axis];

  SweepView view;
  view.boxes = boxes.data();
  view.groups = groups.data();
  view.order = sap.order.data();
  view.sorted_lo = sap.sorted_lo.data();
  view.count = static_cast<int>(sap.order.size());
  view.axis = axis;
  for (int k = 0; k < view.count; ++k) sweep_object(view, k, [&](std::uint64_t pair) { pairs.push_back(pair); });
  if (sort) std::sort(pairs.begin(), pairs.end());
}

}  // namespace sim::detail
