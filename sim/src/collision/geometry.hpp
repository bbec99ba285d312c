// Small geometric helpers shared by the collision stages: bounding boxes, closest points between
// points and segments, and the hash used for contact keys.
#pragma once

#include <cstdint>

#include "sim/math.hpp"

namespace sim::detail {

// Axis-aligned bounding box in world space [m].
struct Aabb {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();
};

inline bool aabb_overlap(const Aabb& a, const Aabb& b) {
  return a.lo.x() <= b.hi.x() && b.lo.x() <= a.hi.x() && a.lo.y() <= b.hi.y() &&
         b.lo.y() <= a.hi.y() && a.lo.z() <= b.hi.z() && b.lo.z() <= a.hi.z();
}

// Closest point to p on the segment [a, b]; t in [0, 1] is its parameter.
Vec3 closest_point_on_segment(const Vec3& p, const Vec3& a, const Vec3& b, Real& t);

// Closest points c1 = p1 + s (q1 - p1) and c2 = p2 + t (q2 - p2) between two segments
// (Ericson, Real-Time Collision Detection, 5.1.9). Degenerate segments (points) are allowed.
// For parallel segments s is the middle of the overlap, so the result varies continuously.
void closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2,
                             Real& s, Real& t, Vec3& c1, Vec3& c2);

// Closest point to p on triangle abc and its barycentric weights w (x = w0 a + w1 b + w2 c, each
// in [0, 1], summing to 1; Ericson, Real-Time Collision Detection, 5.1.5, by Voronoi regions).
// A degenerate triangle gives the closest point of its edges.
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Real w[3]);

// A unit vector perpendicular to the unit vector d.
inline Vec3 any_perpendicular(const Vec3& d) {
  Vec3 t1, t2;
  orthonormal_basis(d, t1, t2);
  return t1;
}

// SplitMix64 finaliser: a cheap bijective 64-bit mix.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t value) {
  return mix64(seed ^ mix64(value));
}

// Feature ids for contact keys: a tag (which kind of feature) and up to three small indices,
// mixed into 64 bits (unique within a shape pair's manifold for all practical purposes).
inline std::uint64_t feature_id(std::uint32_t tag, std::uint32_t i, std::uint32_t j = 0,
                                std::uint32_t k = 0) {
  return mix64((static_cast<std::uint64_t>(tag) << 56) ^ (static_cast<std::uint64_t>(i) << 28) ^ j) ^
         (static_cast<std::uint64_t>(k) * 0x9e3779b97f4a7c15ull);
}

}  // namespace sim::detail
