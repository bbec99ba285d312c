// The bending rows of a shell's triangles from their rest shape (kernels/bending_row_kernel.hpp):
// per triangle, the mid-edge shape operator's Koiter energy as a constant quadratic form in its
// edges' hinge-angle deviations, free edges minimised out, split into eigen-rows.
#pragma once

#include <array>
#include <vector>

#include "sim/math.hpp"

namespace sim {

struct MidedgeBendingRow {
  std::array<int, 3> hinge{-1, -1, -1};         // indices into the hinge list given, -1 unused
  std::array<Real, 3> weight{0, 0, 0};          // w_j: m = Σ_j w_j (θ_j − θ̄_j)
  std::array<int, 6> particle{-1, -1, -1, -1, -1, -1};  // the triangle's corners, then opposite corners
  Real stiffness = 0;                           // k [N m/rad²]
};

// Appends to `out` the rows of every triangle with an interior edge. `rest` holds the particles'
// rest positions, `hinges` the triangles' interior edges as shell_hinges makes them (x0 x1 the edge,
// x2 x3 the opposite corners), `bending` D = E t³/(12(1 − ν²)) [N m], `poisson` ν.
void midedge_bending_rows(const std::vector<Vec3>& rest, const std::vector<std::array<int, 3>>& triangles,
                          const std::vector<std::array<int, 4>>& hinges, Real bending, Real poisson,
                          std::vector<MidedgeBendingRow>& out);

}  // namespace sim
