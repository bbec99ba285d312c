// Row-sized Eigen buffers that keep their capacity (no allocation in the step loop).
//
// An Eigen vector frees and allocates on every change of size, shrinking too, so a buffer sized to
// the step's row count (which follows the contact count) would reallocate whenever a contact comes
// or goes. These buffers are sized by grow_rows instead: size() is a high-water mark, never less
// than the rows in use, and only grows (geometrically, so a rising count reallocates O(log n)
// times). Their users index [0, n) with n the rows in use (SchurSystem::size(), RowSet::count) and
// take .head(n) for whole-vector operations; the entries past n are zero or left from an earlier
// step, never read.
#pragma once

#include <Eigen/Core>
#include <algorithm>

#include "sim/math.hpp"

namespace sim {

// Makes v hold at least n entries, keeping its size when it already does. A new buffer is zeroed,
// so no entry is ever uninitialised.
inline void grow_rows(Eigen::Matrix<Real, Eigen::Dynamic, 1>& v, Eigen::Index n) {
  if (v.size() >= n) return;
  v.setZero(std::max(n, v.size() + v.size() / 2));
}

}  // namespace sim
