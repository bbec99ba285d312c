// Overlap-only query (compile time): which pairs of bodies penetrate at a state, and how deep,
// without making Contacts. The initial-overlap filter (compile/initial_overlap_filter.cpp) needs
// only that: generate_contacts built a full Contact (sides in body frames, friction, structure
// field, feature key) for each of the 498,501 pairs of a chain of 1,000 coincident links and then
// threw all but the depth away.
#pragma once

#include <vector>

#include "collision/collide.hpp"

namespace sim::detail {

struct BodyOverlap {
  int body_a = -1, body_b = -1;  // body_a < body_b
  Real depth = 0;                // the deepest penetration of their shapes, -(separation - thickness) [m]
};

// For every candidate pair of shapes (generate_contacts' broadphase and skip rules, margin 0,
// the boxes grown by the motion over model.dt) on two bodies with the same group >= 0
// (`body_group`, one per body), the pair's narrowphase points (narrow_pair: no Contact, no
// friction) and their deepest penetration; a pair deeper than `tolerance` goes to `out` as
// (lower body, higher body, depth). A body pair appears once per shape pair that overlaps, in
// candidate order (deterministic, whatever the thread count). Shape pairs of other bodies, the
// world and particles are never passed to the narrowphase.
void find_body_overlaps(const Model& model, const State& state, const std::vector<int>& body_group, Real tolerance,
                        CollisionScratch& scratch, std::vector<BodyOverlap>& out);

}  // namespace sim::detail
