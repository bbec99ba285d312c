// Contact manifolds: the raw points the narrowphase produces, polygon clipping (Sutherland-Hodgman
// with feature ids, so a clipped point keeps its id from step to step) and the reduction of a
// large manifold to a few points that keep its deepest point and its extent.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/contact.hpp"
#include "sim/math.hpp"

namespace sim::detail {

// One contact between a "first" and a "second" shape of a narrowphase call.
struct RawContact {
  Vec3 point_first;    // on the first shape's surface (world) [m]
  Vec3 point_second;   // on the second shape's surface (world) [m]
  Vec3 normal;         // unit, from the second shape towards the first
  std::uint64_t feature = 0;  // stable id of the feature pair within the shape pair
  SdfFeature sdf_feature = SdfFeature::None;  // SDF narrowphase: the feature and the field
  std::uint16_t sdf_iterations = 0;           // evaluations its local optimisation spent
  Real separation() const { return normal.dot(point_first - point_second); }
};

struct ClipVertex {
  Vec3 p;
  std::uint32_t id = 0;
};

// Keeps the part of the polygon `in` where n·x <= d, appending to `out` (cleared first). A point
// created on the plane gets an id made of the ids of the edge it splits and of `plane_id`.
// Vertices up to `slop` outside count as inside, so an edge lying along the plane (faces that
// coincide up to round-off) is kept whole instead of being cut at an arbitrary point.
void clip_polygon(const std::vector<ClipVertex>& in, const Vec3& n, Real d, std::uint32_t plane_id,
                  std::vector<ClipVertex>& out, Real slop = 0);

// Reduces contacts[begin, end) to at most max_points, keeping the deepest point, the two points
// farthest apart, the widest triangle and quad around them, then farthest-point samples; the kept
// points stay in their original order.
void reduce_manifold(std::vector<RawContact>& contacts, std::size_t begin, int max_points,
                     std::vector<char>& keep_scratch);

}  // namespace sim::detail
