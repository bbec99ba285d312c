#include "compile/initial_overlap_filter.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "collision/overlap_query.hpp"
#include "sim/state.hpp"

namespace sim::detail {

void filter_initial_overlaps(const SceneSpec& spec, Model& model) {
  model.initial_overlap_pairs.clear();
  const bool any = std::any_of(spec.robots.begin(), spec.robots.end(),
                               [](const RobotIncludeSpec& r) { return r.self_collision && r.body_count > 1; });
  if (!any) return;
  // The robot of each body (-1: none): only pairs within one self-colliding robot are tested.
  std::vector<int> robot_of(static_cast<std::size_t>(model.body_count), -1);
  for (std::size_t i = 0; i < spec.robots.size(); ++i) {
    const RobotIncludeSpec& r = spec.robots[i];
    if (!r.self_collision) continue;
    for (int b = std::max(r.first_body, 0); b < std::min(r.first_body + r.body_count, model.body_count); ++b)
      robot_of[static_cast<std::size_t>(b)] = static_cast<int>(i);
  }
  // Overlaps at the initial state, without margin: broadphase pairs of one robot's bodies and
  // each pair's narrowphase depth only (collision/overlap_query.hpp). Making every contact of
  // the scene cost 1.5 s for a chain of 1,000 coincident links (issue 13).
  const State state = make_initial_state(model);
  CollisionScratch scratch;
  std::vector<BodyOverlap> overlaps;
  find_body_overlaps(model, state, robot_of, kInitialOverlapTolerance, scratch, overlaps);
  // Sorted and merged (the deepest shape pair's depth per body pair): O(c log c) in the
  // overlapping shape pairs c. Searching the pair list per contact was O(c p), 262 s for 1,000
  // coincident links.
  std::vector<Model::FilteredPair>& pairs = model.initial_overlap_pairs;
  pairs.reserve(overlaps.size());
  for (const BodyOverlap& o : overlaps) pairs.push_back({o.body_a, o.body_b, o.depth});
  std::sort(pairs.begin(), pairs.end(), [](const Model::FilteredPair& x, const Model::FilteredPair& y) {
    return x.body_a != y.body_a ? x.body_a < y.body_a : x.body_b != y.body_b ? x.body_b < y.body_b : x.depth > y.depth;
  });
  // The deepest of each pair sorts first; unique keeps it.
  pairs.erase(std::unique(pairs.begin(), pairs.end(),
                          [](const Model::FilteredPair& x, const Model::FilteredPair& y) {
                            return x.body_a == y.body_a && x.body_b == y.body_b;
                          }),
              pairs.end());
  for (const Model::FilteredPair& p : model.initial_overlap_pairs) model.no_collision_pairs.push_back({p.body_a, p.body_b});
}

}  // namespace sim::detail

namespace sim {

std::string describe_initial_overlaps(const Model& m) {
  if (m.initial_overlap_pairs.empty()) return {};
  const std::size_t n = m.initial_overlap_pairs.size();
  std::string out = "self-collision: filtered " + std::to_string(n) + " link pair" + (n == 1 ? "" : "s") +
                    " overlapping at the initial pose:";
  // At most the first 20 pairs by name (a chain of 1,000 coincident links has 498,501).
  constexpr std::size_t kListed = 20;
  for (std::size_t k = 0; k < std::min(n, kListed); ++k) {
    const Model::FilteredPair& p = m.initial_overlap_pairs[k];
    char depth[32];
    std::snprintf(depth, sizeof depth, "%.1f", 1000 * static_cast<double>(p.depth));
    out += " " + m.body_name[p.body_a] + "/" + m.body_name[p.body_b] + " (" + depth + " mm)";
  }
  if (n > kListed) out += " and " + std::to_string(n - kListed) + " more";
  return out;
}

}  // namespace sim
