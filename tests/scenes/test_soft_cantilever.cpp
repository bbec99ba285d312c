// The FEM cantilever against Euler–Bernoulli (issue 14 item 8): a clamped beam of linear
// co-rotational tets under its own weight, at small load. Linear tets lock in bending, so the tip
// deflection approaches the beam's from below as the mesh is refined; with eight elements through
// the thickness (30,720 tets) it is within 5%. The refinement study uses the tet rows' own
// linearisation at rest, K = Σ_k ∇m_k ∇m_kᵀ / E_k (eq. 80 with the full compliance split: every row
// measure m_k vanishes at rest, so there is no geometric term), solved by a sparse Cholesky
// factorisation; a second case checks that the non-smooth Newton steps settle on that same static
// solution on the coarse mesh, so the figures describe what the simulator computes.
#include <catch2/catch.hpp>

#include <Eigen/SparseCholesky>
#include <cmath>
#include <cstdio>
#include <vector>

#include "constraint/row_assembly.hpp"
#include "constraint/tet_rows.hpp"
#include "core/kinematics.hpp"
#include "sim/soft_body.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;
using VecX = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

namespace {

// A 1 m beam of square section h = 0.1 m (L/h = 10), E = 1 GPa, ν = 0 (no Poisson stiffening of
// the clamped section), ρ = 1000 kg/m³: δ_EB = q L⁴ / (8 E I), q = ρ g h², I = h⁴/12; δ/L ≈ 1.5e-3.
constexpr Real kLength = 1, kThickness = 0.1, kYoung = 1e9, kDensity = 1000, kGravity = 9.81;

Real euler_bernoulli_tip_deflection() {
  const Real q = kDensity * kGravity * kThickness * kThickness;
  const Real inertia = std::pow(kThickness, 4) / 12;
  return q * std::pow(kLength, 4) / (8 * kYoung * inertia);
}

struct Beam {
  sim::SceneSpec spec;
  std::vector<int> tip;  // the particles of the free end face
};

// n cells through the thickness, 10 n along the length (cubic cells of six tets); the x = 0 face
// clamped (mass 0).
Beam make_beam(int n, Real damping) {
  Beam beam;
  beam.spec.gravity = Vec3(0, 0, -kGravity);
  sim::SoftMaterialSpec material;
  material.model = sim::SoftModel::Corotational;
  material.compliance = sim::SoftCompliance::Full;
  material.youngs_modulus = kYoung;
  material.poisson_ratio = 0;
  material.density = kDensity;
  material.damping = damping;
  sim::SoftBodyPlacement place;
  place.pose.pos = Vec3(kLength / 2, 0, 0);
  std::string error;
  const int first = sim::add_soft_body(beam.spec, sim::box_tet_mesh(Vec3(kLength, kThickness, kThickness), 10 * n, n, n),
                                       material, place, "beam", error);
  INFO(error);
  REQUIRE(first >= 0);
  for (int p = first; p < static_cast<int>(beam.spec.particles.size()); ++p) {
    const Vec3& x = beam.spec.particles[p].position;
    if (x.x() < 1e-12) beam.spec.particles[p].mass = 0;
    if (std::abs(x.x() - kLength) < 1e-12) beam.tip.push_back(p);
  }
  return beam;
}

// The static tip deflection of the discretisation: K u = f over the free particles' dofs, K from
// the tet rows evaluated at rest, f the lumped weights.
Real static_tip_deflection(const sim::Model& m, const std::vector<int>& tip) {
  sim::RowSet rows;
  sim::assemble_rows(m, sim::ContactBuffer{}, rows);
  REQUIRE(rows.count == sim::kTetRows * m.tet_count);
  sim::Configuration rest;
  const sim::State s = sim::make_initial_state(m);
  rest.assign(m, s.q.data());
  for (int t = 0; t < m.tet_count; ++t) sim::evaluate_tet_rows(m, t, rest, 0, rows);

  std::vector<int> free_index(static_cast<std::size_t>(m.dof_count()), -1);
  int n = 0;
  for (int p = 0; p < m.particle_count; ++p)
    if (m.particle_inv_mass[p] > 0)
      for (int k = 0; k < 3; ++k) free_index[static_cast<std::size_t>(3 * p + k)] = n++;
  std::vector<Eigen::Triplet<Real>> triplets;
  triplets.reserve(static_cast<std::size_t>(rows.entry_count) * 36);
  Real largest_value = 0;
  for (int r = 0; r < rows.count; ++r) {
    largest_value = std::max(largest_value, std::abs(rows.row_value[r]));
    const Real stiffness = 1 / rows.row_compliance[r];
    for (int a = rows.row_entry_first[r]; a < rows.row_entry_first[r + 1]; ++a)
      for (int b = rows.row_entry_first[r]; b < rows.row_entry_first[r + 1]; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const int row = free_index[static_cast<std::size_t>(rows.entry_dof[a] + i)];
            const int col = free_index[static_cast<std::size_t>(rows.entry_dof[b] + j)];
            if (row < 0 || col < 0) FAIL("a tet row has an entry on a pinned particle");
            triplets.emplace_back(row, col, stiffness * rows.entry_grad[a][i] * rows.entry_grad[b][j]);
          }
  }
  CHECK(largest_value < 1e-12);  // every co-rotational row measure vanishes at rest
  Eigen::SparseMatrix<Real> stiffness(n, n);
  stiffness.setFromTriplets(triplets.begin(), triplets.end());
  VecX load = VecX::Zero(n);
  for (int p = 0; p < m.particle_count; ++p)
    if (m.particle_inv_mass[p] > 0) load[free_index[static_cast<std::size_t>(3 * p + 2)]] = -kGravity / m.particle_inv_mass[p];
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<Real>> factor(stiffness);
  REQUIRE(factor.info() == Eigen::Success);
  const VecX u = factor.solve(load);
  REQUIRE(factor.info() == Eigen::Success);
  CHECK((stiffness * u - load).norm() < 1e-8 * load.norm());
  Real deflection = 0;
  for (int p : tip) deflection -= u[free_index[static_cast<std::size_t>(3 * p + 2)]];
  return deflection / static_cast<Real>(tip.size());
}

}  // namespace

TEST_CASE("cantilever: the tet discretisation converges to Euler-Bernoulli, within 5% at eight elements through the thickness",
          "[scene][fem]") {
  const Real expected = euler_bernoulli_tip_deflection();
  Real previous = 0;
  Real deflections[3] = {0, 0, 0}, errors[3] = {1, 1, 1};
  const int elements[3] = {2, 4, 8};
  for (int i = 0; i < 3; ++i) {
    const Beam beam = make_beam(elements[i], 0);
    const sim::Model m = test::compile(beam.spec);
    const Real deflection = static_tip_deflection(m, beam.tip);
    deflections[i] = deflection;
    const Real error = errors[i] = (expected - deflection) / expected;
    std::printf("cantilever %d elements through the thickness (%d tets): tip deflection %.6g m, Euler-Bernoulli %.6g m, "
                "%.2f%% short\n", elements[i], m.tet_count, deflection, expected, 100 * error);
    // Locking: stiffer than the beam, never softer (beyond the 1% of shear deflection that a
    // Timoshenko beam of L/h = 10 adds), and every refinement moves toward it.
    CHECK(deflection < 1.01 * expected);
    CHECK(deflection > previous);
    previous = deflection;
  }
  CHECK(errors[2] < 0.05);
  // Second order in the element size once past the coarsest mesh: halving h shrinks the error
  // about fourfold, so the Richardson extrapolation of the two finest meshes lands on the beam
  // (Timoshenko's shear term, (E / 3κG)(h/L)² = 0.8% at ν = 0, κ = 5/6, is inside the band).
  const Real extrapolated = deflections[2] + (deflections[2] - deflections[1]) / 3;
  std::printf("cantilever: error ratio per halving %.2f then %.2f, Richardson extrapolation %.6g m (%.2f%% from "
              "Euler-Bernoulli)\n", errors[0] / errors[1], errors[1] / errors[2], extrapolated,
              100 * (extrapolated - expected) / expected);
  CHECK(errors[1] / errors[2] > 3);
  CHECK(std::abs(extrapolated - expected) < 0.02 * expected);
}

TEST_CASE("cantilever: the non-smooth Newton steps settle on the discretisation's static deflection", "[scene][fem]") {
  // Two elements through the thickness (480 tets); stiffness-proportional damping β = 0.01 s settles
  // the first bending mode (16 Hz) within a second of 10 ms steps.
  Beam beam = make_beam(2, 0.01);
  beam.spec.dt = 0.01;
  beam.spec.solver.linear_iterations = 100;
  beam.spec.solver.newton_iterations = 30;
  beam.spec.solver.newton_tolerance = 1e-10;
  beam.spec.solver.newton_velocity_tolerance = 1e-10;
  const sim::Model m = test::compile(beam.spec);
  const Real expected = static_tip_deflection(m, beam.tip);
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  for (int i = 0; i < 100; ++i) {
    const sim::StepReport r = sim::step(m, s, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());  // kStepNotConverged is a warning bit (its value is kStepNonFinite as a flag)
  }
  Real deflection = 0;
  for (int p : beam.tip) deflection += beam.spec.particles[p].position.z() - s.q[m.particle_coord(p) + 2];
  deflection /= static_cast<Real>(beam.tip.size());
  std::printf("cantilever 480 tets: stepped tip deflection %.6g m, direct static solution %.6g m (%.3f%%)\n",
              deflection, expected, 100 * (deflection - expected) / expected);
  CHECK(std::abs(deflection - expected) < 0.01 * expected);
}
