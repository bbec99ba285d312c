// Newton refinement of a contact normal on the support functions. For convex A and B and a unit
// n (from B towards A), φ(n) = min_a n·a - max_b n·b = -h_A(-n) - h_B(n) is their separation
// along n; its maximum over unit n is the signed distance (SAT), reached at the contact normal.
// Its gradient is G(n) = s_A(-n) - s_B(n) (support points), its Hessian is taken by central
// differences of G. GJK and EPA stop with the normal off by ~√(2δ/R) for a stop δ on a surface of
// curvature radius R (1e-5..1e-4 between curved shapes); a few Newton steps on the sphere bring
// it to round-off. A step is kept only when φ grows, so the normal never gets worse: flat faces
// (where EPA is already exact and G jumps) reject every step.
#pragma once

#include "collision/support.hpp"

namespace sim::detail {

// Refines the unit normal n in place; `scale` [m] sets the round-off allowance on φ. Returns the
// number of steps kept.
int refine_normal(const SupportShape& a, const SupportShape& b, Vec3& n, Real scale);

}  // namespace sim::detail
