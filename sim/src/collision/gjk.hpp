// GJK distance (Gilbert, Johnson, Keerthi 1988) between two convex sets given as the convex
// hulls of point sets: a point, a segment, a box's corners, a hull's vertices. Used for closest
// points of separated shapes; overlapping shapes are reported as such and left to SAT.
#pragma once

#include "sim/math.hpp"

namespace sim::detail {

// The convex hull of `count` world points.
struct ConvexPoints {
  const Vec3* points = nullptr;
  int count = 0;
};

struct GjkResult {
  bool overlap = false;     // the sets intersect (distance 0, points meaningless)
  Real distance = 0;        // |point_a - point_b| [m]
  Vec3 point_a = Vec3::Zero();  // closest point on a (world)
  Vec3 point_b = Vec3::Zero();  // closest point on b (world)
  int iterations = 0;
};

GjkResult gjk_distance(const ConvexPoints& a, const ConvexPoints& b);

}  // namespace sim::detail
