#include "compile/initial_overlap_filter.hpp"

#include <algorithm>
#include <cstdio>

#include "collision/collide.hpp"
#include "sim/state.hpp"

namespace sim::detail {

void filter_initial_overlaps(const SceneSpec& spec, Model& model) {
  model.initial_overlap_pairs.clear();
  const bool any = std::any_of(spec.robots.begin(), spec.robots.end(),
                               [](const RobotIncludeSpec& r) { return r.self_collision && r.body_count > 1; });
  if (!any) return;
  // Contacts at the initial state, without margin: only actual overlaps.
  const State state = make_initial_state(model);
  CollisionScratch scratch;
  ContactBuffer contacts;
  generate_contacts(model, state, model.dt, Real(0), scratch, contacts);
  const auto robot_of = [&](int body) {
    for (std::size_t i = 0; i < spec.robots.size(); ++i) {
      const RobotIncludeSpec& r = spec.robots[i];
      if (body >= r.first_body && body < r.first_body + r.body_count) return static_cast<int>(i);
    }
    return -1;
  };
  for (const Contact& c : contacts.contacts) {
    if (c.a.kind != ContactSide::Body || c.b.kind != ContactSide::Body) continue;
    if (!(c.initial_gap < -kInitialOverlapTolerance)) continue;
    const int robot = robot_of(c.a.index);
    if (robot < 0 || robot != robot_of(c.b.index) || !spec.robots[static_cast<std::size_t>(robot)].self_collision) continue;
    const int a = std::min(c.a.index, c.b.index), b = std::max(c.a.index, c.b.index);
    const auto same = [&](const Model::FilteredPair& p) { return p.body_a == a && p.body_b == b; };
    auto it = std::find_if(model.initial_overlap_pairs.begin(), model.initial_overlap_pairs.end(), same);
    if (it == model.initial_overlap_pairs.end())
      model.initial_overlap_pairs.push_back({a, b, -c.initial_gap});
    else
      it->depth = std::max(it->depth, -c.initial_gap);
  }
  for (const Model::FilteredPair& p : model.initial_overlap_pairs) model.no_collision_pairs.push_back({p.body_a, p.body_b});
}

}  // namespace sim::detail

namespace sim {

std::string describe_initial_overlaps(const Model& m) {
  if (m.initial_overlap_pairs.empty()) return {};
  const std::size_t n = m.initial_overlap_pairs.size();
  std::string out = "self-collision: filtered " + std::to_string(n) + " link pair" + (n == 1 ? "" : "s") +
                    " overlapping at the initial pose:";
  for (const Model::FilteredPair& p : m.initial_overlap_pairs) {
    char depth[32];
    std::snprintf(depth, sizeof depth, "%.1f", 1000 * static_cast<double>(p.depth));
    out += " " + m.body_name[p.body_a] + "/" + m.body_name[p.body_b] + " (" + depth + " mm)";
  }
  return out;
}

}  // namespace sim
