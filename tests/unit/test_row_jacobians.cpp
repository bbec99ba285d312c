// Every row kind's gradient ∇C·G against central finite differences of C along q(u) = q⁻ + h G u
// (eq. 63): joints of each type (their bilateral rows and the coordinate that limits and drives
// use), contact normals and tangents, a particle-face contact over four nodes, particle distances,
// FEM tetrahedra (strain rows over four particles, their force and material Hessian), shell
// membrane rows (three particles) and dihedral bending rows (four; flat and folded near ±π). And the geometric-stiffness secant
// (eq. 73) against the slope of a known momentum residual.
#include <catch2/catch.hpp>

#include <random>

#include "constraint/attachment_rows.hpp"
#include "constraint/distance_rows.hpp"
#include "constraint/joint_rows.hpp"
#include "constraint/row_assembly.hpp"
#include "constraint/shell_rows.hpp"
#include "constraint/tet_rows.hpp"
#include "sim/shell.hpp"
#include "sim/soft_body.hpp"
#include "core/kernel_views.hpp"
#include "core/kinematics.hpp"
#include "solver/newton_solver.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kH = 0.01;

// Two dynamic boxes, jointed by `type` with frames off their centres, moved off the joint's
// manifold and turned so that every term of the gradient is exercised. `aligned`: b turned only
// about the joint axis (by 0.7 rad), as the joint's own rows keep it, where the coordinate θ
// that limits and drives use has its exact gradient k·(ω_b − ω_a) (off-axis tilt changes θ at
// second order only when the axes align).
sim::Model jointed_pair(sim::JointType type, bool aligned = false) {
  sim::SceneSpec spec;
  spec.dt = kH;
  test::add_body(spec, "a", Vec3(0, 0, 1), 2.0, test::box_shape(Vec3(0.2, 0.1, 0.1)));
  test::add_body(spec, "b", Vec3(0.5, 0.1, 1.1), 1.0, test::box_shape(Vec3(0.1, 0.2, 0.1)));
  spec.bodies[1].pose.rot = sim::Quat(Eigen::AngleAxis<Real>(0.3, Vec3(1, 2, 3).normalized()));
  sim::JointSpec j;
  j.type = type;
  j.body_a = 0;
  j.body_b = 1;
  j.frame_a.pos = Vec3(0.25, 0.02, 0.05);
  j.frame_a.rot = sim::Quat(Eigen::AngleAxis<Real>(0.2, Vec3::UnitX()));
  j.frame_b.pos = Vec3(-0.2, -0.05, 0.0);
  j.axis = Vec3(0.3, 0.4, 0.86).normalized();
  if (aligned) spec.bodies[1].pose.rot = j.frame_a.rot * sim::Quat(Eigen::AngleAxis<Real>(0.7, j.axis));
  spec.joints.push_back(j);
  return test::compile(spec);
}

sim::VecX random_velocity(int dofs, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> d(-1, 1);
  sim::VecX u(dofs);
  for (int k = 0; k < dofs; ++k) u[k] = d(rng);
  return u;
}

// C of every row after moving by ±ε along u, through `evaluate` (rows at a configuration).
template <class Evaluate>
void check_rows_against_differences(const sim::Model& m, const sim::State& s, sim::RowSet& rows, int row_count,
                                    Evaluate evaluate) {
  const int dofs = m.dof_count();
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const sim::VecX u = random_velocity(dofs, seed);
    sim::Configuration c;
    c.assign(m, s.q.data());
    evaluate(c);
    std::vector<Real> predicted(row_count);
    for (int i = 0; i < row_count; ++i) predicted[i] = rows.gradient_dot(i, u.data());
    const Real eps = 1e-5;
    std::vector<Real> q(s.q.size());
    sim::VecX step = eps * u;
    auto value_at = [&](Real sign, std::vector<Real>& out) {
      sim::VecX v = sign * step;
      sim::integrate_positions(m, s.q.data(), v.data(), kH, q.data());
      c.assign(m, q.data());
      evaluate(c);
      out.assign(rows.row_value.begin(), rows.row_value.begin() + row_count);
    };
    std::vector<Real> plus, minus;
    value_at(1, plus);
    value_at(-1, minus);
    for (int i = 0; i < row_count; ++i) {
      const Real fd = (plus[i] - minus[i]) / (2 * eps * kH);
      INFO("row " << i << " (seed " << seed << "): gradient·u " << predicted[i] << ", finite difference " << fd);
      CHECK(predicted[i] == Approx(fd).margin(1e-6).epsilon(1e-5));
    }
  }
}

void set_joint_nodes(const sim::Model& m, sim::RowSet& rows, int count) {
  const std::vector<sim::RowNodes> nodes(count, sim::joint_row_nodes(m, 0));
  rows.set_structure(m, nodes.data(), count);
}

}  // namespace

TEST_CASE("joint rows of every type match finite differences of C along q(u)", "[unit][constraint][jacobian]") {
  for (sim::JointType type : {sim::JointType::Fixed, sim::JointType::Revolute, sim::JointType::Prismatic,
                              sim::JointType::Ball}) {
    INFO("joint type " << static_cast<int>(type));
    const sim::Model m = jointed_pair(type);
    const sim::State s = sim::make_initial_state(m);
    const int n = sim::joint_bilateral_row_count(type);
    sim::RowSet rows;
    rows.resize(n + 1);
    set_joint_nodes(m, rows, n + 1);
    check_rows_against_differences(m, s, rows, n, [&](const sim::Configuration& c) {
      sim::evaluate_joint_rows(m, 0, c, rows, 0);
    });
    if (!sim::joint_has_coordinate(type)) continue;
    // The coordinate θ that limits and drives use (row n holds it here), axes aligned.
    const sim::Model am = jointed_pair(type, true);
    const sim::State as = sim::make_initial_state(am);
    check_rows_against_differences(am, as, rows, n + 1, [&](const sim::Configuration& c) {
      sim::evaluate_joint_rows(am, 0, c, rows, 0);
      const sim::JointCoordinate jc = sim::joint_coordinate(am, 0, c);
      rows.row_value[n] = jc.value;
      rows.set_gradient(n, jc.grad_a, jc.grad_b);
    });
  }
}

TEST_CASE("contact normal and friction rows match finite differences (body-body, body-world, particle)",
          "[unit][constraint][jacobian]") {
  sim::SceneSpec spec;
  spec.dt = kH;
  test::add_body(spec, "a", Vec3(0, 0, 0.5), 1.0, test::box_shape(Vec3(0.1, 0.1, 0.1)));
  test::add_body(spec, "b", Vec3(0.05, 0.02, 0.7), 2.0, test::sphere_shape(0.1));
  spec.bodies[0].pose.rot = sim::Quat(Eigen::AngleAxis<Real>(0.4, Vec3(0, 1, 1).normalized()));
  sim::ParticleSpec p;
  p.position = Vec3(0.3, 0, 0.2);
  spec.particles.push_back(p);
  const sim::Model m = test::compile(spec);
  const sim::State s = sim::make_initial_state(m);
  sim::ContactBuffer contacts;
  auto add = [&](sim::ContactSide a, sim::ContactSide b, Vec3 n) {
    sim::Contact k;
    k.a = a;
    k.b = b;
    k.normal = n.normalized();
    sim::orthonormal_basis(k.normal, k.tangent1, k.tangent2);
    k.thickness = 0.01;
    contacts.contacts.push_back(k);
  };
  add({sim::ContactSide::Body, 1, Vec3(0.01, 0.02, -0.1)}, {sim::ContactSide::Body, 0, Vec3(0.1, 0.05, 0.1)},
      Vec3(0.1, 0.2, 1));
  add({sim::ContactSide::Body, 0, Vec3(-0.1, 0.1, -0.1)}, {sim::ContactSide::World, -1, Vec3(0, 0, 0)}, Vec3(0, 0, 1));
  add({sim::ContactSide::Particle, 0, Vec3::Zero()}, {sim::ContactSide::Body, 0, Vec3(0.1, 0, 0)}, Vec3(1, 0, 0.3));
  sim::RowSet rows;
  const int n = contacts.size();
  sim::assemble_rows(m, contacts, rows);
  REQUIRE(rows.first_normal == 0);
  REQUIRE(rows.first_friction == n);
  check_rows_against_differences(m, s, rows, 3 * n, [&](const sim::Configuration& c) {
    sim::evaluate_rows(m, contacts, c, {}, rows);
    // Friction rows are velocity level (D = tangent rows, no C): compare their gradient with the
    // tangential displacement of the contact points instead.
    for (int k = 0; k < n; ++k) {
      const sim::Contact& ct = contacts.contacts[k];
      auto point = [&](const sim::ContactSide& side) -> Vec3 {
        if (side.kind == sim::ContactSide::Body) return sim::body_point(c, side.index, side.local_point);
        if (side.kind == sim::ContactSide::Particle) return c.particle_position[side.index];
        return side.local_point;
      };
      const Vec3 d = point(ct.a) - point(ct.b);
      rows.row_value[n + 2 * k] = ct.tangent1.dot(d);
      rows.row_value[n + 2 * k + 1] = ct.tangent2.dot(d);
    }
  });
}

TEST_CASE("a particle-face contact row couples four nodes and matches finite differences", "[unit][constraint][jacobian][rows]") {
  // One barycentric face contact (constraint/particle_face_contact.hpp): side a the point
  // Σ w_k x_k of a triangle of three particles, side b a point of a turning box: a single row over
  // 4 nodes (3 particles, 1 body) for the normal and each tangent.
  sim::SceneSpec spec;
  spec.dt = kH;
  test::add_body(spec, "box", Vec3(0.1, -0.05, 0.3), 1.5, test::box_shape(Vec3(0.1, 0.15, 0.05)));
  spec.bodies[0].pose.rot = sim::Quat(Eigen::AngleAxis<Real>(0.6, Vec3(1, -2, 0.5).normalized()));
  for (const Vec3& x : {Vec3(0, 0, 0.5), Vec3(0.3, 0.05, 0.45), Vec3(0.1, 0.25, 0.55)}) {
    sim::ParticleSpec p;
    p.position = x;
    p.mass = 0.2;
    spec.particles.push_back(p);
  }
  spec.particle_triangles.push_back({0, 1, 2});
  const sim::Model m = test::compile(spec);
  const sim::State s = sim::make_initial_state(m);
  sim::ContactBuffer contacts;
  sim::Contact k;
  k.a.kind = sim::ContactSide::ParticleFace;
  k.a.index = 0;
  k.a.local_point = Vec3(0.2, 0.5, 0.3);
  k.b.kind = sim::ContactSide::Body;
  k.b.index = 0;
  k.b.local_point = Vec3(0.05, -0.1, 0.05);
  k.normal = Vec3(0.2, -0.1, 1).normalized();
  sim::orthonormal_basis(k.normal, k.tangent1, k.tangent2);
  k.thickness = 0.004;
  contacts.contacts.push_back(k);
  sim::RowSet rows;
  sim::assemble_rows(m, contacts, rows);
  REQUIRE(rows.count == 3);
  for (int r = 0; r < 3; ++r) {
    REQUIRE(rows.row_entry_first[r + 1] - rows.row_entry_first[r] == 4);
    const int e = rows.row_entry_first[r];
    CHECK(rows.entry_node[e] == m.body_count + 0);
    CHECK(rows.entry_node[e + 1] == m.body_count + 1);
    CHECK(rows.entry_node[e + 2] == m.body_count + 2);
    CHECK(rows.entry_node[e + 3] == 0);
    CHECK(rows.entry_width[e] == 3);
    CHECK(rows.entry_width[e + 3] == 6);
  }
  check_rows_against_differences(m, s, rows, 3, [&](const sim::Configuration& c) {
    sim::evaluate_rows(m, contacts, c, {}, rows);
    // The tangent rows are velocity level: compare with the tangential displacement of the face
    // point relative to the box's point.
    const Vec3 pa = 0.2 * c.particle_position[0] + 0.5 * c.particle_position[1] + 0.3 * c.particle_position[2];
    const Vec3 d = pa - sim::body_point(c, 0, k.b.local_point);
    rows.row_value[1] = k.tangent1.dot(d);
    rows.row_value[2] = k.tangent2.dot(d);
  });
  // The normal row's value is eq. 9 at the face point.
  sim::Configuration c;
  c.assign(m, s.q.data());
  sim::evaluate_rows(m, contacts, c, {}, rows);
  const Vec3 pa = 0.2 * c.particle_position[0] + 0.5 * c.particle_position[1] + 0.3 * c.particle_position[2];
  CHECK(rows.row_value[0] == Approx(k.normal.dot(pa - sim::body_point(c, 0, k.b.local_point)) - k.thickness).margin(1e-15));
}

TEST_CASE("particle distance rows match finite differences", "[unit][constraint][jacobian]") {
  const sim::Model m = test::compile(test::particle_pair(kH, Vec3(0, 0, 1), Vec3(0.3, 0.1, 0.8), 0.25));
  const sim::State s = sim::make_initial_state(m);
  sim::RowSet rows;
  sim::assemble_rows(m, sim::ContactBuffer{}, rows);
  REQUIRE(rows.count == 1);
  REQUIRE(rows.entry_count == 2);
  check_rows_against_differences(m, s, rows, 1, [&](const sim::Configuration& c) {
    sim::evaluate_distance_row(m, 0, c, rows, 0);
  });
}

namespace {

// One 0.1 m cube cell of 6 tets, its particles moved off rest (`push` moves one corner through the
// body, inverting some tets).
sim::Model tet_cell(sim::SoftModel model, sim::SoftCompliance compliance, sim::State& s, bool push) {
  sim::SceneSpec spec;
  spec.dt = kH;
  sim::SoftMaterialSpec mat;
  mat.model = model;
  mat.compliance = compliance;
  mat.youngs_modulus = 1e5;
  mat.poisson_ratio = 0.4;
  std::string error;
  REQUIRE(sim::add_soft_body(spec, sim::box_tet_mesh(Vec3(0.1, 0.1, 0.1), 1, 1, 1), mat, {}, "cell", error) == 0);
  const sim::Model m = test::compile(spec);
  s = sim::make_initial_state(m);
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> d(-0.02, 0.02);
  for (int k = 0; k < 3 * m.particle_count; ++k) s.q[k] += d(rng);
  if (push) s.q[3 * 7 + 2] -= 0.17;  // corner (+,+,+) down through the cell
  return m;
}

}  // namespace

TEST_CASE("FEM tet rows: strain gradients, forces and material Hessians match finite differences",
          "[unit][constraint][jacobian][fem]") {
  for (const bool push : {false, true})
    for (const auto model : {sim::SoftModel::Corotational, sim::SoftModel::NeoHookean})
      for (const auto compliance : {sim::SoftCompliance::Full, sim::SoftCompliance::Diagonal}) {
        sim::State s;
        const sim::Model m = tet_cell(model, compliance, s, push);
        INFO("model " << static_cast<int>(model) << ", compliance " << static_cast<int>(compliance) << ", pushed " << push);
        sim::RowSet rows;
        sim::assemble_rows(m, sim::ContactBuffer{}, rows);
        REQUIRE(rows.count == sim::kTetRows * m.tet_count);
        REQUIRE(rows.entry_count == 4 * rows.count);  // four particle slots per row
        // The rows' gradient is their measure's (C_k, or the strain s_k for diagonal) against ∂m/∂q·G.
        const sim::TetView tv = sim::tet_view(m);
        auto strains = [&](const sim::Configuration& c) {
          for (int t = 0; t < m.tet_count; ++t) {
            sim::evaluate_tet_rows(m, t, c, 0, rows);
            Real st[sim::kTetRows];
            sim::tet_row_strains(tv, sim::configuration_view(c), t, st);
            for (int k = 0; k < sim::kTetRows; ++k) rows.row_value[sim::kTetRows * t + k] = st[k];
          }
        };
        check_rows_against_differences(m, s, rows, rows.count, strains);
        // The full (split) compliance is exact: the row value E c is the constraint C itself.
        if (compliance == sim::SoftCompliance::Full)
          check_rows_against_differences(m, s, rows, rows.count, [&](const sim::Configuration& c) {
            for (int t = 0; t < m.tet_count; ++t) sim::evaluate_tet_rows(m, t, c, 0, rows);
          });
        // The force: Σ_k c'_k ∇s'_k·u (c' = value / compliance) is the rate of the elastic energy.
        const sim::VecX u = random_velocity(m.dof_count(), 11);
        sim::Configuration c;
        c.assign(m, s.q.data());
        Real power = 0;
        for (int t = 0; t < m.tet_count; ++t) sim::evaluate_tet_rows(m, t, c, 0, rows);
        for (int r = 0; r < rows.count; ++r) power += rows.row_value[r] / rows.row_compliance[r] * rows.gradient_dot(r, u.data());
        auto energy = [&](Real sign) {
          std::vector<Real> q(s.q.size());
          sim::VecX v = sign * Real(1e-6) * u;
          sim::integrate_positions(m, s.q.data(), v.data(), kH, q.data());
          Real e = 0;
          for (int t = 0; t < m.tet_count; ++t) {
            Vec3 x[4];
            for (int k = 0; k < 4; ++k) x[k] = Eigen::Map<const Vec3>(q.data() + 3 * m.tet_particle[4 * t + k]);
            e += sim::tet_elastic_energy(tv, x, t);
          }
          return e;
        };
        const Real fd = (energy(1) - energy(-1)) / (2e-6 * kH);
        CHECK(power == Approx(fd).epsilon(1e-5).margin(1e-6 * std::abs(fd) + 1e-9));
        for (int r = 0; r < rows.count; ++r) CHECK(rows.row_compliance[r] > 0);
      }
  // ∂²Ψ/∂s² against differences of ∂Ψ/∂s (App. B), at a stretched and at an inverted S; with and
  // without an active pressure (its work term −p(J − 1), −p tr ε; tet_row_kernel.hpp).
  for (const Real pressure : {Real(0), Real(2e4)})
  for (const Real sign : {Real(1), Real(-1)})
    for (const auto model : {sim::SoftModel::Corotational, sim::SoftModel::NeoHookean}) {
      INFO("pressure " << pressure);
      sim::Vec6 s0;
      s0 << 0.3, -0.2, 0.1, 0.15, -0.05, 0.08;
      auto stretch = [&](const sim::Vec6& v) {
        sim::Mat3 st;
        st << 1 + v[0], v[5], v[4], v[5], 1 + v[1], v[3], v[4], v[3], 1 + v[2];
        if (sign < 0) st.row(2) *= -1, st.col(2) *= -1, st(2, 2) = -(1 + v[2]);
        return st;
      };
      auto voigt = [&](const sim::Mat3& st) {
        sim::Vec6 v;
        v << st(0, 0) - 1, st(1, 1) - 1, st(2, 2) - 1, st(1, 2), st(0, 2), st(0, 1);
        return v;
      };
      const sim::Mat3 st = stretch(s0);
      const sim::TetMaterial at = sim::tet_material(model, 1e5, 3e5, voigt(st), st, pressure);
      for (int k = 0; k < 6; ++k) {
        sim::Vec6 dv = sim::Vec6::Zero();
        dv[k] = 1e-6;
        const sim::Mat3 sp = st + (stretch(s0 + dv) - stretch(s0)), sm = st - (stretch(s0 + dv) - stretch(s0));
        const sim::TetMaterial p = sim::tet_material(model, 1e5, 3e5, voigt(sp), sp, pressure);
        const sim::TetMaterial n = sim::tet_material(model, 1e5, 3e5, voigt(sm), sm, pressure);
        const sim::Vec6 dg = (p.gradient - n.gradient) / 2e-6;
        const sim::Vec6 dvoigt = (voigt(sp) - voigt(sm)) / 2e-6;
        const sim::Vec6 predicted = at.hessian * dvoigt;
        for (int l = 0; l < 6; ++l) CHECK(predicted[l] == Approx(dg[l]).epsilon(1e-5).margin(1e-3));
        CHECK(((p.energy - n.energy) / 2e-6) == Approx(at.gradient.dot(dvoigt)).epsilon(1e-6).margin(1e-4));
      }
    }
}

TEST_CASE("particle attachment rows match finite differences (to a turned body and to the world)",
          "[unit][constraint][jacobian]") {
  sim::SceneSpec spec;
  spec.dt = kH;
  test::add_body(spec, "palm", Vec3(0.1, -0.2, 1.0), 2.0, test::box_shape(Vec3(0.2, 0.1, 0.05)));
  spec.bodies[0].pose.rot = sim::Quat(Eigen::AngleAxis<Real>(0.8, Vec3(1, -2, 0.5).normalized()));
  for (const Vec3& x : {Vec3(0.3, 0.1, 0.9), Vec3(-0.2, 0.0, 1.2)}) {
    sim::ParticleSpec p;
    p.position = x;
    p.mass = 0.1;
    spec.particles.push_back(p);
  }
  sim::ParticleAttachmentSpec a;
  a.particle = 0;
  a.body = 0;
  a.local_point = Vec3(0.15, -0.05, 0.1);  // off the body's point where the particle is: C ≠ 0
  spec.attachments.push_back(a);
  a.particle = 1;
  a.body = -1;
  a.local_point = Vec3(-0.25, 0.05, 1.1);
  spec.attachments.push_back(a);
  const sim::Model m = test::compile(spec);
  const sim::State s = sim::make_initial_state(m);
  sim::RowSet rows;
  sim::assemble_rows(m, sim::ContactBuffer{}, rows);
  REQUIRE(rows.count == 2 * sim::kAttachmentRows);
  REQUIRE(rows.first_attachment == 0);
  REQUIRE(rows.entry_count == 3 * 2 + 3 * 1);  // particle + body, then the particle alone
  check_rows_against_differences(m, s, rows, rows.count, [&](const sim::Configuration& c) {
    for (int i = 0; i < m.attachment_count; ++i) sim::evaluate_attachment_rows(m, i, c, 0, rows);
  });
  // C is the particle's offset from the body point (com frame re-expressed from the body frame).
  sim::Configuration c;
  c.assign(m, s.q.data());
  sim::evaluate_attachment_rows(m, 0, c, 0, rows);
  const Vec3 anchor = spec.bodies[0].pose.apply(Vec3(0.15, -0.05, 0.1));
  for (int k = 0; k < 3; ++k) CHECK(rows.row_value[k] == Approx(spec.particles[0].position[k] - anchor[k]).margin(1e-12));
}

TEST_CASE("geometric stiffness takes the secant without the mass term (eq. 73 corrected)", "[unit][solver]") {
  // A momentum residual g(u) = (M + κ) u, as a stiffening constraint force gives: the secant's
  // non-mass part is κ, so H̃ = M + shift must be the slope M + κ. With eq. 73 as printed
  // (+ MΔu) the shift would be κ + 2M and H̃ = 3M + κ.
  const Real mass = 2, du = 0.1;
  for (Real kappa : {Real(3), Real(0.5), Real(40)}) {
    const Real u0 = 0.7, u1 = u0 + du;
    const Real g0 = (mass + kappa) * u0, g1 = (mass + kappa) * u1;
    const Real shift = sim::geometric_stiffness_shift(g1, g0, mass, du);
    CHECK(mass + shift == Approx(mass + kappa).epsilon(1e-12));
    CHECK_FALSE(shift == Approx(kappa + 2 * mass));
  }
  // A softening force (κ < 0) is not subtracted: H̃ stays >= M (eq. 74).
  CHECK(sim::geometric_stiffness_shift((mass - 1) * 0.8, (mass - 1) * 0.7, mass, du) == 0);
}

namespace {

// An n × n grid of square cells of side `cell` in the z = 0 plane, two triangles a cell (the
// <cloth model="membrane"> triangulation); point (i, j) is (n + 1) j + i.
void square_grid(int n, Real cell, std::vector<Vec3>& points, std::vector<std::array<int, 3>>& tris) {
  auto id = [n](int i, int j) { return (n + 1) * j + i; };
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) points.emplace_back(cell * i, cell * j, 0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      tris.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      tris.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
}

// The grid as a shell in `spec` (ν 0.3, 1 mm thick, Young's modulus `youngs`); its points, which
// are its particles' rest positions, in `points`, and its material.
sim::ShellMaterialSpec add_grid_shell(sim::SceneSpec& spec, int n, Real cell, Real youngs, std::vector<Vec3>& points) {
  std::vector<std::array<int, 3>> tris;
  square_grid(n, cell, points, tris);
  sim::ShellMaterialSpec mat;
  mat.youngs_modulus = youngs;
  mat.poisson_ratio = 0.3;
  mat.thickness = 1e-3;
  std::string error;
  REQUIRE(sim::add_shell(spec, points, tris, mat, {}, "grid", error) == 0);
  return mat;
}

// A 0.1 m square of 2 × 2 cells (8 triangles, 8 interior edges) as a shell, moved off rest at
// random and, with `fold` != 0, its x > 0.05 half folded by `fold` rad about the line x = 0.05
// (2.95 rad: the hinges there near θ = ±π, the two halves almost on top of each other).
sim::Model shell_patch(sim::State& s, Real fold) {
  sim::SceneSpec spec;
  spec.dt = kH;
  std::vector<Vec3> points;
  add_grid_shell(spec, 2, 0.05, 1e6, points);
  const sim::Model m = test::compile(spec);
  s = sim::make_initial_state(m);
  const Eigen::AngleAxis<Real> turn(fold, Vec3::UnitY());
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> d(-0.004, 0.004);
  for (int p = 0; p < m.particle_count; ++p) {
    Vec3 x = points[p];
    if (x.x() > 0.05 + 1e-9) x = Vec3(0.05, 0, 0) + turn * (x - Vec3(0.05, 0, 0));
    for (int k = 0; k < 3; ++k) s.q[3 * p + k] = x[k] + d(rng);
  }
  return m;
}

}  // namespace

TEST_CASE("shell rows: membrane strain and dihedral bending gradients match finite differences",
          "[unit][constraint][jacobian][shell]") {
  for (const Real fold : {0.0, 1.2, 2.95, -2.95}) {
    INFO("fold " << fold);
    sim::State s;
    const sim::Model m = shell_patch(s, fold);
    REQUIRE(m.membrane_count == 8);
    REQUIRE(m.hinge_count == 8);
    // A row per interior edge of each triangle (free edges minimised out): two corner triangles
    // with 1, two with 3 and four with 2.
    CHECK(m.bending_count == 16);
    sim::RowSet rows;
    sim::assemble_rows(m, sim::ContactBuffer{}, rows);
    REQUIRE(rows.count == sim::kMembraneRows * m.membrane_count + m.bending_count);
    REQUIRE(rows.first_bending == sim::kMembraneRows * m.membrane_count);
    check_rows_against_differences(m, s, rows, rows.count,
                                   [&](const sim::Configuration& c) { sim::evaluate_shell_rows(m, c, rows); });
    // The folded patch exercises angles near ±π (the hinges on the fold line).
    sim::Configuration c;
    c.assign(m, s.q.data());
    sim::evaluate_shell_rows(m, c, rows);
    const sim::HingeView hv = sim::hinge_view(m);
    Real widest = 0;
    for (int i = 0; i < m.hinge_count; ++i) {
      Vec3 x[4];
      for (int k = 0; k < 4; ++k) x[k] = c.particle_position[m.hinge_particle[4 * i + k]];
      sim::HingeAngle a;
      widest = std::max(widest, std::abs(sim::hinge_deviation(hv, x, i, a)));
    }
    if (std::abs(fold) > 2.9) CHECK(widest > 2.8);
    // The force: Σ_k (value/compliance) ∇m_k·u = Σ k m ∇m·u is the rate of the elastic energy.
    const sim::VecX u = random_velocity(m.dof_count(), 13);
    Real power = 0;
    for (int r = 0; r < rows.count; ++r) {
      CHECK(rows.row_compliance[r] > 0);
      power += rows.row_value[r] / rows.row_compliance[r] * rows.gradient_dot(r, u.data());
    }
    const sim::MembraneView tv = sim::membrane_view(m);
    const sim::BendingView bv = sim::bending_view(m);
    auto energy = [&](Real sign) {
      std::vector<Real> q(s.q.size());
      sim::VecX v = sign * Real(1e-6) * u;
      sim::integrate_positions(m, s.q.data(), v.data(), kH, q.data());
      auto at = [&](int p) { return Vec3(Eigen::Map<const Vec3>(q.data() + 3 * p)); };
      Real e = 0;
      for (int t = 0; t < m.membrane_count; ++t) {
        const Vec3 x[3] = {at(m.membrane_particle[3 * t]), at(m.membrane_particle[3 * t + 1]), at(m.membrane_particle[3 * t + 2])};
        e += sim::membrane_elastic_energy(tv, x, t);
      }
      for (int r = 0; r < m.bending_count; ++r) e += sim::bending_elastic_energy(bv, at, r);
      return e;
    };
    const Real fd = (energy(1) - energy(-1)) / (2e-6 * kH);
    CHECK(power == Approx(fd).epsilon(1e-5).margin(1e-6 * std::abs(fd) + 1e-9));
  }
}

TEST_CASE("shell bending energy of a sheet rolled into a cylinder is ½ D κ² per area, rolling stores no membrane energy",
          "[unit][constraint][shell]") {
  // An L × L grid sheet (the <cloth model="membrane"> triangulation) mapped isometrically onto a
  // cylinder of curvature κ about y (then about x): the bending rows' energy against the plate's
  // ½ D κ² per area. Triangles with three interior edges store it exactly (up to the chords);
  // those with a free edge minimise their free tilt out (the free edge's natural condition), so
  // the boundary layer stores less: the whole sheet's deficit shrinks as the cells (1/n). The
  // membrane, isometric up to the chords, stores under 1% of it.
  const Real size = 0.2, kappa = 5;
  Real previous_deficit = 1;
  for (const int n : {10, 20, 40}) {
    std::vector<Vec3> points;
    sim::SceneSpec spec;
    const sim::ShellMaterialSpec mat = add_grid_shell(spec, n, size / n, 1e7, points);
    const sim::Model m = test::compile(spec);
    REQUIRE(m.hinge_count == 3 * n * n - 2 * n);
    const Real d = sim::shell_bending_stiffness(mat);
    CHECK(d == Approx(1e7 * 1e-9 / (12 * (1 - 0.09))));
    for (int axis = 0; axis < 2; ++axis) {
      std::vector<Vec3> x(points.size());
      for (std::size_t p = 0; p < points.size(); ++p) {
        const Real s = points[p][axis], other = points[p][1 - axis];
        const Real along = std::sin(kappa * s) / kappa, up = (1 - std::cos(kappa * s)) / kappa;
        x[p] = axis == 0 ? Vec3(along, other, up) : Vec3(other, along, up);
      }
      const sim::BendingView bv = sim::bending_view(m);
      const sim::MembraneView tv = sim::membrane_view(m);
      const auto at = [&](int p) { return x[static_cast<std::size_t>(p)]; };
      Real bending = 0, interior = 0, membrane = 0;
      int interior_rows = 0;
      for (int r = 0; r < m.bending_count; ++r) {
        const Real e = sim::bending_elastic_energy(bv, at, r);
        bending += e;
        // A triangle of three interior edges: three rows, each over all three hinges.
        if (m.bending_hinge[sim::kBendingHinges * r + 2] >= 0) interior += e, ++interior_rows;
      }
      for (int t = 0; t < m.membrane_count; ++t) {
        const Vec3 xs[3] = {x[m.membrane_particle[3 * t]], x[m.membrane_particle[3 * t + 1]], x[m.membrane_particle[3 * t + 2]]};
        membrane += sim::membrane_elastic_energy(tv, xs, t);
      }
      const Real per_area = 0.5 * d * kappa * kappa, triangle = 0.5 * (size / n) * (size / n);
      const Real expected = per_area * size * size, deficit = 1 - bending / expected;
      std::printf("cylinder about %s (kappa %.0f 1/m, %dx%d grid): bending %.6g J, plate %.6g J (ratio %.5f), "
                  "interior triangles %.6f of the plate's, membrane %.3g J\n",
                  axis == 0 ? "y" : "x", kappa, n, n, bending, expected, bending / expected,
                  interior / (per_area * triangle * interior_rows / 3), membrane);
      REQUIRE(interior_rows % 3 == 0);
      CHECK(interior == Approx(per_area * triangle * interior_rows / 3).epsilon(2e-3));
      CHECK(deficit > 0);             // the free edges relax, never stiffen
      CHECK(deficit < 1.2 / n);       // a boundary layer of about a cell
      if (axis == 0) {
        CHECK(deficit < 0.6 * previous_deficit);  // converging as the cells shrink
        previous_deficit = deficit;
      }
      // Chord strain ~ (κa)²/24 (a the cell): E t ε² against D κ², ~5e-3 at 20 × 20, 16 × that at 10 × 10.
      CHECK(membrane < (n >= 20 ? 1e-2 : 0.15) * bending);
    }
  }
}
