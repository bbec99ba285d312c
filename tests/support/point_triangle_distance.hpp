// Exact point–triangle distance: the oracle the face-contact tests measure penetration with.
#pragma once

#include "sim/math.hpp"

namespace test {

// Exact distance from p to triangle abc (Ericson, Real-Time Collision Detection, 5.1.5).
inline sim::Real point_triangle_distance(const sim::Vec3& p, const sim::Vec3& a, const sim::Vec3& b, const sim::Vec3& c) {
  const sim::Vec3 ab = b - a, ac = c - a, ap = p - a;
  const sim::Real d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return (p - a).norm();
  const sim::Vec3 bp = p - b;
  const sim::Real d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return (p - b).norm();
  const sim::Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + ab * (d1 / (d1 - d3)))).norm();
  const sim::Vec3 cp = p - c;
  const sim::Real d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return (p - c).norm();
  const sim::Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + ac * (d2 / (d2 - d6)))).norm();
  const sim::Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return (p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))))).norm();
  const sim::Real denom = 1 / (va + vb + vc);
  return (p - (a + ab * (vb * denom) + ac * (vc * denom))).norm();
}

}  // namespace test
