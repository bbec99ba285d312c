// Geometry the file readers generate from attributes, shared so that the scene parser, the scene
// writer (which recognises generated cylinders) and the URDF/MJCF importers agree to the bit:
// the vertices of a <cylinder> prism and the rotation taking +z to a direction.
#pragma once

#include <vector>

#include "sim/math.hpp"

namespace sim::io {

// Vertices of a prism of `segments` sides (at least 3) along local z: two regular polygons
// inscribed in the circle of `radius` at z = -half_length, then z = +half_length.
std::vector<Vec3> cylinder_vertices(Real radius, Real half_length, int segments);

// The shortest rotation taking +z to the direction of d (nonzero): the half-angle quaternion
// (1 + z·n, z × n) normalised, n = d / |d|; 180 degrees about x when n = -z.
Quat rotation_from_z(const Vec3& d);

}  // namespace sim::io
