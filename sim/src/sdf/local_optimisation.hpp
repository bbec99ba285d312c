// Local optimisation of a distance field over one mesh element (thesis §6.2-6.3, L1459-1542):
// the deepest (or closest) point of an edge by golden-section search, of a triangle by projected
// gradient descent or Frank-Wolfe. Templates over the field (analytic_sdf.hpp, nano_sdf.hpp):
// `Real eval(const Vec3& x, Vec3* grad)`. All points are in the field's frame.
//
// Corrections to the thesis text (digest friction-and-sdf-collision.md §5.3, §7.6, §7.7):
// - start from the vertex of smallest φ (§6.2.3), the caller passes the vertices' φ;
// - PGD: the barycentric gradient (eq. 140) with its mean removed, d_k = ∇φ·(x_k − x̄) (exact in
//   floating point far from the origin), then normalised, so a step of α moves the barycentrics by
//   α whatever the triangle's size or the field's slope; stop on the projected gradient
//   |c − P(c − αd̂)|/α, not on |d| (which never vanishes on the boundary). The thesis's fixed α
//   (its value is not given) becomes a safeguarded one: halved when a step does not lower φ,
//   doubled (up to `step`) when it does, so the search is monotone and ends on a bracket of width
//   `tolerance` around a local minimum;
// - Frank-Wolfe: γ_i = 2/(i+2) counted from i = 1, so the first step keeps the starting vertex;
//   stop on the FW gap (x − s)·∇φ (eq. 142's objective is not a bound on the error);
// - both return the best iterate seen; iterations count field evaluations.
// No STL containers, exceptions or virtuals: a CUDA backend can compile this as is.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/host_device.hpp"
#include "sim/math.hpp"

namespace sim::detail {

struct FeatureMinimum {
  Real phi = std::numeric_limits<Real>::infinity();  // φ at the minimiser [m]
  Vec3 point = Vec3::Zero();                         // the minimiser (field frame) [m]
  Vec3 grad = Vec3::Zero();                          // ∇φ there (not normalised)
  Real bary[3] = {1, 0, 0};                          // weights of the element's vertices
  int evaluations = 0;                               // field evaluations spent
};

// Weights above this count as "on" that vertex's side when classifying a minimiser (vertex: one
// weight left, edge: two, interior: three).
constexpr Real kBarycentricEps = Real(1e-4);

// Sums in a fixed order (x + y) + z. Eigen's reductions pair terms by the packet width of the
// host's vectorisation (and not at all on the device), which would part the CPU's and the GPU's
// searches in the last bit and then in their branches; these keep both on the same operations.
SIM_HD inline Real dot3(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
SIM_HD inline Real squared_norm3(const Vec3& a) { return dot3(a, a); }
SIM_HD inline Real norm3(const Vec3& a) { return std::sqrt(dot3(a, a)); }
SIM_HD inline Vec3 rotate3(const Mat3& r, const Vec3& v) {
  return Vec3(r(0, 0) * v[0] + r(0, 1) * v[1] + r(0, 2) * v[2], r(1, 0) * v[0] + r(1, 1) * v[1] + r(1, 2) * v[2],
              r(2, 0) * v[0] + r(2, 1) * v[1] + r(2, 2) * v[2]);
}

SIM_HD inline int support_size(const FeatureMinimum& m, int n) {
  int count = 0;
  for (int k = 0; k < n; ++k) count += m.bary[k] > kBarycentricEps ? 1 : 0;
  return count;
}

// Euclidean projection of y onto the standard simplex {c >= 0, c0 + c1 + c2 = 1} (sort-based,
// exact; digest §5.3.1).
SIM_HD inline void project_simplex(const Real y[3], Real out[3]) {
  Real s[3] = {y[0], y[1], y[2]};
  // Descending by three compare-exchanges (no std::swap: it is not constexpr before C++20, so
  // device code cannot call it).
  auto order = [](Real& a, Real& b) {
    if (a < b) {
      const Real t = a;
      a = b, b = t;
    }
  };
  order(s[0], s[1]);
  order(s[1], s[2]);
  order(s[0], s[1]);
  Real cum = 0, tau = 0;
  for (int k = 0; k < 3; ++k) {
    cum += s[k];
    const Real t = (cum - Real(1)) / Real(k + 1);
    if (s[k] - t > 0) tau = t;
  }
  for (int k = 0; k < 3; ++k) out[k] = std::max(y[k] - tau, Real(0));
}

// Golden-section search (§6.3.1) for min φ((1 − u) p + u q), u ∈ [0, 1]; the end points' φ are
// compared too (vertex tests). `tolerance` is the bracket width in u at which to stop.
template <class Field>
SIM_HD FeatureMinimum minimise_edge(Field& field, const Vec3& p, const Vec3& q, Real phi_p, Real phi_q, int iterations,
                             Real tolerance) {
  constexpr Real inv_phi = Real(0.6180339887498949);
  constexpr Real inv_phi2 = Real(0.3819660112501051);
  const Vec3 d = q - p;
  Real a = 0, b = 1;
  Real c = a + inv_phi2 * (b - a), e = a + inv_phi * (b - a);
  Real fc = field.eval(p + c * d, nullptr), fe = field.eval(p + e * d, nullptr);
  int evaluations = 2;
  while (evaluations < iterations && (b - a) > tolerance) {
    if (fc < fe) {
      b = e, e = c, fe = fc;
      c = a + inv_phi2 * (b - a);
      fc = field.eval(p + c * d, nullptr);
    } else {
      a = c, c = e, fc = fe;
      e = a + inv_phi * (b - a);
      fe = field.eval(p + e * d, nullptr);
    }
    ++evaluations;
  }
  Real u = fc < fe ? c : e;
  Real best = std::min(fc, fe);
  if (phi_p <= best) u = 0, best = phi_p;
  if (phi_q < best) u = 1, best = phi_q;
  FeatureMinimum m;
  m.point = p + u * d;
  m.phi = field.eval(m.point, &m.grad);
  m.bary[0] = 1 - u;
  m.bary[1] = u;
  m.bary[2] = 0;
  m.evaluations = evaluations + 1;
  return m;
}

namespace optimisation_detail {

SIM_HD inline int argmin3(const Real v[3]) {
  int k = 0;
  if (v[1] < v[k]) k = 1;
  if (v[2] < v[k]) k = 2;
  return k;
}

SIM_HD inline Real longest_edge(const Vec3 x[3]) {
  return std::sqrt(std::max(std::max(squared_norm3(x[1] - x[0]), squared_norm3(x[2] - x[1])), squared_norm3(x[0] - x[2])));
}

}  // namespace optimisation_detail

// Projected gradient descent over the barycentric coordinates c of triangle x (§6.2.1, eq. 141).
template <class Field>
SIM_HD FeatureMinimum minimise_face_pgd(Field& field, const Vec3 x[3], const Real phi[3], int iterations, Real step,
                                 Real tolerance) {
  using namespace optimisation_detail;
  FeatureMinimum m;
  const int k0 = argmin3(phi);
  m.bary[0] = m.bary[1] = m.bary[2] = 0;
  m.bary[k0] = 1;
  m.point = x[k0];
  m.phi = field.eval(m.point, &m.grad);
  m.evaluations = 1;
  const Real length = longest_edge(x);
  if (!(length > 0)) return m;
  const Vec3 mean = (x[0] + x[1] + x[2]) / Real(3);
  const Vec3 rel[3] = {(x[0] - mean) / length, (x[1] - mean) / length, (x[2] - mean) / length};
  Real alpha = step;
  while (m.evaluations < iterations && alpha > tolerance) {
    const Real d[3] = {dot3(m.grad, rel[0]), dot3(m.grad, rel[1]), dot3(m.grad, rel[2])};
    const Real norm = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(norm > 0)) break;  // a plateau, or ∇φ normal to the face: nowhere to go
    const Real y[3] = {m.bary[0] - alpha * d[0] / norm, m.bary[1] - alpha * d[1] / norm, m.bary[2] - alpha * d[2] / norm};
    Real c[3];
    project_simplex(y, c);
    const Real moved = std::sqrt((c[0] - m.bary[0]) * (c[0] - m.bary[0]) + (c[1] - m.bary[1]) * (c[1] - m.bary[1]) +
                                 (c[2] - m.bary[2]) * (c[2] - m.bary[2]));
    if (moved <= tolerance * alpha) break;  // projected gradient |c − P(c − αd̂)|/α below tolerance
    const Vec3 p = c[0] * x[0] + c[1] * x[1] + c[2] * x[2];
    Vec3 g;
    const Real f = field.eval(p, &g);
    ++m.evaluations;
    if (f < m.phi) {
      m.phi = f, m.point = p, m.grad = g;
      m.bary[0] = c[0], m.bary[1] = c[1], m.bary[2] = c[2];
      alpha = std::min(2 * alpha, step);
    } else {
      alpha *= Real(0.5);
    }
  }
  return m;
}

// Frank-Wolfe over the triangle in space (§6.2.2, eqs. 142-144), barycentrics carried along.
template <class Field>
SIM_HD FeatureMinimum minimise_face_fw(Field& field, const Vec3 x[3], const Real phi[3], int iterations, Real tolerance) {
  using namespace optimisation_detail;
  FeatureMinimum best;
  const int k0 = argmin3(phi);
  Real c[3] = {0, 0, 0};
  c[k0] = 1;
  Vec3 p = x[k0], g;
  Real f = field.eval(p, &g);
  best.phi = f, best.point = p, best.grad = g;
  best.bary[0] = c[0], best.bary[1] = c[1], best.bary[2] = c[2];
  best.evaluations = 1;
  const Real length = longest_edge(x);
  if (!(length > 0)) return best;
  const Vec3 mean = (x[0] + x[1] + x[2]) / Real(3);
  const Real gap_tolerance = tolerance * length;
  for (int i = 1; best.evaluations < iterations; ++i) {
    // Linear subproblem (eq. 142): the vertex minimising s·∇φ (positions relative to the mean).
    int s = 0;
    Real smin = dot3(g, x[0] - mean);
    for (int k = 1; k < 3; ++k) {
      const Real v = dot3(g, x[k] - mean);
      if (v < smin) smin = v, s = k;
    }
    const Real gap = dot3(g, p - x[s]);
    if (gap <= gap_tolerance) break;
    const Real gamma = Real(2) / Real(i + 2);
    p += gamma * (x[s] - p);
    for (int k = 0; k < 3; ++k) c[k] *= (1 - gamma);
    c[s] += gamma;
    f = field.eval(p, &g);
    ++best.evaluations;
    if (f < best.phi) {
      best.phi = f, best.point = p, best.grad = g;
      best.bary[0] = c[0], best.bary[1] = c[1], best.bary[2] = c[2];
    }
  }
  return best;
}

}  // namespace sim::detail
