#include "collision/geometry.hpp"

#include <algorithm>

namespace sim::detail {

namespace {
Real clamp01(Real x) { return std::clamp(x, Real(0), Real(1)); }
}  // namespace

Vec3 closest_point_on_segment(const Vec3& p, const Vec3& a, const Vec3& b, Real& t) {
  const Vec3 ab = b - a;
  const Real len2 = ab.squaredNorm();
  t = len2 > Real(0) ? clamp01((p - a).dot(ab) / len2) : Real(0);
  return a + t * ab;
}

void closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2,
                             Real& s, Real& t, Vec3& c1, Vec3& c2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const Real a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  if (a <= Real(0) && e <= Real(0)) {
    s = t = 0;
  } else if (a <= Real(0)) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const Real c = d1.dot(r);
    if (e <= Real(0)) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const Real b = d1.dot(d2);
      const Real denom = a * e - b * b;
      if (denom > Real(1e-10) * a * e) {
        s = clamp01((b * f - c * e) / denom);
      } else {
        // Parallel: the middle of the overlap of segment 2 projected on segment 1.
        const Real u0 = (p2 - p1).dot(d1) / a, u1 = (q2 - p1).dot(d1) / a;
        const Real lo = std::max(Real(0), std::min(u0, u1)), hi = std::min(Real(1), std::max(u0, u1));
        s = lo <= hi ? Real(0.5) * (lo + hi) : (hi < Real(0) ? Real(0) : Real(1));
      }
      t = (b * s + f) / e;
      if (t < Real(0)) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > Real(1)) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  c1 = p1 + d1 * s;
  c2 = p2 + d2 * t;
}

}  // namespace sim::detail
