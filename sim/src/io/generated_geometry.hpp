// Geometry the file readers generate from attributes, shared so that the scene parser, the scene
// writer (which recognises generated cylinders) and the URDF/MJCF importers agree to the bit:
// the vertices of a <cylinder> prism and the rotation taking +z to a direction.
#pragma once

#include <vector>

#include "sim/math.hpp"
#include "sim/spec.hpp"

namespace sim::io {

// Vertices of a prism of `segments` sides (at least 3) along local z: two regular polygons
// inscribed in the circle of `radius` at z = -half_length, then z = +half_length.
std::vector<Vec3> cylinder_vertices(Real radius, Real half_length, int segments);

// Points on an ellipsoid's surface (semi-axes `radii` along x, y, z): the poles and `rings` - 1
// circles of latitude of `segments` points each; their hull stands for the ellipsoid in the
// narrowphase against shapes other than planes (8 and 16: 114 points).
std::vector<Vec3> ellipsoid_points(const Vec3& radii, int rings = 8, int segments = 16);

// Points whose hull stands for a native Cylinder or Ellipsoid shape (`type`) against shapes other
// than planes: a prism of kNativeCylinderSegments sides, ellipsoid_points(); empty for other types.
constexpr int kNativeCylinderSegments = 24;
std::vector<Vec3> native_shape_points(ShapeType type, Real radius, Real half_length, const Vec3& radii);

// The shortest rotation taking +z to the direction of d (nonzero): the half-angle quaternion
// (1 + z·n, z × n) normalised, n = d / |d|; 180 degrees about x when n = -z.
Quat rotation_from_z(const Vec3& d);

}  // namespace sim::io
