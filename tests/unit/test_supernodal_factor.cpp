// The supernodal Cholesky factorisation (solver/supernodal_factor.hpp, CHOLMOD) against a dense
// Cholesky solve of the same matrix, on the pattern of a 3D mesh's stiffness (blocks of 3 dofs
// coupled along a grid's edges and diagonals, as H̃ = M + h² K couples a tet mesh's particles),
// refactorised with new values on the same analysis; refusals of what is not positive definite.
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "solver/supernodal_factor.hpp"

using sim::Real;
using SparseUpper = sim::SupernodalFactor::SparseUpper;
using VecX = sim::SupernodalFactor::VecX;

namespace {

// M + h²K on an n×n×n grid of nodes: per node a diagonal mass, per neighbouring pair (face, edge
// and body diagonals) a random 3×3 spring block k (PSD: a stiffness of a bar along a random
// direction d, k = s d dᵀ), assembled as K's [k −k; −k k]. Symmetric positive definite.
Eigen::MatrixXd grid_stiffness(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1), pos(0.5, 2);
  const int nodes = n * n * n;
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(3 * nodes, 3 * nodes);
  for (int i = 0; i < 3 * nodes; ++i) a(i, i) = pos(rng);  // mass
  auto index = [n](int x, int y, int z) { return (z * n + y) * n + x; };
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        for (int dz = 0; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              if (dz == 0 && (dy < 0 || (dy == 0 && dx <= 0))) continue;  // each pair once
              const int x2 = x + dx, y2 = y + dy, z2 = z + dz;
              if (x2 < 0 || y2 < 0 || x2 >= n || y2 >= n || z2 >= n) continue;
              const Eigen::Vector3d d = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
              const Eigen::Matrix3d k = 100 * pos(rng) * d * d.transpose();
              const int p = 3 * index(x, y, z), q = 3 * index(x2, y2, z2);
              a.block<3, 3>(p, p) += k;
              a.block<3, 3>(q, q) += k;
              a.block<3, 3>(p, q) -= k;
              a.block<3, 3>(q, p) -= k;
            }
  return a;
}

// The upper triangle's nonzeros, compressed (the pattern depends only on where a is nonzero).
SparseUpper upper_of(const Eigen::MatrixXd& a) {
  std::vector<Eigen::Triplet<Real>> entries;
  for (Eigen::Index col = 0; col < a.cols(); ++col)
    for (Eigen::Index row = 0; row <= col; ++row)
      if (a(row, col) != 0) entries.emplace_back(static_cast<int>(row), static_cast<int>(col), a(row, col));
  SparseUpper s(a.rows(), a.cols());
  s.setFromTriplets(entries.begin(), entries.end());
  s.makeCompressed();
  return s;
}

}  // namespace

TEST_CASE("the supernodal factorisation solves a mesh stiffness system as a dense Cholesky does",
          "[unit][solver][fem]") {
  if (!sim::SupernodalFactor::available()) {
    WARN("skipped: no supernodal factorisation in this build (float reals)");
    return;
  }
  const Eigen::MatrixXd a = grid_stiffness(6, 7);  // 216 nodes, 648 dofs
  SparseUpper upper = upper_of(a);
  sim::SupernodalFactor f;
  REQUIRE(f.analyse(upper));
  REQUIRE(f.factorise(upper));
  CHECK(f.nonzeros() >= upper.nonZeros());  // L holds at least A's lower triangle
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  VecX b(a.rows());
  for (Eigen::Index k = 0; k < b.size(); ++k) b[k] = u(rng);
  const Eigen::VectorXd reference = a.llt().solve(b);
  VecX x = b;
  f.solve_in_place(x);
  CHECK((x - reference).norm() <= 1e-10 * reference.norm());
  CHECK((a * x - b).norm() <= 1e-10 * b.norm());

  // New values on the same pattern (a Newton iteration's next H̃): refactorised on the analysis.
  Eigen::MatrixXd a2 = a;
  a2.diagonal().array() *= 3;
  for (Eigen::Index k = 0; k + 3 < a2.rows(); k += 7) {
    a2(k, k + 3) *= 0.5;
    a2(k + 3, k) *= 0.5;
  }
  const SparseUpper upper2 = upper_of(a2);
  REQUIRE(upper2.nonZeros() == upper.nonZeros());
  REQUIRE(f.factorise(upper2));
  x = b;
  f.solve_in_place(x);
  CHECK((a2 * x - b).norm() <= 1e-10 * b.norm());
}

TEST_CASE("the supernodal factorisation refuses a matrix that is not positive definite or not finite",
          "[unit][solver][fem]") {
  if (!sim::SupernodalFactor::available()) {
    WARN("skipped: no supernodal factorisation in this build (float reals)");
    return;
  }
  const Eigen::MatrixXd a = grid_stiffness(4, 11);
  SparseUpper upper = upper_of(a);
  sim::SupernodalFactor f;
  REQUIRE(f.analyse(upper));
  REQUIRE(f.factorise(upper));

  SECTION("a negative pivot") {
    Eigen::MatrixXd indefinite = a;
    indefinite(20, 20) = -5 * std::abs(indefinite(20, 20)) - 1000;
    CHECK_FALSE(f.factorise(upper_of(indefinite)));
  }
  SECTION("a NaN") {
    SparseUpper bad = upper;
    bad.valuePtr()[bad.nonZeros() / 2] = std::numeric_limits<Real>::quiet_NaN();
    CHECK_FALSE(f.factorise(bad));
  }
  SECTION("an infinity") {
    SparseUpper bad = upper;
    bad.valuePtr()[0] = std::numeric_limits<Real>::infinity();
    CHECK_FALSE(f.factorise(bad));
  }
  // And it recovers: the good matrix again.
  REQUIRE(f.factorise(upper));
  VecX x = VecX::Ones(a.rows());
  f.solve_in_place(x);
  CHECK((a * x - VecX::Ones(a.rows())).norm() <= 1e-10 * std::sqrt(Real(a.rows())));
}
