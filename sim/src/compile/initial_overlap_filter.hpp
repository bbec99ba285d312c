// Self-collision filtering of a robot's link pairs that overlap at the initial pose.
//
// Robot description files approximate links by coarse collision shapes; neighbouring links that
// are not joined directly (a thumb's second link and the palm of the Allegro hand) often overlap
// in the robot's own rest pose. With every joint at a limit or held by its drive such a contact
// can be infeasible (the only way out turns a joint past its limit), and a hard contact row then
// fights the joint rows with an ever growing force. As MuJoCo excludes parent-child pairs and
// Isaac excludes adjacent links, a robot included with self_collision="true" keeps its
// self-collisions except the pairs found overlapping at the initial pose, which are filtered.
#pragma once

#include "sim/model.hpp"
#include "sim/spec.hpp"

namespace sim::detail {

// Pairs of a robot's bodies penetrating deeper than this at the initial pose are filtered [m];
// shallower ones are contacts at rest (touching faces, round-off).
inline constexpr Real kInitialOverlapTolerance = Real(1e-5);

// For every robot of `spec` with self_collision, runs collision detection at the model's initial
// state and adds its body pairs that overlap there to Model::no_collision_pairs, recording them
// (with their depth) in Model::initial_overlap_pairs.
void filter_initial_overlaps(const SceneSpec& spec, Model& model);

}  // namespace sim::detail
