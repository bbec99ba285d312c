// Local optimisation over mesh elements (sdf/local_optimisation.hpp, thesis §6.2-6.3): the
// simplex projection, golden-section search on edges, projected gradient descent and Frank-Wolfe
// on faces, each against constructed cases with a known minimiser.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "sdf/analytic_sdf.hpp"
#include "sdf/local_optimisation.hpp"

using sim::Real;
using sim::Vec3;
using namespace sim::detail;

namespace {

// A field in a rotated and translated frame: φ(x) = inner(Rᵀ(x − c)).
template <class Inner>
struct PlacedField {
  Inner inner;
  sim::Mat3 rot = sim::Mat3::Identity();
  Vec3 centre = Vec3::Zero();
  int evaluations = 0;
  Real eval(const Vec3& x, Vec3* grad) {
    ++evaluations;
    Vec3 g;
    const Real v = inner.eval(rot.transpose() * (x - centre), grad ? &g : nullptr);
    if (grad) *grad = rot * g;
    return v;
  }
};

// φ at the corners of a triangle.
template <class Field>
void corner_values(Field& f, const Vec3 x[3], Real phi[3]) {
  for (int k = 0; k < 3; ++k) phi[k] = f.eval(x[k], nullptr);
}

// Closest point of a triangle to p by dense sampling (the reference).
Vec3 brute_force_min(const std::function<Real(const Vec3&)>& phi, const Vec3 x[3], int n = 400) {
  Real best = 1e30;
  Vec3 arg = x[0];
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j) {
      const Real u = Real(i) / n, v = Real(j) / n;
      const Vec3 p = (1 - u - v) * x[0] + u * x[1] + v * x[2];
      const Real f = phi(p);
      if (f < best) best = f, arg = p;
    }
  return arg;
}

}  // namespace

TEST_CASE("simplex projection is the Euclidean projection onto {c >= 0, sum c = 1}", "[unit][sdf]") {
  Real out[3];
  const Real inside[3] = {0.2, 0.3, 0.5};
  project_simplex(inside, out);
  CHECK(out[0] == Approx(0.2));
  CHECK(out[1] == Approx(0.3));
  CHECK(out[2] == Approx(0.5));
  const Real shifted[3] = {1.2, 1.3, 1.5};  // P(y + t·1) = P(y)
  project_simplex(shifted, out);
  CHECK(out[0] == Approx(0.2));
  CHECK(out[2] == Approx(0.5));
  const Real far[3] = {3, -1, -2};
  project_simplex(far, out);
  CHECK(out[0] == Approx(1));
  CHECK(out[1] == Approx(0).margin(1e-15));
  CHECK(out[2] == Approx(0).margin(1e-15));
  const Real edge[3] = {0.8, 0.6, -1};  // lands on the edge c2 = 0: (0.6, 0.4, 0)
  project_simplex(edge, out);
  CHECK(out[0] == Approx(0.6));
  CHECK(out[1] == Approx(0.4));
  CHECK(out[2] == Approx(0).margin(1e-15));
}

TEST_CASE("golden-section search finds the closest point of an edge to a sphere", "[unit][sdf]") {
  PlacedField<SphereSdf> f{SphereSdf{0.5}};
  f.centre = Vec3(0.3, 0.1, 0);
  const Vec3 p(-1, 0, 0.8), q(2, 0.4, 0.6);
  // Reference: the closest point of the segment to the centre.
  const Vec3 d = q - p;
  const Real u_ref = std::clamp((f.centre - p).dot(d) / d.squaredNorm(), Real(0), Real(1));
  const FeatureMinimum m = minimise_edge(f, p, q, f.eval(p, nullptr), f.eval(q, nullptr), 32, 1e-7);
  CHECK(m.bary[1] == Approx(u_ref).margin(1e-5));
  CHECK(m.phi == Approx((p + u_ref * d - f.centre).norm() - 0.5).margin(1e-9));
  CHECK(m.evaluations <= 33);
  // The minimiser at an end point: the end point itself (vertex test inside the search).
  const Vec3 p2(1, 0, 0.6), q2(3, 0, 0.6);
  const FeatureMinimum e = minimise_edge(f, p2, q2, f.eval(p2, nullptr), f.eval(q2, nullptr), 32, 1e-7);
  CHECK(e.bary[1] == Approx(0).margin(1e-9));
}

TEST_CASE("PGD and Frank-Wolfe find the interior minimum of a face above a sphere", "[unit][sdf]") {
  // Horizontal triangle above a sphere: the minimiser is the centre's projection onto the plane.
  for (const auto method : {0, 1}) {
    PlacedField<SphereSdf> f{SphereSdf{0.4}};
    f.centre = Vec3(0.15, 0.1, 0);
    const Vec3 x[3] = {Vec3(-0.5, -0.5, 0.5), Vec3(1, -0.3, 0.5), Vec3(0, 0.9, 0.5)};
    Real phi[3];
    corner_values(f, x, phi);
    const FeatureMinimum m = method == 0 ? minimise_face_pgd(f, x, phi, 64, 0.5, 1e-6) : minimise_face_fw(f, x, phi, 64, 1e-6);
    INFO((method == 0 ? "PGD" : "Frank-Wolfe") << ": " << m.evaluations << " evaluations");
    const Vec3 expected(0.15, 0.1, 0.5);
    // FW's step 2/(i+2) converges as O(1/i): looser tolerance than PGD at the same budget.
    CHECK((m.point - expected).norm() < (method == 0 ? 1e-4 : 1e-2));
    CHECK(m.phi == Approx(0.1).margin(method == 0 ? 1e-8 : 1e-3));
    CHECK(support_size(m, 3) == 3);
    CHECK(std::abs(m.bary[0] + m.bary[1] + m.bary[2] - 1) < 1e-12);
    CHECK((m.bary[0] * x[0] + m.bary[1] * x[1] + m.bary[2] * x[2] - m.point).norm() < 1e-12);
  }
}

TEST_CASE("PGD and Frank-Wolfe find a sharp corner under the middle of a face", "[unit][sdf]") {
  // A box stood on a corner (the cone apex case, Fig. 38a): the corner points up at (0.1, 0.2, 0)
  // under a large horizontal triangle, whose corners are all far from the box. Point sampling of
  // the corners sees no contact; the minimiser over the face is right above the corner.
  PlacedField<BoxSdf> f{BoxSdf{Vec3(0.3, 0.3, 0.3)}};
  // Rotate the box so its (+,+,+) corner points along +z.
  const Vec3 diag = Vec3(1, 1, 1).normalized();
  f.rot = sim::Quat::FromTwoVectors(diag, Vec3::UnitZ()).toRotationMatrix();
  f.centre = Vec3(0.1, 0.2, -0.3 * std::sqrt(Real(3)));
  const Vec3 x[3] = {Vec3(-1, -1, 0.02), Vec3(1.5, -0.8, 0.02), Vec3(0, 1.4, 0.02)};
  Real phi[3];
  corner_values(f, x, phi);
  for (int k = 0; k < 3; ++k) CHECK(phi[k] > 0.3);
  const Vec3 brute = brute_force_min([&](const Vec3& p) { return f.eval(p, nullptr); }, x);
  CHECK((brute - Vec3(0.1, 0.2, 0.02)).norm() < 0.02);
  const FeatureMinimum pgd = minimise_face_pgd(f, x, phi, 64, 0.5, 1e-6);
  const FeatureMinimum fw = minimise_face_fw(f, x, phi, 64, 1e-6);
  INFO("PGD phi " << pgd.phi << " at " << pgd.point.transpose() << ", FW phi " << fw.phi << " at " << fw.point.transpose());
  CHECK(pgd.phi == Approx(0.02).margin(2e-3));
  CHECK(fw.phi == Approx(0.02).margin(2e-2));
  CHECK((pgd.point - Vec3(0.1, 0.2, 0.02)).norm() < 0.01);
}

TEST_CASE("face minimisers on an edge and at a vertex are classified as such", "[unit][sdf]") {
  PlacedField<SphereSdf> f{SphereSdf{0.2}};
  const Vec3 x[3] = {Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1)};
  Real phi[3];
  SECTION("edge") {  // centre below the hypotenuse's outside: the minimiser lies on it
    f.centre = Vec3(0.7, 0.7, 0);
    corner_values(f, x, phi);
    const FeatureMinimum m = minimise_face_pgd(f, x, phi, 64, 0.5, 1e-7);
    CHECK(support_size(m, 3) == 2);
    CHECK((m.point - Vec3(0.5, 0.5, 1)).norm() < 1e-4);
    const FeatureMinimum w = minimise_face_fw(f, x, phi, 64, 1e-7);
    CHECK((w.point - Vec3(0.5, 0.5, 1)).norm() < 2e-2);
  }
  SECTION("vertex") {  // centre beyond the corner x1: the start vertex is already optimal
    f.centre = Vec3(1.5, -0.5, 0);
    corner_values(f, x, phi);
    const FeatureMinimum m = minimise_face_pgd(f, x, phi, 64, 0.5, 1e-7);
    CHECK(support_size(m, 3) == 1);
    CHECK(m.bary[1] == Approx(1));
    const FeatureMinimum w = minimise_face_fw(f, x, phi, 64, 1e-7);
    CHECK(support_size(w, 3) == 1);
    CHECK(w.evaluations == 1);  // FW gap is zero at the start vertex: stops at once
  }
}

TEST_CASE("PGD steps do not depend on the triangle's size or position (mean-removed, scaled gradient)", "[unit][sdf]") {
  // The same configuration at two scales and far from the origin: same barycentric path.
  auto run = [](Real scale, const Vec3& offset) {
    PlacedField<SphereSdf> f{SphereSdf{0.4 * scale}};
    f.centre = offset + scale * Vec3(0.15, 0.1, 0);
    const Vec3 x[3] = {offset + scale * Vec3(-0.5, -0.5, 0.5), offset + scale * Vec3(1, -0.3, 0.5),
                       offset + scale * Vec3(0, 0.9, 0.5)};
    Real phi[3];
    corner_values(f, x, phi);
    return minimise_face_pgd(f, x, phi, 40, 0.5, 1e-9);
  };
  const FeatureMinimum a = run(1, Vec3::Zero());
  const FeatureMinimum b = run(100, Vec3(1e4, -2e4, 5e3));
  const FeatureMinimum c = run(0.01, Vec3::Zero());
  CHECK(a.evaluations == b.evaluations);
  CHECK(a.evaluations == c.evaluations);
  for (int k = 0; k < 3; ++k) {
    CHECK(a.bary[k] == Approx(b.bary[k]).margin(1e-6));
    CHECK(a.bary[k] == Approx(c.bary[k]).margin(1e-6));
  }
}

TEST_CASE("Frank-Wolfe counts its step from i = 1 and stops on the FW gap", "[unit][sdf]") {
  // Linear field φ = x. Given tied corner values FW starts at corner 0, which is not optimal; its
  // first step is γ = 2/(1 + 2) = 2/3 towards the best corner, so the start still weighs 1/3 (with
  // the thesis's i = 0, γ = 1 would discard the starting iterate).
  struct Linear {
    Vec3 n;
    Real eval(const Vec3& x, Vec3* g) const {
      if (g) *g = n;
      return n.dot(x);
    }
  } f{Vec3(1, 0, 0)};
  const Vec3 x[3] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(-1, 1, 0)};
  const Real equal[3] = {0, 0, 0};  // pretend the corners tie: start at corner 0
  const FeatureMinimum m = minimise_face_fw(f, x, equal, 2, 1e-9);
  // One step from x0 towards x2 with γ = 2/3.
  CHECK(m.bary[0] == Approx(1.0 / 3.0));
  CHECK(m.bary[2] == Approx(2.0 / 3.0));
  CHECK(m.phi == Approx(-2.0 / 3.0));
}
