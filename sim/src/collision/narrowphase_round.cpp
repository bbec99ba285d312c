// Round shapes against each other: spheres, capsules and particles are core points or segments
// swept by a radius, so their contact is the closest points of the cores moved out by the radii.
#include <algorithm>
#include <cmath>

#include "collision/geometry.hpp"
#include "collision/narrowphase.hpp"

namespace sim::detail {

void collide_round_round(const Collider& a, const Collider& b, Real max_sep, NarrowScratch& s) {
  Real sa = 0, tb = 0;
  Vec3 ca, cb;
  closest_points_segments(a.p0, a.p1, b.p0, b.p1, sa, tb, ca, cb);
  const Vec3 ua = a.p1 - a.p0, ub = b.p1 - b.p0;
  const Vec3 d = ca - cb;
  Real dist = d.norm();
  const Real tiny = Real(1e-9) * std::max(a.size, b.size);
  Vec3 n;
  if (dist > tiny) {
    n = d / dist;
  } else {
    // Cores intersect: any direction perpendicular to both cores, else any at all.
    const Vec3 c = ua.cross(ub);
    if (c.norm() > tiny * (ua.norm() + ub.norm())) {
      n = c.normalized();
    } else if (ua.norm() > tiny) {
      n = any_perpendicular(ua.normalized());
    } else if (ub.norm() > tiny) {
      n = any_perpendicular(ub.normalized());
    } else {
      n = Vec3::UnitZ();
    }
    const Vec3 mid_a = Real(0.5) * (a.p0 + a.p1), mid_b = Real(0.5) * (b.p0 + b.p1);
    if (n.dot(mid_a - mid_b) < 0) n = -n;
    dist = 0;
  }
  if (dist - a.radius - b.radius >= max_sep) return;

  // Nearly parallel capsules side by side: a point at each end of their overlap, so one resting
  // on the other does not pivot about a single point.
  const Real la = ua.norm(), lb = ub.norm();
  if (la > tiny && lb > tiny && ua.cross(ub).norm() <= Real(0.02) * la * lb) {
    const Real u0 = (b.p0 - a.p0).dot(ua) / (la * la), u1 = (b.p1 - a.p0).dot(ua) / (la * la);
    const Real lo = std::max(Real(0), std::min(u0, u1)), hi = std::min(Real(1), std::max(u0, u1));
    if ((hi - lo) * la > Real(1e-3) * std::max(la, lb)) {
      for (int k = 0; k < 2; ++k) {
        const Vec3 p = a.p0 + ua * (k ? hi : lo);
        Real t = 0;
        const Vec3 q = closest_point_on_segment(p, b.p0, b.p1, t);
        if (n.dot(p - q) - a.radius - b.radius >= max_sep) continue;
        s.contacts.push_back({p - n * a.radius, q + n * b.radius, n,
                              feature_id(kTagRoundRound, static_cast<std::uint32_t>(k + 1))});
      }
      return;
    }
  }
  s.contacts.push_back({ca - n * a.radius, cb + n * b.radius, n, feature_id(kTagRoundRound, 0)});
}

}  // namespace sim::detail
