// GJK distance (Gilbert, Johnson, Keerthi 1988) between two convex sets given by their support
// mappings (collision/support.hpp): point sets (a point, a segment, a box's corners, a hull's
// vertices) and the closed forms of boxes, cylinders and ellipsoids. Used for closest points of
// separated shapes; overlapping shapes are reported as such, with the last simplex, and left to
// SAT or to EPA (collision/epa.hpp).
#pragma once

#include "collision/support.hpp"
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
  // The final simplex: points a_i - b_i of the Minkowski difference with their support points.
  // When overlap is set it holds (up to round-off) the origin; EPA starts from it.
  int simplex_count = 0;
  Vec3 simplex_a[4], simplex_b[4];
};

GjkResult gjk_distance(const SupportShape& a, const SupportShape& b);
inline GjkResult gjk_distance(const ConvexPoints& a, const ConvexPoints& b) {
  return gjk_distance(support_of_points(a.points, a.count), support_of_points(b.points, b.count));
}

}  // namespace sim::detail
