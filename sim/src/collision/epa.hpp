// Penetration depth of two overlapping convex sets by the Expanding Polytope Algorithm (van den
// Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game Objects", GDC 2001;
// Collision Detection in Interactive 3D Environments, 2004, section 4.3.8): starting from GJK's
// simplex that holds the origin, the polytope inside the Minkowski difference A - B grows by the
// support point along the normal of its face closest to the origin until that support point adds
// less than the tolerance. The face's distance is the depth, its normal the direction that
// separates the sets fastest, its barycentric point the deepest points of A and B.
#pragma once

#include "collision/gjk.hpp"
#include "collision/support.hpp"

namespace sim::detail {

struct EpaResult {
  bool ok = false;             // false: degenerate input (flat sets, no first polytope)
  Real depth = 0;              // length of the shortest translation that separates the sets [m]
  Vec3 normal = Vec3::UnitZ(); // unit outward normal of A - B there: moving A by -depth·normal separates
  Vec3 point_a = Vec3::Zero(); // A's deepest point (its support along normal) [m]
  Vec3 point_b = Vec3::Zero(); // B's deepest point (its support along -normal): point_a - point_b = depth·normal
  int iterations = 0;
};

// `gjk` must be gjk_distance(a, b) with overlap set. `tolerance` [m]: the stop on the support
// point's gain over the closest face (the depth is then within it). Out of room (96 vertices: deep
// overlaps of curved sets, where every direction is nearly as close) the closest face so far is
// returned: its depth a lower bound, its normal close; the caller measures the separation along
// the (refined) normal, -h_{A-B}(normal), an upper bound (collision/narrowphase_native.cpp).
EpaResult epa_penetration(const SupportShape& a, const SupportShape& b, const GjkResult& gjk, Real tolerance);

}  // namespace sim::detail
