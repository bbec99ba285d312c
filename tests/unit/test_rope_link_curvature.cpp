// The rope links' exact curvature in the factorised particle matrix H̃
// (solver/elastic_condensation.hpp, SolverOptions::rope_geometric_stiffness): H̃ = M + h² Σ P(K_r)
// with K_r = −λ_r ∂²C_r/∂x² (eq. 53), checked against central differences of the rows' own
// gradients (the distance row kernel, not the closed form the code uses) and an eigenvalue
// projection per link done here; and which links are a rope's (chains: no particle in three).
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "constraint/row_assembly.hpp"
#include "core/kernel_views.hpp"
#include "core/kinematics.hpp"
#include "sim/contact.hpp"
#include "sim/step.hpp"
#include "solver/elastic_condensation.hpp"
#include "solver/schur_system.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

using Dense = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;

// A pinned particle and four free ones in a bent zig-zag joined in a chain, masses 0.1 to 0.4 kg;
// with `branch` a sixth particle hangs from the third by a fifth link (a Y: the third particle is
// in three links).
sim::SceneSpec bent_chain(bool branch = false) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 120;
  const Vec3 at[6] = {{0, 0, 1}, {0.1, 0.02, 0.97}, {0.17, -0.05, 0.9}, {0.26, 0.01, 0.93}, {0.3, 0.08, 0.85},
                      {0.2, -0.1, 0.8}};
  const Real mass[6] = {0, 0.1, 0.2, 0.3, 0.4, 0.1};
  for (int k = 0; k < (branch ? 6 : 5); ++k) {
    sim::ParticleSpec p;
    p.position = at[k];
    p.mass = mass[k];
    spec.particles.push_back(p);
  }
  const int links[5][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {2, 5}};
  for (int k = 0; k < (branch ? 5 : 4); ++k) {
    sim::DistanceSpec d;
    d.particle_a = links[k][0];
    d.particle_b = links[k][1];
    spec.distances.push_back(d);
  }
  return spec;
}

constexpr int kFree = 12;  // the chain's free dofs (particles 1 to 4)

struct Rows {
  sim::ContactBuffer contacts;
  sim::RowSet rows;
  std::vector<Real> joint_reference;
  sim::Configuration config;
};

void evaluate_at(const sim::Model& m, const std::vector<Real>& q, Rows& r) {
  r.config.assign(m, q.data());
  sim::evaluate_rows(m, r.contacts, r.config, r.joint_reference, r.rows);
}

std::vector<Real> initial_coordinates(const sim::Model& m) {
  const sim::State initial = sim::make_initial_state(m);
  return std::vector<Real>(initial.q.begin(), initial.q.end());
}

// λ_r ∇C_r on the free particles' dofs (particles 1 to 4) at q.
Eigen::VectorXd weighted_gradient(const sim::Model& m, const std::vector<Real>& q, Rows& r, int row, Real lambda) {
  evaluate_at(m, q, r);
  Eigen::VectorXd g = Eigen::VectorXd::Zero(kFree);
  for (int e = r.rows.row_entry_first[row]; e < r.rows.row_entry_first[row + 1]; ++e) {
    const int p = r.rows.entry_node[e] - m.body_count;
    if (p >= 1) g.segment<3>(3 * (p - 1)) += lambda * r.rows.entry_grad[e].head<3>();
  }
  return g;
}

// K_r = −∂(λ_r ∇C_r)/∂x by central differences over the free particles' coordinates.
Dense link_curvature_by_differences(const sim::Model& m, const std::vector<Real>& q0, Rows& r, int row, Real lambda) {
  const Real delta = 1e-6;
  Dense k(kFree, kFree);
  for (int j = 0; j < kFree; ++j) {
    std::vector<Real> plus = q0, minus = q0;
    plus[3 + j] += delta;  // particle 0 is pinned: the free particles' coordinates start at 3
    minus[3 + j] -= delta;
    k.col(j) = -(weighted_gradient(m, plus, r, row, lambda) - weighted_gradient(m, minus, r, row, lambda)) / (2 * delta);
  }
  return Real(0.5) * (k + k.transpose());
}

Dense positive_part(const Dense& a) {
  Eigen::SelfAdjointEigenSolver<Dense> eigen(a);
  return eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0).asDiagonal() * eigen.eigenvectors().transpose();
}

}  // namespace

TEST_CASE("exact rope-link curvature: H̃ is M plus h² times each tensioned link's projected −λ∂²C/∂x²", "[unit][solver][rope]") {
  const sim::Model m = test::compile(bent_chain());
  REQUIRE(m.particle_count == 5);
  REQUIRE(m.distance_count == 4);
  const std::vector<Real> q0 = initial_coordinates(m);
  Rows r;
  sim::assemble_rows(m, r.contacts, r.rows);
  const int first = sim::ElasticCondensation::first_distance_row(m, r.rows);
  REQUIRE(first >= 0);
  REQUIRE_FALSE(sim::ElasticCondensation::any_condensable(r.rows));
  sim::ElasticCondensation ec;
  CHECK_FALSE(ec.wanted(r.rows, true));  // none found yet
  CHECK(ec.find_rope_links(m, r.rows) == 4);
  CHECK(ec.wanted(r.rows, true));
  CHECK(ec.rope_links() == std::vector<int>{0, 1, 2, 3});
  CHECK_FALSE(ec.wanted(r.rows, false));
  // Stretch the chain a little (the rows' values do not enter K, only λ and the directions) and
  // give three links tension (λ < 0) and one compression.
  const Real lambda[4] = {-40, -15, 25, -5};
  const Real h = m.dt;
  Dense reference = Dense::Zero(kFree, kFree);
  for (int p = 1; p < 5; ++p)
    for (int k = 0; k < 3; ++k) reference(3 * (p - 1) + k, 3 * (p - 1) + k) = Real(1) / m.particle_inv_mass[p];
  bool compressed_link_indefinite = false;
  for (int i = 0; i < 4; ++i) {
    const Dense k = link_curvature_by_differences(m, q0, r, first + i, lambda[i]);
    Eigen::SelfAdjointEigenSolver<Dense> eigen(k);
    if (lambda[i] > 0) compressed_link_indefinite = eigen.eigenvalues().minCoeff() < -1;
    reference += h * h * positive_part(k);
  }
  CHECK(compressed_link_indefinite);  // the projection matters: without it H̃ would differ
  evaluate_at(m, q0, r);
  for (int i = 0; i < 4; ++i) r.rows.row_lambda[first + i] = lambda[i];

  // The secant's shift on the particles' inverse masses (eqs. 71-74): replaced by the exact
  // curvature, so H̃'s diagonal must start from M, not M + shift.
  sim::InverseMass im;
  im.particle_inv_mass.assign(3 * m.particle_count, 0);
  for (int p = 1; p < 5; ++p)
    for (int k = 0; k < 3; ++k) im.particle_inv_mass[3 * p + k] = Real(1) / (Real(1) / m.particle_inv_mass[p] + 3);
  const sim::ElasticCondensation::Curvature curvature{sim::configuration_view(r.config), h, false, true};
  REQUIRE(ec.factor(m, r.rows, im, 0, sim::ElasticFactorization::Simplicial, &curvature));
  REQUIRE(ec.particles().size() == 4);  // the pinned particle has no dofs

  // H̃⁻¹ column by column through the factor, against the reference: H_ref H̃⁻¹ = I.
  const int dofs = m.dof_count();
  Dense product(kFree, kFree);
  for (int j = 0; j < kFree; ++j) {
    sim::VecX in = sim::VecX::Zero(dofs), out = sim::VecX::Zero(dofs);
    in[3 + j] = 1;
    ec.solve_particles(m, in, out);
    CHECK(out[0] == 0);  // the pinned particle: H⁻¹ = 0
    product.col(j) = reference * out.segment(3, kFree);
  }
  INFO("H_ref H~^-1 - I: " << (product - Dense::Identity(kFree, kFree)).norm());
  CHECK((product - Dense::Identity(kFree, kFree)).norm() < 1e-6);
  for (int d = 0; d < kFree; ++d) CHECK(ec.particle_inv_diagonal(3 + d) == Approx(1 / reference(d, d)).epsilon(1e-7));

  // Every link in compression: nothing to add, H̃ = M exactly.
  for (int i = 0; i < 4; ++i) r.rows.row_lambda[first + i] = 10;
  REQUIRE(ec.factor(m, r.rows, im, 0, sim::ElasticFactorization::Simplicial, &curvature));
  for (int p = 1; p < 5; ++p)
    for (int k = 0; k < 3; ++k) CHECK(ec.particle_inv_diagonal(3 * p + k) == Approx(m.particle_inv_mass[p]).epsilon(1e-12));
}

TEST_CASE("rope links are the chains' links: a particle in three links keeps the secant", "[unit][solver][rope]") {
  // The Y: links 0-1, 1-2, 2-3, 3-4 and 2-5. Particle 2 is in three links, so its three are not a
  // rope's; 0-1 and 3-4 are. Particles 1 and 3 are in H̃ (through 0-1 and 3-4) but also in a link
  // whose curvature is the secant's, so they keep the secant's shift; 4 does not.
  const sim::Model m = test::compile(bent_chain(true));
  REQUIRE(m.distance_count == 5);
  Rows r;
  sim::assemble_rows(m, r.contacts, r.rows);
  evaluate_at(m, initial_coordinates(m), r);
  const int first = sim::ElasticCondensation::first_distance_row(m, r.rows);
  REQUIRE(first >= 0);
  sim::ElasticCondensation ec;
  REQUIRE(ec.find_rope_links(m, r.rows) == 2);
  REQUIRE(ec.wanted(r.rows, true));
  CHECK(ec.rope_links() == std::vector<int>{0, 3});
  for (int i = 0; i < 5; ++i) r.rows.row_lambda[first + i] = 10;  // compressed: H̃ is its diagonal alone
  sim::InverseMass im;
  im.particle_inv_mass.assign(3 * m.particle_count, 0);
  const Real shift = 3;
  for (int p = 1; p < m.particle_count; ++p)
    for (int k = 0; k < 3; ++k) im.particle_inv_mass[3 * p + k] = Real(1) / (Real(1) / m.particle_inv_mass[p] + shift);
  const sim::ElasticCondensation::Curvature curvature{sim::configuration_view(r.config), m.dt, false, true};
  REQUIRE(ec.factor(m, r.rows, im, 0, sim::ElasticFactorization::Simplicial, &curvature));
  std::vector<int> in_factor = ec.particles();
  std::sort(in_factor.begin(), in_factor.end());
  CHECK(in_factor == std::vector<int>{1, 3, 4});
  for (int p = 1; p < m.particle_count; ++p) {
    INFO("particle " << p);
    const Real expected = p == 4 ? m.particle_inv_mass[p] : im.particle_inv_mass[3 * p];
    CHECK(ec.particle_inv_diagonal(3 * p) == Approx(expected).epsilon(1e-12));
  }
  // A chain alone has no particle in three links: every link is a rope's.
  const sim::Model chain = test::compile(bent_chain(false));
  Rows rc;
  sim::assemble_rows(chain, rc.contacts, rc.rows);
  CHECK(ec.find_rope_links(chain, rc.rows) == 4);
  CHECK(ec.rope_links().size() == 4);
}
