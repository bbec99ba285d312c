// Support mappings of convex shapes: the point of a shape farthest along a direction, in closed
// form for boxes, cylinders and ellipsoids, by a scan for point sets (a sphere's centre, a
// capsule's segment, a hull's vertices). GJK and EPA see shapes only through these. Round shapes
// are their core (point or segment) plus a radius that the callers add back.
#pragma once

#include <cstdint>

#include "sim/math.hpp"

namespace sim::detail {

struct Collider;

struct SupportShape {
  enum class Kind : std::uint8_t { Points, Box, Cylinder, Ellipsoid };
  Kind kind = Kind::Points;
  const Vec3* points = nullptr;  // Points: the set (core points live in `core` below)
  int count = 0;
  Vec3 core[2] = {Vec3::Zero(), Vec3::Zero()};  // a round shape's core point or segment
  Vec3 center = Vec3::Zero();     // Box, Cylinder, Ellipsoid: the shape frame in the world
  Mat3 rotation = Mat3::Identity();
  Vec3 size = Vec3::Zero();       // Box: half extents; Cylinder: (radius, half length, 0); Ellipsoid: semi-axes [m]
  Real radius = 0;                // swept radius about the core (round shapes), not in support()

  // The point of the core farthest along d (any such point when several are; d need not be unit).
  Vec3 support(const Vec3& d) const;
  // A point inside the core (its centre).
  Vec3 interior() const;
  // A point of the core: the first point of a set, else the support along +x.
  Vec3 any_point() const { return kind == Kind::Points ? (points ? points[0] : core[0]) : support(Vec3::UnitX()); }
};

// A set of `count` world points (the hull of them).
SupportShape support_of_points(const Vec3* points, int count);
// The core of a placed collider (round, polyhedron, native cylinder or ellipsoid; not planes).
SupportShape support_of(const Collider& c);

}  // namespace sim::detail
