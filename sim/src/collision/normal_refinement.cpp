// The Hessian's columns are central differences of G over ±ε and ±ε/2: on a smooth patch the
// first is twice the second, across a jump of the support point (a cylinder's side, where the
// support flips between the caps as n crosses the axis' normal plane; a face) both are the jump.
// A jump along one tangent makes that tangent flat (the ruled side's axis): the step is taken
// along the other, curved one only.
#include "collision/normal_refinement.hpp"

#include <cmath>
#include <limits>

namespace sim::detail {
namespace {

constexpr Real kStep = sizeof(Real) == 8 ? Real(1e-4) : Real(1e-2);  // central-difference angle [rad]

Vec3 gradient(const SupportShape& a, const SupportShape& b, const Vec3& n) { return a.support(-n) - b.support(n); }

// Central differences of G along the tangent t over ±ε (`full`) and ±ε/2 (`half`).
struct Difference {
  Vec3 full, half;
  Vec3 derivative() const { return full / (2 * kStep); }  // dG/dn t
  // Smooth (no jump of the support points), along the projection p when given.
  bool smooth(const Vec3* p = nullptr) const {
    const Vec3 f = p ? Vec3(*p * p->dot(full)) : full, h = p ? Vec3(*p * p->dot(half)) : half;
    return (f - 2 * h).norm() <= Real(0.5) * f.norm();
  }
};

Difference difference(const SupportShape& a, const SupportShape& b, const Vec3& n, const Vec3& t) {
  auto g = [&](Real e) { return gradient(a, b, (n + e * t).normalized()); };
  return {g(kStep) - g(-kStep), g(Real(0.5) * kStep) - g(Real(-0.5) * kStep)};
}

}  // namespace

int refine_normal(const SupportShape& a, const SupportShape& b, Vec3& n, Real scale) {
  constexpr int kMaxSteps = 4;
  const Real roundoff = Real(16) * std::numeric_limits<Real>::epsilon() * scale;
  int kept = 0;
  Vec3 g = gradient(a, b, n);
  Real phi = n.dot(g);
  for (int it = 0; it < kMaxSteps; ++it) {
    Vec3 t[2];
    orthonormal_basis(n, t[0], t[1]);
    const Difference d0 = difference(a, b, n, t[0]), d1 = difference(a, b, n, t[1]);
    Vec3 step = Vec3::Zero();
    if (d0.smooth() && d1.smooth()) {
      // Hessian of φ on the sphere: P (dG/dn) P - φ I; δ = -H⁻¹ g.
      const Vec3 dg0 = d0.derivative(), dg1 = d1.derivative();
      const Real g0 = t[0].dot(g), g1 = t[1].dot(g);
      const Real h01 = Real(0.5) * (t[0].dot(dg1) + t[1].dot(dg0));
      const Real h00 = t[0].dot(dg0) - phi, h11 = t[1].dot(dg1) - phi;
      const Real det = h00 * h11 - h01 * h01;
      if (!(h00 < 0 && h11 < 0 && det > 0)) break;  // not near a maximum (a flat face)
      step = -((h11 * g0 - h01 * g1) / det) * t[0] - ((h00 * g1 - h01 * g0) / det) * t[1];
    } else {
      // Flat along the jump's tangent part: one Newton step along the tangent across it, from
      // the differences' part along that tangent (the jump is not in it).
      const Difference& jumping = d0.smooth() ? d1 : d0;
      const Vec3 j = jumping.full - 2 * jumping.half;  // the jump alone (the smooth parts cancel)
      const Vec3 flat = j - n * n.dot(j);
      if (!(flat.norm() > 0)) break;
      const Vec3 curved = n.cross(flat).normalized();
      const Difference dc = difference(a, b, n, curved);
      if (!dc.smooth(&curved)) break;
      const Real hcc = curved.dot(dc.derivative()) - phi;
      if (!(hcc < 0)) break;
      step = -(curved.dot(g) / hcc) * curved;
    }
    const Vec3 next = (n + step).normalized();
    const Vec3 next_g = gradient(a, b, next);
    const Real next_phi = next.dot(next_g);
    // Kept when φ grows beyond round-off, or holds while the tangential gradient shrinks.
    if (!(next_phi > phi + roundoff) && !(next_phi >= phi - roundoff && next_g.cross(next).norm() < g.cross(n).norm()))
      break;
    n = next, g = next_g, phi = next_phi;
    ++kept;
    if (step.norm() <= std::numeric_limits<Real>::epsilon()) break;
  }
  return kept;
}

}  // namespace sim::detail
