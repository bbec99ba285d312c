#include "collision/geometry.hpp"

#include <algorithm>
#include <limits>

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

Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, Real w[3]) {
  const auto set = [&](Real u, Real v, Real x) {
    w[0] = u, w[1] = v, w[2] = x;
    return Vec3(u * a + v * b + x * c);
  };
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const Real d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return set(1, 0, 0);
  const Vec3 bp = p - b;
  const Real d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return set(0, 1, 0);
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const Real t = d1 / (d1 - d3);
    return set(1 - t, t, 0);
  }
  const Vec3 cp = p - c;
  const Real d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return set(0, 0, 1);
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const Real t = d2 / (d2 - d6);
    return set(1 - t, 0, t);
  }
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const Real t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return set(0, 1 - t, t);
  }
  const Real sum = va + vb + vc;
  if (!(sum > 0)) {  // degenerate (collinear corners): the nearest of the three edges
    Real best = std::numeric_limits<Real>::infinity();
    Vec3 out = a;
    const Vec3* corner[3] = {&a, &b, &c};
    for (int e = 0; e < 3; ++e) {
      Real t = 0;
      const Vec3 q = closest_point_on_segment(p, *corner[e], *corner[(e + 1) % 3], t);
      const Real d = (p - q).squaredNorm();
      if (d < best) {
        best = d, out = q;
        w[e] = 1 - t, w[(e + 1) % 3] = t, w[(e + 2) % 3] = 0;
      }
    }
    return out;
  }
  const Real v = vb / sum, x = vc / sum;
  return set(1 - v - x, v, x);
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
