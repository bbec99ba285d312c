// The kernel layer on the CPU (sim/src/kernels/): each per-body, per-particle and per-contact
// kernel against a closed form (free rotation, torque-free symmetric top, free fall, energies by
// hand), and against the loop bodies they replaced, bit for bit, on the data of shipped scenes
// and scenes of our own. The row kinds' kernels (joint, drive, limit, distance, contact rows)
// called one by one against the production evaluate_rows, bit for bit, and C_n at q⁻ against the
// narrowphase's gap; the friction projection, the contact friction frame and the shape boxes
// against closed forms and the collision stage's own results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "collision/collide.hpp"
#include "collision/contact_friction.hpp"
#include "constraint/row_assembly.hpp"
#include "core/energy.hpp"
#include "core/kernel_views.hpp"
#include "core/kinematics.hpp"
#include "core/parallel.hpp"
#include "kernels/body_kernels.hpp"
#include "kernels/contact_frame_kernel.hpp"
#include "kernels/contact_kernels.hpp"
#include "kernels/contact_row_kernels.hpp"
#include "kernels/distance_row_kernel.hpp"
#include "kernels/friction_projection_kernel.hpp"
#include "kernels/geometric_stiffness_kernel.hpp"
#include "kernels/inverse_mass_kernel.hpp"
#include "kernels/joint_coordinate_row_kernels.hpp"
#include "kernels/joint_row_kernels.hpp"
#include "kernels/particle_kernels.hpp"
#include "kernels/shape_box_kernel.hpp"
#include "sim/scene_io.hpp"
#include "solver/schur_system.hpp"
#include "sim/step.hpp"
#include "support/free_body.hpp"
#include "support/scene_builders.hpp"
#include "support/shipped_run.hpp"
#include "support/shipped_scenes.hpp"

using test::FreeBody;
using sim::Mat3;
using sim::Quat;
using sim::Real;
using sim::Vec3;
using sim::Vec6;

namespace {

bool same_bits(Real a, Real b) { return std::memcmp(&a, &b, sizeof(Real)) == 0; }

template <class Matrix>
bool same_bits(const Matrix& a, const Matrix& b) {
  for (int k = 0; k < a.size(); ++k)
    if (!same_bits(a.data()[k], b.data()[k])) return false;
  return true;
}

}  // namespace

TEST_CASE("body velocity prediction adds g h exactly and the applied wrench through M^-1", "[unit][kernels]") {
  const Quat rot = Quat(Eigen::AngleAxis<Real>(0.7, Vec3(1, 2, 3).normalized()));
  // Mass 2 (a power of two): m⁻¹ (m g) is g to the bit, so ũ_v = v + h g exactly.
  FreeBody b(2.0, Vec3(0.3, 0.5, 0.7), rot, Vec3(1, -2, 0.5), Vec3::Zero());
  const Vec3 g(0.3, -0.2, -9.81);
  const Real h = 1.0 / 240;
  Mat3 iw, iw_inv;
  sim::body_world_inertia(b.bodies(), b.state(), 0, sim::BodyInertiaView{&iw, &iw_inv});
  CHECK((iw * iw_inv - Mat3::Identity()).norm() < 1e-14);
  CHECK((iw - b.world_inertia()).norm() < 1e-15);
  Real ut[6];
  sim::predict_body_velocity(b.bodies(), b.state(), sim::LoadView{g, nullptr, nullptr, false}, &iw, &iw_inv, h, 0, ut);
  for (int k = 0; k < 3; ++k) {
    CHECK(ut[k] == b.u[k] + h * g[k]);
    CHECK(ut[3 + k] == 0);  // no spin: no gyroscopic torque
  }
  // A wrench: Δv = h F / m, Δω = h I_w⁻¹ (τ − ω × I_w ω) with the explicit gyroscopic term (the
  // implicit one: test_gyroscopic.cpp).
  b.u[3] = 4;
  b.u[4] = -1;
  const Vec6 wrench = (Vec6() << 1, 2, 3, 0.1, -0.2, 0.3).finished();
  sim::predict_body_velocity(b.bodies(), b.state(), sim::LoadView{g, &wrench, nullptr, false}, &iw, &iw_inv, h, 0, ut);
  const Vec3 w = b.omega();
  const Vec3 dw = h * (b.world_inertia().inverse() * (wrench.tail<3>() - w.cross(b.world_inertia() * w)));
  for (int k = 0; k < 3; ++k) {
    CHECK(ut[k] == Approx(b.u[k] + h * (g[k] + wrench[k] / 2)).epsilon(1e-14));
    CHECK(ut[3 + k] == Approx(w[k] + dw[k]).epsilon(1e-12));
  }
  // A fixed body (m⁻¹ = 0) predicts zero velocity whatever it carried.
  b.inv_mass = 0;
  sim::predict_body_velocity(b.bodies(), b.state(), sim::LoadView{g, &wrench, nullptr, false}, &iw, &iw_inv, h, 0, ut);
  for (Real x : ut) CHECK(x == 0);
}

TEST_CASE("particle velocity prediction is u + h (g + f/m) and zero for fixed particles", "[unit][kernels]") {
  const std::vector<Real> inv_mass = {4.0, 0.0};
  const std::vector<Real> q = {0, 0, 1, 1, 0, 1};
  const std::vector<Real> u = {0.5, -1, 2, 3, 3, 3};
  const std::vector<Vec3> force = {Vec3(1, 2, 3), Vec3(5, 5, 5)};
  const Vec3 g(0, 0, -9.81);
  const Real h = 0.01;
  const sim::ParticleView particles{inv_mass.data(), 2};
  const sim::StateView state{q.data(), u.data(), 0, 2};
  std::vector<Real> ut(6), im(6);
  for (int p = 0; p < 2; ++p)
    sim::predict_particle_velocity(particles, state, sim::LoadView{g, nullptr, nullptr, true}, h, p, ut.data(), im.data());
  for (int k = 0; k < 3; ++k) {
    CHECK(ut[k] == u[k] + h * g[k]);
    CHECK(ut[3 + k] == 0);
    CHECK(im[k] == 4.0);
    CHECK(im[3 + k] == 0);
  }
  for (int p = 0; p < 2; ++p)
    sim::predict_particle_velocity(particles, state, sim::LoadView{g, nullptr, force.data(), true}, h, p, ut.data(),
                                   im.data());
  for (int k = 0; k < 3; ++k) CHECK(ut[k] == Approx(u[k] + h * (g[k] + 4.0 * force[0][k])).epsilon(1e-15));
}

TEST_CASE("free rotation keeps a unit quaternion and turns by 2 atan(h|w|/2) per step", "[unit][kernels]") {
  // q' = normalise((1 + ½ h [0, ω]) q) is the exact rotation by 2 atan(h|ω|/2) about ω (the
  // quaternion 1 + ½hω̂|ω| has that half-angle), so n steps turn by n times that angle.
  const Vec3 w(3.0, -4.0, 12.0);  // |ω| = 13 rad/s
  const Real h = 1.0 / 120;
  FreeBody b(1.5, Vec3(0.2, 0.2, 0.2), Quat(Eigen::AngleAxis<Real>(0.4, Vec3::UnitX())), Vec3(1, 0, 0), w);
  const Quat start = b.rotation();
  const int n = 500;
  Real worst_norm_error = 0;
  for (int i = 0; i < n; ++i) {
    std::vector<Real> next(7);
    sim::integrate_body(b.state(), h, 0, next.data());
    b.q = next;
    worst_norm_error = std::max(worst_norm_error, std::abs(b.rotation().norm() - 1));
  }
  CHECK(worst_norm_error < 1e-15);
  const Real angle = n * 2 * std::atan(h * w.norm() / 2);
  const Quat expected = Quat(Eigen::AngleAxis<Real>(angle, w.normalized())) * start;
  CHECK(std::abs(std::abs(expected.dot(b.rotation())) - 1) < 1e-12);
  CHECK(b.q[0] == Approx(n * h).epsilon(1e-12));  // x = x0 + n h v
}

TEST_CASE("a torque-free symmetric top precesses with its angular momentum and energy conserved",
          "[unit][kernels]") {
  // I = diag(1, 1, 2.5) kg m², spinning about a tilted axis: ω precesses around L (its body-frame
  // components rotate at Ω = (I3 − I1)/I1 ω3), |q| stays 1, and L = I_w ω and ½ωᵀI_wω stay put up
  // to the O(h) error of the explicit gyroscopic term (eq. 46), which halves with h.
  auto run = [](Real h, Real duration, Real& momentum_drift, Real& energy_drift, Real& norm_error, Real& turn) {
    FreeBody b(3.0, Vec3(1.0, 1.0, 2.5), Quat(Eigen::AngleAxis<Real>(0.3, Vec3::UnitY())), Vec3::Zero(),
               Vec3(0, 0, 0));
    const Vec3 w_body(1.0, 0.0, 4.0);
    const Vec3 w0 = b.rotation() * w_body;
    for (int k = 0; k < 3; ++k) b.u[3 + k] = w0[k];
    const Vec3 L0 = b.world_inertia() * w0;
    const Real E0 = 0.5 * w0.dot(b.world_inertia() * w0);
    momentum_drift = energy_drift = norm_error = 0;
    const int steps = static_cast<int>(std::lround(duration / h));
    for (int i = 0; i < steps; ++i) {
      b.step(Vec3::Zero(), h, false);  // the paper's explicit term (implicit: test_gyroscopic.cpp)
      const Vec3 w = b.omega();
      momentum_drift = std::max(momentum_drift, (b.world_inertia() * w - L0).norm() / L0.norm());
      energy_drift = std::max(energy_drift, std::abs(0.5 * w.dot(b.world_inertia() * w) - E0) / E0);
      norm_error = std::max(norm_error, std::abs(b.rotation().norm() - 1));
    }
    turn = std::acos(std::clamp(b.omega().normalized().dot(w0.normalized()), Real(-1), Real(1)));
  };
  Real dl1, de1, dn1, turn1, dl2, de2, dn2, turn2;
  run(1.0 / 1000, 1.0, dl1, de1, dn1, turn1);
  run(1.0 / 2000, 1.0, dl2, de2, dn2, turn2);
  CHECK(turn1 > 0.1);  // ω really moves in the world (not a trivial spin about a principal axis)
  CHECK(dn1 < 1e-15);
  CHECK(dn2 < 1e-15);
  CHECK(dl1 < 2e-3);  // measured 9.7e-4 and 8.9e-4 over 1 s at h = 1 ms
  CHECK(de1 < 2e-3);
  CHECK(dl2 < 0.6 * dl1);  // first order: the drift shrinks with h
  CHECK(de2 < 0.6 * de1);
}

TEST_CASE("energy kernels match 1/2 m v^2 + 1/2 w^T I w and -m g x by hand", "[unit][kernels]") {
  const Quat rot = Quat(Eigen::AngleAxis<Real>(1.1, Vec3(-1, 0.5, 2).normalized()));
  FreeBody b(2.5, Vec3(0.4, 0.9, 1.3), rot, Vec3(1, 2, -3), Vec3(0.5, -7, 2));
  b.q[0] = 0.3;
  b.q[1] = -0.2;
  b.q[2] = 4.0;
  const Vec3 g(0, 0, -9.81);
  const sim::Energy e = sim::body_energy(b.bodies(), b.state(), g, 0);
  const Vec3 v(1, 2, -3), w(0.5, -7, 2);
  const Mat3 I = b.world_inertia();  // R diag(I) Rᵀ by hand
  CHECK(e.kinetic == Approx(0.5 * 2.5 * v.dot(v) + 0.5 * w.dot(I * w)).epsilon(1e-14));
  CHECK(e.potential == Approx(2.5 * 9.81 * 4.0).epsilon(1e-15));
  b.inv_mass = 0;  // fixed
  const sim::Energy fixed = sim::body_energy(b.bodies(), b.state(), g, 0);
  CHECK(fixed.kinetic == 0);
  CHECK(fixed.potential == 0);

  const std::vector<Real> inv_mass = {0.5};
  const std::vector<Real> q = {1, 2, 3}, u = {0, 3, 4};
  const sim::Energy p = sim::particle_energy(sim::ParticleView{inv_mass.data(), 1}, sim::StateView{q.data(), u.data(), 0, 1},
                                             Vec3(0, -2, 0), 0);
  CHECK(p.kinetic == 25.0);     // ½ · 2 kg · 25 m²/s²
  CHECK(p.potential == 8.0);    // −m g·x = −2 · (−2 · 2)
}

TEST_CASE("mechanical energy of a falling scene is conserved until the first contact", "[unit][kernels]") {
  // A ball and a particle of our own, dropped from rest: kinetic + potential stays at its start
  // value (the step's free fall is exact: Δv = g h, and x moves by h v⁺, so the energy error per
  // step is ½ m g² h², summing to m g² h t / 2 over t).
  sim::SceneSpec spec;
  spec.dt = 1.0 / 200;
  spec.world_shapes.push_back(test::ground_plane());
  test::add_body(spec, "ball", Vec3(0, 0, 5), 1.5, test::sphere_shape(0.1));
  sim::ParticleSpec particle;
  particle.position = Vec3(1, 0, 5);
  particle.mass = 0.2;
  particle.radius = 0.01;
  spec.particles.push_back(particle);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  std::vector<Real> partials;
  const sim::Energy e0 = sim::mechanical_energy(model, state, partials);
  CHECK(e0.kinetic == 0);
  CHECK(e0.potential == Approx((1.5 + 0.2) * 9.81 * 5).epsilon(1e-12));
  const int steps = 100;  // 0.5 s: falls 1.2 m, no contact
  test::run_steps(model, state, sim::make_initial_control(model), ws, steps);
  const sim::Energy e = sim::mechanical_energy(model, state, partials);
  const Real t = steps * spec.dt;
  const Real v = 9.81 * t;
  CHECK(e.kinetic == Approx(0.5 * 1.7 * v * v).epsilon(1e-12));
  CHECK(e.kinetic + e.potential - e0.potential == Approx(-1.7 * 9.81 * 9.81 * spec.dt * t / 2).epsilon(1e-9));
}

TEST_CASE("momentum residual kernels compute M (u - u~) - h f by hand", "[unit][kernels]") {
  FreeBody b(2.0, Vec3(0.3, 0.4, 0.5), Quat(Eigen::AngleAxis<Real>(0.5, Vec3::UnitZ())), Vec3::Zero(),
             Vec3::Zero());
  const Mat3 iw = b.world_inertia();
  const std::vector<Real> inv_mass_p = {0.25};
  // One body and one particle: dofs 6 + 3.
  const std::vector<Real> u = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<Real> ut = {0.5, 2, 2, 4, 4.5, 7, 6, 8, 10};
  const std::vector<Real> f = {1, 0, -1, 0.5, 0, 2, 3, 2, 1};
  std::vector<Real> g(9);
  const Real h = 0.01;
  const sim::MomentumView mv{u.data(), ut.data(), f.data(), &iw, g.data()};
  sim::body_momentum_residual(b.bodies(), mv, h, 0);
  sim::particle_momentum_residual(sim::ParticleView{inv_mass_p.data(), 1}, mv, 1, h, 0);
  const Vec3 angular = iw * Vec3(0, 0.5, -1);
  for (int k = 0; k < 3; ++k) {
    CHECK(g[k] == Approx(2.0 * (u[k] - ut[k]) - h * f[k]).margin(1e-15));
    CHECK(g[3 + k] == Approx(angular[k] - h * f[3 + k]).margin(1e-15));
    CHECK(g[6 + k] == Approx(4.0 * (u[6 + k] - ut[6 + k]) - h * f[6 + k]).margin(1e-15));
  }
}

TEST_CASE("the inverse mass kernel inverts the block-diagonal mass matrix per node", "[unit][kernels]") {
  FreeBody b(0.7, Vec3(0.02, 0.05, 0.09), Quat(Eigen::AngleAxis<Real>(2.0, Vec3(3, -1, 1).normalized())),
             Vec3::Zero(), Vec3::Zero());
  const Mat3 iw = b.world_inertia();
  const Mat3 iw_inv = iw.inverse();
  const std::vector<Real> particle_inv_mass = {2.0, 2.0, 0.5};  // a shifted dof (eq. 74)
  const sim::InverseMassView v{&b.inv_mass, &iw_inv, particle_inv_mass.data(), 1};
  const Real in[9] = {1, -2, 3, 0.4, 0.5, -0.6, 7, 8, 9};
  Real out[9];
  sim::apply_inverse_mass(v, 0, in, out);
  sim::apply_inverse_mass(v, 1, in + sim::node_dof_offset(1, 1), out + sim::node_dof_offset(1, 1));
  // H out = in with H = diag(m I, I_w) for the body; m⁻¹ in for the particle.
  for (int k = 0; k < 3; ++k) CHECK(0.7 * out[k] == Approx(in[k]).epsilon(1e-14));
  const Vec3 back = iw * Vec3(out[3], out[4], out[5]);
  for (int k = 0; k < 3; ++k) CHECK(back[k] == Approx(in[3 + k]).epsilon(1e-12));
  CHECK(out[6] == 14.0);  // m⁻¹ in per particle dof
  CHECK(out[7] == 16.0);
  CHECK(out[8] == 4.5);
}

TEST_CASE("contact force kernels read the contact rows and assemble the world force", "[unit][kernels]") {
  // Rows: 2 joint rows, then 2 normals, then 2 friction pairs.
  const std::vector<Real> lambda = {9, 9, 10, 20, 1, 2, 3, 4};
  const sim::ContactLambdaView v{lambda.data(), 2, 4, 2};
  std::vector<Real> normal(2);
  std::vector<sim::Vec2> friction(2);
  for (int c = 0; c < 2; ++c) sim::read_contact_force(v, c, normal.data(), friction.data());
  CHECK(normal[0] == 10);
  CHECK(normal[1] == 20);
  CHECK(friction[0] == sim::Vec2(1, 2));
  CHECK(friction[1] == sim::Vec2(3, 4));
  Vec3 n = Vec3(1, 1, 1).normalized(), t1, t2;
  sim::orthonormal_basis(n, t1, t2);
  const Vec3 f = sim::contact_world_force(n, t1, t2, 10, sim::Vec2(1, 2));
  CHECK(f.dot(n) == Approx(10).epsilon(1e-14));
  CHECK(f.dot(t1) == Approx(1).epsilon(1e-14));
  CHECK(f.dot(t2) == Approx(2).epsilon(1e-14));
}

TEST_CASE("warm start finds each contact's key in the sorted record as std::lower_bound does", "[unit][kernels]") {
  // A record with repeated keys (two contacts of one feature pair: the first entry wins), and
  // contacts whose keys are missing, below, between and above the record's.
  const std::vector<std::uint64_t> record_key = {3, 7, 7, 10, 42, 1000};
  std::vector<Real> record_lambda;
  for (std::size_t i = 0; i < 3 * record_key.size(); ++i) record_lambda.push_back(Real(i) + 0.5);
  const std::vector<std::uint64_t> contact_key = {7, 1, 42, 8, 1000, 3, 2000, 10};
  const int n = static_cast<int>(contact_key.size()), first_normal = 2, first_friction = first_normal + n;
  std::vector<Real> lambda(first_friction + 2 * n, 0), expected = lambda;
  const sim::WarmStartView w{record_key.data(), record_lambda.data(), static_cast<int>(record_key.size())};
  for (int c = 0; c < n; ++c) {
    sim::warm_start_contact(w, contact_key[c], c, first_normal, first_friction, lambda.data());
    const auto it = std::lower_bound(record_key.begin(), record_key.end(), contact_key[c]);
    if (it == record_key.end() || *it != contact_key[c]) continue;
    const std::size_t k = static_cast<std::size_t>(it - record_key.begin());
    expected[first_normal + c] = record_lambda[3 * k];
    expected[first_friction + 2 * c] = record_lambda[3 * k + 1];
    expected[first_friction + 2 * c + 1] = record_lambda[3 * k + 2];
  }
  CHECK(lambda == expected);
  CHECK(lambda[first_normal + 0] == 3.5);  // key 7: its first entry (index 1)
  CHECK(lambda[first_normal + 1] == 0);    // key 1: not in the record
  CHECK(lambda[first_friction + 2 * 4 + 1] == 17.5);  // key 1000: the last entry's λ_f2
  const sim::WarmStartView empty{nullptr, nullptr, 0};
  std::vector<Real> untouched(lambda.size(), 0);
  for (int c = 0; c < n; ++c) sim::warm_start_contact(empty, contact_key[c], c, first_normal, first_friction, untouched.data());
  CHECK(untouched == std::vector<Real>(lambda.size(), 0));
}

// ---- bit identity with the loops the kernels replaced ----------------------------------------

namespace {

// The loop bodies as they were before the kernel layer (solver/newton_solver.cpp, core/kinematics.cpp),
// kept here as the reference the kernels must reproduce to the bit.
void reference_setup(const sim::Model& m, Real h, const sim::State& st, const sim::Control& control,
                     std::vector<Mat3>& iw, std::vector<Mat3>& iw_inv, std::vector<Real>& ut,
                     std::vector<Real>& pim) {
  iw.resize(m.body_count);
  iw_inv.resize(m.body_count);
  ut.assign(m.dof_count(), -1);
  pim.assign(3 * m.particle_count, -1);
  const bool has_wrench = static_cast<int>(control.body_wrench.size()) == m.body_count;
  const bool has_pforce = static_cast<int>(control.particle_force.size()) == m.particle_count;
  for (int b = 0; b < m.body_count; ++b) {
    const Mat3 R = st.body_rotation(b).toRotationMatrix();
    iw[b] = R * m.body_inertia[b].asDiagonal() * R.transpose();
    iw_inv[b] = R * m.body_inv_inertia[b].asDiagonal() * R.transpose();
    Real* u = ut.data() + 6 * b;
    if (!m.body_is_dynamic(b)) {
      for (int k = 0; k < 6; ++k) u[k] = 0;
      continue;
    }
    const Vec3 v = st.body_velocity(b), w = st.body_angular_velocity(b);
    Vec3 force = m.gravity / m.body_inv_mass[b];
    // The default implicit gyroscopic step (checked against Euler's equations in
    // test_gyroscopic.cpp), the external torque added explicitly.
    REQUIRE(sim::SolverOptions{}.implicit_gyroscopic);
    Vec3 torque = Vec3::Zero();
    if (has_wrench) {
      force += control.body_wrench[b].head<3>();
      torque += control.body_wrench[b].tail<3>();
    }
    const Vec3 vt = v + h * m.body_inv_mass[b] * force;
    const Vec3 wt = sim::implicit_gyroscopic_step(w, iw[b], h) + h * (iw_inv[b] * torque);
    for (int k = 0; k < 3; ++k) {
      u[k] = vt[k];
      u[3 + k] = wt[k];
    }
  }
  for (int p = 0; p < m.particle_count; ++p) {
    const int dof = m.particle_dof(p);
    const Real im = m.particle_inv_mass[p];
    for (int k = 0; k < 3; ++k) {
      pim[3 * p + k] = im;
      const Real f = has_pforce ? control.particle_force[p][k] : Real(0);
      ut[dof + k] = im > 0 ? st.u[dof + k] + h * (m.gravity[k] + im * f) : Real(0);
    }
  }
}

void reference_integrate(const sim::Model& model, const Real* q0, const Real* u, Real h, Real* q_out) {
  for (int b = 0; b < model.body_count; ++b) {
    const Real* c0 = q0 + 7 * b;
    const Real* v = u + 6 * b;
    Real* c = q_out + 7 * b;
    for (int k = 0; k < 3; ++k) c[k] = c0[k] + h * v[k];
    const Quat th(c0[3], c0[4], c0[5], c0[6]);
    const Quat w(Real(0), v[3], v[4], v[5]);
    Quat dq = w * th;
    Quat next(th.w() + Real(0.5) * h * dq.w(), th.x() + Real(0.5) * h * dq.x(), th.y() + Real(0.5) * h * dq.y(),
              th.z() + Real(0.5) * h * dq.z());
    next.normalize();
    c[3] = next.w(); c[4] = next.x(); c[5] = next.y(); c[6] = next.z();
  }
  const int first_particle = 7 * model.body_count;
  const int pdof = 6 * model.body_count;
  for (int p = 0; p < model.particle_count; ++p)
    for (int k = 0; k < 3; ++k)
      q_out[first_particle + 3 * p + k] = q0[first_particle + 3 * p + k] + h * u[pdof + 3 * p + k];
}

void reference_momentum(const sim::Model& m, Real h, const std::vector<Real>& u, const std::vector<Real>& ut,
                        const std::vector<Mat3>& iw, const std::vector<Real>& f, std::vector<Real>& g) {
  g.assign(m.dof_count(), -1);
  for (int b = 0; b < m.body_count; ++b) {
    Real* gb = g.data() + 6 * b;
    if (!m.body_is_dynamic(b)) {
      for (int k = 0; k < 6; ++k) gb[k] = 0;
      continue;
    }
    const Real mass = Real(1) / m.body_inv_mass[b];
    const Real* ub = u.data() + 6 * b;
    const Real* utb = ut.data() + 6 * b;
    const Real* fb = f.data() + 6 * b;
    const Vec3 dw(ub[3] - utb[3], ub[4] - utb[4], ub[5] - utb[5]);
    const Vec3 i = iw[b] * dw;
    for (int k = 0; k < 3; ++k) {
      gb[k] = mass * (ub[k] - utb[k]) - h * fb[k];
      gb[3 + k] = i[k] - h * fb[3 + k];
    }
  }
  for (int p = 0; p < m.particle_count; ++p) {
    const int dof = m.particle_dof(p);
    const Real im = m.particle_inv_mass[p];
    for (int k = 0; k < 3; ++k) g[dof + k] = im > 0 ? (u[dof + k] - ut[dof + k]) / im - h * f[dof + k] : Real(0);
  }
}

void reference_apply_node(const sim::Model& m, const sim::InverseMass& im, int node, const Real* in, Real* out) {
  if (node < m.body_count) {
    const Real i = im.body_inv_mass[node];
    out[0] = i * in[0];
    out[1] = i * in[1];
    out[2] = i * in[2];
    const Mat3& ii = im.body_inv_inertia[node];
    const Vec3 w = ii * Vec3(in[3], in[4], in[5]);
    out[3] = w.x();
    out[4] = w.y();
    out[5] = w.z();
  } else {
    const int p = node - m.body_count;
    for (int k = 0; k < 3; ++k) out[k] = im.particle_inv_mass[3 * p + k] * in[k];
  }
}

void reference_geometric_stiffness(const sim::Model& m, const std::vector<Real>& g, const std::vector<Real>& g_prev,
                                   const std::vector<Real>& du_prev, std::vector<Real>& dof_shift,
                                   std::vector<Real>& particle_inv_mass) {
  const int first = 6 * m.body_count;
  for (int p = 0; p < m.particle_count; ++p) {
    const Real im = m.particle_inv_mass[p];
    if (!(im > 0)) continue;
    const Real mass = Real(1) / im;
    for (int k = 0; k < 3; ++k) {
      const int dof = first + 3 * p + k;
      const Real du = du_prev[dof];
      Real shift = dof_shift[3 * p + k];
      if (std::abs(du) > Real(1e-12)) {
        const Real c = -(g[dof] - g_prev[dof] - mass * du) / du;
        shift = -std::min(Real(0), c);
      }
      dof_shift[3 * p + k] = shift;
      particle_inv_mass[3 * p + k] = Real(1) / (mass + shift);
    }
  }
}

bool same_vector(const std::vector<Real>& a, const std::vector<Real>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

// Runs every kernel of a step on the model's state after `steps` steps (with pseudo-random
// wrenches and particle forces) and compares with the reference loops, with the parallel loops
// forced on (threshold 1) and off.
void check_bit_identity(const sim::Model& m, int steps) {
  sim::State st = sim::make_initial_state(m);
  sim::Workspace ws;
  test::run_steps(m, st, sim::make_initial_control(m), ws, steps);
  sim::Control control = sim::make_initial_control(m);
  control.body_wrench.resize(m.body_count);
  control.particle_force.resize(m.particle_count);
  unsigned seed = 12345;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<Real>((seed >> 8) % 2001) / 1000 - 1;  // [-1, 1]
  };
  for (auto& w : control.body_wrench)
    for (int k = 0; k < 6; ++k) w[k] = 3 * next();
  for (auto& f : control.particle_force)
    for (int k = 0; k < 3; ++k) f[k] = next();
  const Real h = m.dt;

  std::vector<Mat3> iw_ref, iw_inv_ref;
  std::vector<Real> ut_ref, pim_ref;
  reference_setup(m, h, st, control, iw_ref, iw_inv_ref, ut_ref, pim_ref);
  std::vector<Real> u_iter(m.dof_count()), f(m.dof_count());
  for (int i = 0; i < m.dof_count(); ++i) {
    u_iter[i] = st.u[i] + 0.1 * next();
    f[i] = 10 * next();
  }
  std::vector<Real> q_ref(m.coord_count());
  reference_integrate(m, st.q.data(), u_iter.data(), h, q_ref.data());
  std::vector<Real> g_ref;
  reference_momentum(m, h, u_iter, ut_ref, iw_ref, f, g_ref);

  const int saved = sim::parallel_threshold();
  for (int threshold : {1, saved}) {
    sim::parallel_threshold() = threshold;
    INFO("parallel threshold " << threshold);
    std::vector<Mat3> iw(m.body_count), iw_inv(m.body_count);
    std::vector<Real> ut(m.dof_count(), -1), pim(3 * m.particle_count, -1);
    const sim::BodyView bodies = sim::body_view(m);
    const sim::ParticleView particles = sim::particle_view(m);
    const sim::StateView start = sim::state_view(m, st);
    const sim::LoadView loads = sim::load_view(m, control, sim::SolverOptions{});
    const sim::BodyInertiaView inertia{iw.data(), iw_inv.data()};
    sim::parallel_for(m.body_count, [&](int b) {
      sim::body_world_inertia(bodies, start, b, inertia);
      sim::predict_body_velocity(bodies, start, loads, iw.data(), iw_inv.data(), h, b, ut.data());
    });
    sim::parallel_for(m.particle_count, [&](int p) {
      sim::predict_particle_velocity(particles, start, loads, h, p, ut.data(), pim.data());
    });
    int inertia_mismatches = 0;
    for (int b = 0; b < m.body_count; ++b)
      if (!same_bits(iw[b], iw_ref[b]) || !same_bits(iw_inv[b], iw_inv_ref[b])) ++inertia_mismatches;
    CHECK(inertia_mismatches == 0);
    CHECK(same_vector(ut, ut_ref));
    CHECK(same_vector(pim, pim_ref));

    std::vector<Real> q(m.coord_count());
    sim::integrate_positions(m, st.q.data(), u_iter.data(), h, q.data());
    CHECK(same_vector(q, q_ref));

    sim::Configuration c;
    c.assign(m, q.data());
    int pose_mismatches = 0;
    for (int b = 0; b < m.body_count; ++b) {
      const Real* cb = q_ref.data() + 7 * b;
      if (!same_bits(c.body_pose[b].pos, Vec3(cb[0], cb[1], cb[2])) ||
          !same_bits(c.body_pose[b].rot.coeffs(), Quat(cb[3], cb[4], cb[5], cb[6]).coeffs()))
        ++pose_mismatches;
    }
    for (int p = 0; p < m.particle_count; ++p)
      if (!same_bits(c.particle_position[p], Vec3(q_ref.data() + m.particle_coord(p)))) ++pose_mismatches;
    CHECK(pose_mismatches == 0);

    std::vector<Real> g(m.dof_count(), -1);
    const sim::MomentumView mv{u_iter.data(), ut_ref.data(), f.data(), iw_ref.data(), g.data()};
    sim::parallel_for(m.body_count, [&](int b) { sim::body_momentum_residual(bodies, mv, h, b); });
    sim::parallel_for(m.particle_count, [&](int p) { sim::particle_momentum_residual(particles, mv, m.body_count, h, p); });
    CHECK(same_vector(g, g_ref));

    // Geometric stiffness from two residuals and a step, some dofs below the 1e-12 threshold.
    std::vector<Real> g_prev(m.dof_count()), du(m.dof_count());
    for (int i = 0; i < m.dof_count(); ++i) {
      g_prev[i] = g_ref[i] + next();
      du[i] = i % 5 == 0 ? 1e-13 : 0.01 * next();
    }
    std::vector<Real> shift_ref(3 * m.particle_count), pim_gs_ref = pim_ref;
    for (std::size_t i = 0; i < shift_ref.size(); ++i) shift_ref[i] = 0.5 * (next() + 1);
    std::vector<Real> shift = shift_ref, pim_gs = pim_ref;
    reference_geometric_stiffness(m, g_ref, g_prev, du, shift_ref, pim_gs_ref);
    const sim::GeometricStiffnessView gv{g_ref.data(), g_prev.data(), du.data(), shift.data(), pim_gs.data()};
    sim::parallel_for(m.particle_count,
                      [&](int p) { sim::update_particle_geometric_stiffness(particles, gv, m.body_count, p); });
    CHECK(same_vector(shift, shift_ref));
    CHECK(same_vector(pim_gs, pim_gs_ref));

    // Collision frames at the step's start (collision/collide.cpp's loop before the kernels).
    std::vector<sim::Pose> frame(m.body_count);
    std::vector<Mat3> rotation_t(m.body_count);
    sim::parallel_for(m.body_count,
                      [&](int b) { sim::body_collision_frame(start, b, frame.data(), rotation_t.data()); });
    int frame_mismatches = 0;
    for (int b = 0; b < m.body_count; ++b) {
      sim::Pose p = st.body_pose(b);
      p.rot.normalize();
      const Mat3 rt = p.rot.toRotationMatrix().transpose();
      if (!same_bits(frame[b].pos, p.pos) || !same_bits(frame[b].rot.coeffs(), p.rot.coeffs()) ||
          !same_bits(rotation_t[b], rt))
        ++frame_mismatches;
    }
    CHECK(frame_mismatches == 0);

    // H⁻¹ per node through the InverseMass the solver holds.
    sim::InverseMass im;
    im.body_inv_mass = m.body_inv_mass;
    im.body_inv_inertia = iw_inv_ref;
    im.particle_inv_mass = pim_gs_ref;
    std::vector<Real> hinv(m.dof_count(), -1), hinv_ref(m.dof_count(), -2);
    const sim::InverseMassView iv = im.view(m);
    sim::parallel_for(m.body_count + m.particle_count, [&](int n) {
      const int dof = sim::node_dof_offset(m.body_count, n);
      sim::apply_inverse_mass(iv, n, g_ref.data() + dof, hinv.data() + dof);
    });
    for (int n = 0; n < m.body_count + m.particle_count; ++n) {
      const int dof = sim::node_dof_offset(m.body_count, n);
      reference_apply_node(m, im, n, g_ref.data() + dof, hinv_ref.data() + dof);
    }
    CHECK(same_vector(hinv, hinv_ref));
  }
  sim::parallel_threshold() = saved;
}

}  // namespace

TEST_CASE("the kernels reproduce the loops they replaced bit for bit on shipped scenes", "[unit][kernels]") {
  for (const char* name : {"table_pile", "cloth", "workcell", "pendulum", "rope", "friction_slalom"}) {
    INFO(name);
    auto spec = sim::load_scene_file(test::scene_path(name));
    REQUIRE(spec.ok());
    check_bit_identity(test::compile(*spec), 30);
  }
}

TEST_CASE("the kernels reproduce the loops they replaced bit for bit on a scene of our own", "[unit][kernels]") {
  // Bodies of unequal, rotated inertia, a fixed body, free and pinned particles.
  sim::SceneSpec spec;
  spec.dt = 1.0 / 97;
  spec.gravity = Vec3(0.4, -1.3, -9.7);
  spec.world_shapes.push_back(test::ground_plane());
  for (int i = 0; i < 7; ++i) {
    const int b = test::add_body(spec, "box" + std::to_string(i), Vec3(0.3 * i, 0.1 * i, 0.5 + 0.4 * i), 0.3 + i,
                                 test::box_shape(Vec3(0.05 + 0.01 * i, 0.1, 0.03 * (i + 1))));
    spec.bodies[b].pose.rot = Quat(Eigen::AngleAxis<Real>(0.3 * i, Vec3(1, i, 2).normalized()));
    spec.bodies[b].linear_velocity = Vec3(0.1 * i, -0.2, 0.3);
    spec.bodies[b].angular_velocity = Vec3(2.0 - i, 0.5 * i, 1.0);
  }
  spec.bodies[3].fixed = true;
  for (int i = 0; i < 5; ++i) {
    sim::ParticleSpec p;
    p.position = Vec3(2 + 0.2 * i, 0, 1 + 0.1 * i);
    p.mass = i == 2 ? 0 : 0.1 * (i + 1);
    p.radius = 0.02;
    spec.particles.push_back(p);
  }
  check_bit_identity(test::compile(spec), 20);
}

// ---- the row kinds, the friction cone and frame, the shape boxes -----------------------------

namespace {

struct RowCoverage {
  int scenes = 0, joints = 0, drives = 0, limits = 0, distances = 0, contacts = 0, round_cores = 0, faces = 0;
  int gaps_compared = 0;
};

void fill_nan(sim::RowSet& rows) {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  std::fill(rows.row_value.begin(), rows.row_value.end(), nan);
  std::fill(rows.entry_grad.begin(), rows.entry_grad.end(), sim::Vec6::Constant(nan));
}

bool same_rows(const sim::RowSet& a, const sim::RowSet& b, int& unwritten) {
  bool same = a.count == b.count && a.entry_count == b.entry_count;
  for (int r = 0; same && r < a.count; ++r) {
    same = same_bits(a.row_value[r], b.row_value[r]);
    if (std::isnan(a.row_value[r])) ++unwritten;
  }
  for (int e = 0; same && e < a.entry_count; ++e) {
    same = same_bits(a.entry_grad[e], b.entry_grad[e]);
    if (a.entry_grad[e].hasNaN()) ++unwritten;
  }
  return same;
}

// Every row of a step's contacts and the model's joints and distances at the step's start q⁻:
// evaluate_rows (the production path, parallel loops forced on and off) against the row kinds'
// kernels called one by one in plain loops, bit for bit, every row and entry written. C_n(q⁻) is
// the narrowphase's gap there (Contact::initial_gap), to round-off.
void check_row_kernels(const test::ShippedRun& run, RowCoverage& cover) {
  const sim::Model& m = run.model;
  const sim::Workspace& ws = run.ws;
  REQUIRE(m.solver.substeps == 1);  // ws.contacts were found at run.start
  const sim::State& start = run.start;
  const sim::ContactBuffer& contacts = ws.contacts;
  sim::RowSet rows;
  sim::assemble_rows(m, contacts, rows);
  sim::Configuration c;
  c.assign(m, start.q.data());
  std::vector<Real> reference(m.joint_count, std::numeric_limits<Real>::quiet_NaN());
  for (int j = 0; j < m.joint_count && j < static_cast<int>(start.joint_position.size()); ++j)
    reference[j] = start.joint_position[j] + 0.1 * std::sin(j);  // near, not at: the unwrapping runs

  // The kernels one by one.
  sim::RowSet direct = rows;
  fill_nan(direct);
  const sim::RowGradientView out = direct.gradient_view();
  const sim::ConfigurationView at = sim::configuration_view(c);
  const sim::JointView jv = sim::joint_view(m);
  for (int j = 0; j < m.joint_count; ++j) {
    const int first = rows.joint_bilateral_first[j];
    CHECK(sim::evaluate_joint_rows(jv, at, out, j, first) == rows.joint_bilateral_first[j + 1] - first);
    const bool drive = rows.joint_drive_first[j + 1] > rows.joint_drive_first[j];
    const bool limit = rows.joint_limit_first[j + 1] > rows.joint_limit_first[j];
    ++cover.joints;
    if (!drive && !limit) continue;
    sim::JointCoordinate jc = sim::joint_coordinate(jv, at, j);
    jc.value = sim::joint_position_near(m.joint_type[j], jc.value, reference[j]);
    if (drive) sim::evaluate_drive_row(jc, out, rows.first_drive + rows.joint_drive_first[j]), ++cover.drives;
    if (limit) sim::evaluate_limit_rows(jv, j, jc, out, rows.first_limit + rows.joint_limit_first[j]), ++cover.limits;
  }
  const sim::DistanceView dv = sim::distance_view(m);
  for (int i = 0; i < m.distance_count; ++i, ++cover.distances)
    sim::evaluate_distance_row(dv, at, out, i, rows.joint_bilateral_first[m.joint_count] + i);
  const sim::ContactModelView cm = sim::contact_model_view(m);
  int gap_mismatches = 0;
  for (int i = 0; i < contacts.size(); ++i, ++cover.contacts) {
    const sim::Contact& k = contacts.contacts[i];
    const sim::ContactPoints p = sim::contact_points(cm, at, k.a, k.b, k.shape_a, k.shape_b, k.normal);
    sim::evaluate_contact_normal_row(out, rows.row_bias.data(), rows.first_normal + i, k.a, k.b, k.normal, k.thickness, p);
    sim::evaluate_friction_rows(out, rows.first_friction + 2 * i, k.a, k.b, k.tangent1, k.tangent2, p);
    if (p.radii > 0) ++cover.round_cores;
    if (k.a.kind == sim::ContactSide::ParticleFace || k.b.kind == sim::ContactSide::ParticleFace) ++cover.faces;
    if (k.sdf_feature == sim::SdfFeature::None) {  // the SDF narrowphases' gaps are the fields' values
      ++cover.gaps_compared;
      const Real cn = direct.row_value[rows.first_normal + i];
      if (!(std::abs(cn - k.initial_gap) <= 1e-9 * (1 + std::abs(k.initial_gap)))) {
        ++gap_mismatches;
        UNSCOPED_INFO("contact " << i << ": C_n(q-) " << cn << " vs gap " << k.initial_gap);
      }
    }
  }
  CHECK(gap_mismatches == 0);

  // The production path, parallel and serial.
  const int saved = sim::parallel_threshold();
  for (int threshold : {1, saved}) {
    sim::parallel_threshold() = threshold;
    INFO("parallel threshold " << threshold);
    sim::RowSet production = rows;
    fill_nan(production);
    sim::evaluate_rows(m, contacts, c, reference, production);
    int unwritten = 0;
    CHECK(same_rows(production, direct, unwritten));
    CHECK(unwritten == 0);
  }
  sim::parallel_threshold() = saved;
  ++cover.scenes;
}

}  // namespace

TEST_CASE("the row kinds' kernels reproduce evaluate_rows bit for bit, C_n(q-) the narrowphase gap",
          "[unit][kernels]") {
  RowCoverage cover;
  for (const char* name : {"workcell", "fetch", "grasp", "pendulum", "rope", "cloth", "sdf_bowl", "scale",
                           "friction_texture", "table_pile"}) {
    INFO(name);
    check_row_kernels(test::ShippedRun(name, 25), cover);
  }
  // Cloth faces draped over an SDF bowl's rim: barycentric face contacts.
  check_row_kernels(test::ShippedRun(test::compile(test::particle_sheet_over_bowl(true)), 100), cover);
  INFO("joints " << cover.joints << ", drives " << cover.drives << ", limits " << cover.limits << ", distances "
                 << cover.distances << ", contacts " << cover.contacts << ", round cores " << cover.round_cores
                 << ", face contacts " << cover.faces << ", gaps " << cover.gaps_compared);
  CHECK(cover.drives > 0);
  CHECK(cover.limits > 0);
  CHECK(cover.distances > 0);
  CHECK(cover.round_cores > 0);
  CHECK(cover.faces > 0);
  CHECK(cover.gaps_compared > 100);
}

TEST_CASE("friction projection kernel: radial onto the disc, nearest point of the ellipse", "[unit][kernels]") {
  // Rows: normals [0, n), friction pairs [n, 3n).
  const int n = 6;
  std::vector<Real> lambda = {2, 2, -1, 2, 2, 0,  // λ_n
                              3, 4, 0.5, -0.5, 1, 1, 0.3, 0.4, 1, -2, 0.2, 0.1};
  const Real mu[n] = {0.5, 0.5, 0.5, 0.8, 0.8, 0.8};
  const Real mu_b[n] = {0.5, 0.5, 0.5, 0.2, 0.2, 0.2};
  const bool aniso[n] = {false, false, false, true, true, true};
  std::vector<Real> out = lambda;
  for (int c = 0; c < n; ++c) sim::project_contact_friction(out.data(), 0, n, c, mu[c], mu_b[c], aniso[c]);
  for (int c = 0; c < n; ++c) {
    INFO("contact " << c);
    const Real ln = std::max(Real(0), lambda[c]);
    const sim::Vec2 z(lambda[n + 2 * c], lambda[n + 2 * c + 1]), x(out[n + 2 * c], out[n + 2 * c + 1]);
    CHECK(out[c] == lambda[c]);  // λ_n untouched
    if (!aniso[c]) {
      // Inside: unchanged; outside: z scaled onto the circle of radius μ max(λ_n, 0).
      if (z.norm() <= mu[c] * ln) CHECK((x - z).norm() == 0);
      else {
        CHECK(x.norm() == Approx(mu[c] * ln).margin(1e-15));
        CHECK(std::abs(x.x() * z.y() - x.y() * z.x()) < 1e-15);  // parallel to z
      }
      continue;
    }
    const Real a = mu[c] * ln, b = mu_b[c] * ln;
    const Real inside = (a > 0 ? x.x() * x.x() / (a * a) : 0) + (b > 0 ? x.y() * x.y() / (b * b) : 0);
    if (ln == 0) { CHECK(x.norm() == 0); continue; }
    CHECK(inside <= 1 + 1e-12);
    // No point of the ellipse is nearer to z than x (1e5 samples of its boundary).
    Real nearest = (z - x).norm();
    for (int k = 0; k < 100000; ++k) {
      const Real t = 2 * 3.14159265358979323846 * k / 100000;
      nearest = std::min(nearest, (z - sim::Vec2(a * std::cos(t), b * std::sin(t))).norm());
    }
    CHECK((z - x).norm() <= nearest + 1e-9);
  }
}

TEST_CASE("contact friction frame kernel: orthonormal right-handed bases, the disc to the bit", "[unit][kernels]") {
  // Isotropic objects through the collision stage's set_contact_friction: the kernel's disc.
  sim::Model empty;
  sim::detail::CollisionObject a, b;
  a.friction = 0.3;
  b.friction = 0.7;
  for (const Vec3& n : {Vec3(0, 0, 1), Vec3(0, 0, -1), Vec3(1, 2, 3).normalized(), Vec3(-0.3, 0.1, -0.9).normalized()}) {
    sim::Contact c;
    c.normal = n;
    sim::detail::set_contact_friction(empty, a, Vec3::Zero(), b, Vec3::Zero(), c);
    const sim::ContactFrictionFrame f = sim::isotropic_friction_frame(n, std::sqrt(0.3 * 0.7));
    CHECK(same_bits(c.tangent1, f.tangent1));
    CHECK(same_bits(c.tangent2, f.tangent2));
    CHECK(same_bits(c.friction, f.friction));
    CHECK(!c.anisotropic);
    CHECK(std::abs(f.tangent1.dot(n)) < 1e-15);
    CHECK((f.tangent1.cross(f.tangent2) - n).norm() < 1e-15);
  }
  // Equal coefficients: the disc whatever the grains (eq. 34 skipped).
  const sim::FrictionCoefficients equal{0.4, 0.4, 0.4};
  const sim::ContactFrictionFrame e = sim::contact_friction_frame(Vec3::UnitZ(), equal, Vec3::UnitX(), Vec3::UnitY());
  CHECK(!e.anisotropic);
  CHECK(e.friction == 0.4);
  CHECK(same_bits(e.tangent1, sim::isotropic_friction_frame(Vec3::UnitZ(), 0.4).tangent1));
  // Aligned grains in the plane: the major axis along them, μ_t = μ_major, μ_b = μ_minor (eq. 34, d = 1).
  const sim::FrictionCoefficients k{0.5, 0.9, 0.2};
  const Vec3 n = Vec3(0.1, -0.2, 1).normalized();
  const Vec3 grain = Vec3(1, 1, 0).normalized();
  const sim::ContactFrictionFrame g = sim::contact_friction_frame(n, k, grain, -grain);
  CHECK(g.anisotropic);
  CHECK(g.grain_alignment == Approx(1).margin(1e-7));
  CHECK(g.friction == Approx(0.9).margin(1e-6));
  CHECK(g.friction_bitangent == Approx(0.2).margin(1e-6));
  const Vec3 in_plane = (grain - grain.dot(n) * n).normalized();
  CHECK(std::abs(std::abs(g.tangent1.dot(in_plane)) - 1) < 1e-12);
  CHECK((g.tangent1.cross(g.tangent2) - n).norm() < 1e-12);
  // A grain along the normal has no direction in the plane: the disc of μ.
  const sim::ContactFrictionFrame none = sim::contact_friction_frame(n, k, n, Vec3::Zero());
  CHECK(!none.anisotropic);
  CHECK(none.friction == 0.5);
  // The contacts of a shipped anisotropic scene: every frame orthonormal and right-handed about n.
  const test::ShippedRun run("friction_slalom", 20);
  const sim::ContactBuffer& contacts = run.ws.contacts;
  int anisotropic = 0, bad = 0;
  for (const sim::Contact& c : contacts.contacts) {
    anisotropic += c.anisotropic ? 1 : 0;
    if (std::abs(c.tangent1.dot(c.normal)) > 1e-12 || std::abs(c.tangent1.norm() - 1) > 1e-12 ||
        (c.tangent1.cross(c.tangent2) - c.normal).norm() > 1e-12)
      ++bad;
  }
  CHECK(contacts.size() > 0);
  CHECK(anisotropic > 0);
  CHECK(bad == 0);
}

namespace {

// Points on the surface of a shape in its frame (z the axis of capsules and cylinders).
std::vector<Vec3> surface_samples(const sim::ShapeExtent& e) {
  std::vector<Vec3> out;
  const Real pi = 3.14159265358979323846;
  for (int i = 0; i <= 120; ++i)
    for (int j = 0; j < 240; ++j) {
      const Real th = pi * i / 120, ph = 2 * pi * j / 240;
      const Vec3 d(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th));
      switch (e.type) {
        case sim::ShapeType::Sphere: out.push_back(e.radius * d); break;
        case sim::ShapeType::Capsule: out.push_back(e.radius * d + Vec3(0, 0, d.z() >= 0 ? e.half_length : -e.half_length)); break;
        case sim::ShapeType::Box: out.push_back(d.cwiseSign().cwiseProduct(e.half_extents)); break;
        case sim::ShapeType::Ellipsoid: out.push_back(d.cwiseProduct(e.half_extents)); break;
        case sim::ShapeType::Cylinder:
          out.push_back(Vec3(e.radius * std::cos(ph), e.radius * std::sin(ph), (i % 2 ? 1 : -1) * e.half_length));
          break;
        default: break;
      }
    }
  if (e.type == sim::ShapeType::Box)  // the corners
    for (int k = 0; k < 8; ++k)
      out.push_back(Vec3(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1).cwiseProduct(e.half_extents));
  return out;
}

}  // namespace

TEST_CASE("shape box kernel: the tight box of the surface, grown, and the broadphase's boxes", "[unit][kernels]") {
  const sim::Pose pose{Vec3(0.3, -1, 2), Quat(Eigen::AngleAxis<Real>(0.9, Vec3(1, -2, 0.5).normalized()))};
  const Real grow = 0.01;
  for (sim::ShapeType type : {sim::ShapeType::Sphere, sim::ShapeType::Capsule, sim::ShapeType::Box,
                              sim::ShapeType::Cylinder, sim::ShapeType::Ellipsoid}) {
    INFO("shape type " << static_cast<int>(type));
    sim::ShapeExtent e;
    e.type = type;
    e.radius = 0.2;
    e.half_length = 0.35;
    e.half_extents = Vec3(0.1, 0.4, 0.25);
    const sim::detail::Aabb box = sim::shape_world_box(e, pose, grow);
    Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
    for (const Vec3& p : surface_samples(e)) {
      const Vec3 w = pose.apply(p);
      lo = lo.cwiseMin(w);
      hi = hi.cwiseMax(w);
    }
    // Contains every sample with the growth to spare, and is tight: the samples reach within 1e-3
    // of each face (the sampling's resolution).
    CHECK(((box.lo + Vec3::Constant(grow)) - lo).maxCoeff() <= 1e-12);
    CHECK((hi - (box.hi - Vec3::Constant(grow))).maxCoeff() <= 1e-12);
    CHECK((lo - (box.lo + Vec3::Constant(grow))).maxCoeff() < 1e-3);
    CHECK(((box.hi - Vec3::Constant(grow)) - hi).maxCoeff() < 1e-3);
  }
  // The collision stage's boxes of a shipped scene: each the kernel's tight box grown by one amount
  // on all six sides.
  for (const char* name : {"workcell", "table_pile", "sdf_bowl"}) {
    INFO(name);
    const test::ShippedRun run(name, 5);
    const sim::Model& m = run.model;
    REQUIRE(run.ws.collision);
    const sim::detail::CollisionScratch& sc = *run.ws.collision;
    int compared = 0, bad = 0;
    for (int s = 0; s < m.shape_count; ++s) {
      const sim::ShapeType type = m.shape_type[s];
      if (type == sim::ShapeType::Plane || type == sim::ShapeType::ConvexMesh) continue;
      sim::ShapeExtent e{type, m.shape_radius[s], m.shape_half_length[s], m.shape_half_extents[s]};
      const sim::detail::Aabb tight = sim::shape_world_box(e, sc.objects[s].pose, 0);
      const Vec3 g_lo = tight.lo - sc.boxes[s].lo, g_hi = sc.boxes[s].hi - tight.hi;
      const Real g = g_lo.x();
      if (!(g >= 0) || (g_lo - Vec3::Constant(g)).cwiseAbs().maxCoeff() > 1e-12 ||
          (g_hi - Vec3::Constant(g)).cwiseAbs().maxCoeff() > 1e-12)
        ++bad;
      ++compared;
    }
    CHECK(compared > 0);
    CHECK(bad == 0);
  }
}
