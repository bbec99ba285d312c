// Triangle clean-up shared by the baker and the collision topology: the triangles of a mesh that
// can be baked (indices in range, three distinct corners, non-zero area).
#pragma once

#include <array>
#include <vector>

#include "sim/sdf.hpp"

namespace sim::detail {

// True when triangle t of `mesh` has in-range, distinct indices and an area above round-off.
bool triangle_is_valid(const TriangleMesh& mesh, const std::array<int, 3>& t, Real area_epsilon);

// Round-off area threshold for a mesh: (1e-12 · largest extent)², at least the smallest normal.
Real degenerate_area_epsilon(const TriangleMesh& mesh);

// The mesh without invalid triangles (vertices kept as they are, so indices stay valid).
TriangleMesh without_invalid_triangles(const TriangleMesh& mesh);

}  // namespace sim::detail
