// Soft-body actuation (issue 14 item 5): a volumetric active stress per tet group, driven by
// Control::soft_pressure, as a shift of the hydrostatic row's target (kernels/tet_row_kernel.hpp).
// A free cube under pressure p settles at the volume the model's closed form gives (co-rotational
// s − 1 = p/(2μ + 3λ); stable Neo-Hookean μ/s + λ(s³ − α) = p, at F = s I); tets outside the
// group do not expand; the scene XML's <group> selects tets by a box and the control starts at its
// pressure; a session whose pressure changes every step replays bit for bit from its recording;
// particles attached to a moving body follow it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "sim/recording.hpp"
#include "sim/scene_io.hpp"
#include "sim/soft_body.hpp"
#include "sim/step.hpp"
#include "support/scene_builders.hpp"
#include "support/scoped_resources.hpp"
#include "support/soft_body_measures.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// A 0.1 m cube of 2 x 2 x 2 cells, no gravity, its tets in group 0 (pressure p) or, with `half`,
// only those with x > 0.
sim::SceneSpec pressurised_cube(sim::SoftModel model, sim::SoftCompliance compliance, Real pressure, bool half = false) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 120;
  spec.gravity = Vec3::Zero();
  spec.solver.linear_iterations = 40;
  spec.solver.newton_iterations = 8;
  spec.solver.newton_tolerance = 1e-9;
  spec.solver.newton_velocity_tolerance = 1e-9;
  sim::SoftMaterialSpec m;
  m.model = model;
  m.compliance = compliance;
  m.youngs_modulus = 1e5;
  m.poisson_ratio = 0.3;
  m.damping = 0.01;
  std::string error;
  const sim::TetMesh mesh = sim::box_tet_mesh(Vec3(0.1, 0.1, 0.1), 2, 2, 2);
  REQUIRE(sim::add_soft_body(spec, mesh, m, {}, "cube", error) == 0);
  spec.soft_groups.push_back(sim::SoftGroupSpec{"all", pressure, {}});
  std::vector<int>& group = spec.soft_bodies[0].tet_group;
  for (const auto& t : mesh.tets) {
    const Real cx = (mesh.points[t[0]].x() + mesh.points[t[1]].x() + mesh.points[t[2]].x() + mesh.points[t[3]].x()) / 4;
    group.push_back(!half || cx > 0 ? 0 : -1);
  }
  return spec;
}

void run(const sim::Model& m, sim::State& s, const sim::Control& c, int steps) {
  sim::Workspace ws;
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(m, s, c, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());  // kStepNotConverged is a warning bit (its value is kStepNonFinite as a flag)
  }
}

// The stretch s of the free cube at equilibrium under p (F = s I), from the model's own μ, λ.
Real equilibrium_stretch(sim::SoftModel model, Real mu, Real lambda, Real p) {
  if (model == sim::SoftModel::Corotational) return 1 + p / (2 * mu + 3 * lambda);
  const Real alpha = 1 + mu / lambda;
  Real s = 1;
  for (int i = 0; i < 50; ++i) {  // Newton on f(s) = μ/s + λ(s³ − α) − p
    const Real f = mu / s + lambda * (s * s * s - alpha) - p, df = -mu / (s * s) + 3 * lambda * s * s;
    s -= f / df;
  }
  return s;
}

}  // namespace

TEST_CASE("a free cube under active pressure reaches the volume of the model's closed form", "[scene][fem][actuation]") {
  for (const auto model : {sim::SoftModel::NeoHookean, sim::SoftModel::Corotational})
    for (const auto compliance : {sim::SoftCompliance::Full})  // diagonal: the same Ψ (FD-checked in test_row_jacobians)
      for (const Real p : {Real(2e4), Real(-1e4)}) {
        const sim::Model m = test::compile(pressurised_cube(model, compliance, p));
        REQUIRE(m.soft_group_count == 1);
        sim::State s = sim::make_initial_state(m);
        const sim::Control c = sim::make_initial_control(m);
        REQUIRE(c.soft_pressure.size() == 1);
        REQUIRE(c.soft_pressure[0] == p);
        run(m, s, c, 60);
        const Real stretch = equilibrium_stretch(model, m.tet_mu[0], m.tet_lambda[0], p);
        const Real expected = stretch * stretch * stretch;
        Real smallest = 0;
        const Real ratio = test::body_volume(m, s, &smallest) / test::rest_volume(m);
        std::printf("active pressure %+.0f Pa, %s, %s: volume ratio %.5f, closed form %.5f (stretch %.5f)\n", p,
                    model == sim::SoftModel::NeoHookean ? "Neo-Hookean" : "co-rotational",
                    compliance == sim::SoftCompliance::Full ? "full" : "diagonal", ratio, expected, stretch);
        INFO("model " << static_cast<int>(model) << " compliance " << static_cast<int>(compliance) << " p " << p);
        CHECK(ratio == Approx(expected).epsilon(1e-3));
        CHECK(std::abs(ratio - 1) > 0.05);  // the pressure did something (a 0 shift would fail above)
        // A uniform hydrostatic state: every tet at the same ratio (the patch test's uniform strain).
        for (int t = 0; t < m.tet_count; ++t)
          CHECK(test::body_volume(m, s, nullptr, t, t + 1) / m.tet_volume[t] == Approx(expected).epsilon(2e-3));
      }
}

TEST_CASE("only the group's tets expand, and the pressure follows the control every step", "[scene][fem][actuation]") {
  const sim::Model m = test::compile(pressurised_cube(sim::SoftModel::NeoHookean, sim::SoftCompliance::Full, 3e4, true));
  sim::State s = sim::make_initial_state(m);
  sim::Control c = sim::make_initial_control(m);
  run(m, s, c, 120);
  Real grouped = 0, rest_grouped = 0, other = 0, rest_other = 0;
  for (int t = 0; t < m.tet_count; ++t) {
    const Real v = test::body_volume(m, s, nullptr, t, t + 1);
    (m.tet_group[t] == 0 ? grouped : other) += v;
    (m.tet_group[t] == 0 ? rest_grouped : rest_other) += m.tet_volume[t];
  }
  std::printf("half-pressurised cube: group volume ratio %.4f, the rest %.4f\n", grouped / rest_grouped, other / rest_other);
  CHECK(grouped / rest_grouped > 1.1);
  CHECK(other / rest_other < grouped / rest_grouped - 0.05);
  // Back to zero pressure: the body returns to its rest volume.
  c.soft_pressure[0] = 0;
  run(m, s, c, 120);
  CHECK(test::body_volume(m, s) / test::rest_volume(m) == Approx(1).epsilon(1e-3));
}

TEST_CASE("<softbody><group> selects tets by a box and shares a group by name, and <attach> pins particles to a body",
          "[scene][fem][actuation][io]") {
  const std::string xml = R"(<scene gravity="0 0 -9.81">
  <body name="holder" pos="0 0 1" mass="1"><box size="0.1 0.1 0.02"/></body>
  <joint name="lift" type="prismatic" parent="world" child="holder" pos="0 0 1" axis="0 0 1">
    <drive mode="position" stiffness="20000" damping="400" target="0"/>
  </joint>
  <softbody name="a" box="0.02 0.02 0.1" divisions="1 1 4" pos="0 0 0.93" E="1e5" nu="0.3" damping="0.01">
    <group name="chamber" min="0 -1 -1" max="1 1 1" pressure="500"/>
    <attach body="holder" min="-1 -1 0.049" max="1 1 1"/>
  </softbody>
  <softbody name="b" box="0.02 0.02 0.1" divisions="1 1 4" pos="0.2 0 0.93" E="1e5" nu="0.3">
    <group name="chamber" min="0 -1 -1" max="1 1 1"/>
  </softbody>
</scene>)";
  auto spec = sim::parse_scene_xml(xml, "inline.xml");
  INFO((spec.ok() ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  REQUIRE(spec->soft_groups.size() == 1);
  CHECK(spec->soft_groups[0].pressure == 500);
  for (const sim::SoftBodySpec& b : spec->soft_bodies) {
    REQUIRE(b.tet_group.size() == b.tets.size());
    const auto in = std::count(b.tet_group.begin(), b.tet_group.end(), 0);
    CHECK(in > 0);
    CHECK(in < static_cast<long>(b.tets.size()));
  }
  REQUIRE(spec->attachments.size() == 4);  // the top face's 2 x 2 particles
  const sim::Model m = test::compile(*spec);
  CHECK(sim::make_initial_control(m).soft_pressure == std::vector<Real>{500});
  // The writer keeps groups and attachments.
  auto back = sim::parse_scene_xml(sim::write_scene_xml(*spec), "inline.xml");
  INFO((back.ok() ? std::string() : back.error()));
  REQUIRE(back.ok());
  CHECK(back->soft_groups.size() == 1);
  CHECK(back->soft_bodies[0].tet_group == spec->soft_bodies[0].tet_group);
  REQUIRE(back->attachments.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(back->attachments[i].particle == spec->attachments[i].particle);
    CHECK((back->attachments[i].local_point - spec->attachments[i].local_point).norm() < 1e-15);
  }
  // Refused with the element's line: a box that selects nothing, an unknown body.
  auto empty_group = sim::parse_scene_xml("<scene>\n<softbody box=\"0.1 0.1 0.1\">\n"
                                          "  <group name=\"g\" min=\"1 1 1\" max=\"2 2 2\"/>\n</softbody>\n</scene>",
                                          "bad.xml");
  REQUIRE_FALSE(empty_group.ok());
  CHECK_THAT(empty_group.error(), Catch::Contains("bad.xml:3") && Catch::Contains("no tet's centroid"));
  auto unknown_body = sim::parse_scene_xml("<scene>\n<softbody box=\"0.1 0.1 0.1\">\n"
                                           "  <attach body=\"nobody\" min=\"-1 -1 -1\" max=\"1 1 1\"/>\n</softbody>\n</scene>",
                                           "bad.xml");
  REQUIRE_FALSE(unknown_body.ok());
  CHECK_THAT(unknown_body.error(), Catch::Contains("bad.xml:3") && Catch::Contains("nobody"));
  // Hanging from the holder, which the drive raises by 0.1 m: the attached particles follow it.
  sim::State s = sim::make_initial_state(m);
  sim::Control c = sim::make_initial_control(m);
  c.soft_pressure[0] = 0;
  sim::Workspace ws;
  for (int i = 0; i < 240; ++i) {
    c.joint_target[0] = std::min(Real(0.1), Real(0.1) * i / 120);
    REQUIRE(sim::step(m, s, c, ws).ok());
  }
  const sim::Pose holder = s.body_pose(0);
  Real worst = 0;
  for (const sim::ParticleAttachmentSpec& a : spec->attachments)
    worst = std::max(worst, (test::particle(m, s, a.particle) - (holder * m.body_frame_in_com[0]).apply(a.local_point)).norm());
  const Real lowest_b = test::particle(m, s, spec->soft_bodies[1].tets[0][0]).z();
  std::printf("attached soft finger lifted 0.1 m with its holder: attachment error %.3g m\n", worst);
  CHECK(holder.pos.z() == Approx(1.1).margin(0.005));
  CHECK(worst < 1e-4);
  CHECK(test::particle(m, s, spec->attachments[0].particle).z() > 1.05);
  CHECK(lowest_b < 0.9);  // the unattached body fell
}

TEST_CASE("a session with changing active pressure replays bit for bit from its recording", "[scene][fem][actuation][recording]") {
  const sim::Model m = test::compile(pressurised_cube(sim::SoftModel::NeoHookean, sim::SoftCompliance::Full, 0, true));
  sim::State s = sim::make_initial_state(m);
  sim::Recording rec;
  rec.begin("cube", m, m.solver, s);
  sim::Workspace ws;
  for (int i = 0; i < 60; ++i) {
    sim::Control c = sim::make_initial_control(m);
    c.soft_pressure[0] = 2e4 * std::sin(0.1 * i);
    rec.record(c);
    REQUIRE(sim::step(m, s, c, ws).ok());
  }
  rec.final_hash = sim::state_hash(s);
  test::TempDir dir("coulomb-soft-recording");
  const std::string path = (dir.path / "session.rec").string();
  REQUIRE(sim::save_recording(rec, path).ok());
  auto loaded = sim::load_recording(path);
  INFO((loaded.ok() ? std::string() : loaded.error()));
  REQUIRE(loaded.ok());
  REQUIRE(loaded->controls.size() == 60);
  CHECK(loaded->controls[17].soft_pressure == rec.controls[17].soft_pressure);
  sim::State replay = loaded->initial;
  sim::Workspace ws2;
  for (const sim::Control& c : loaded->controls) REQUIRE(sim::step(m, replay, c, ws2).ok());
  CHECK(sim::state_hash(replay) == loaded->final_hash);
  // Without the pressures (as a version 2 recording would replay) the session ends elsewhere.
  sim::State without = loaded->initial;
  sim::Workspace ws3;
  for (sim::Control c : loaded->controls) {
    c.soft_pressure.clear();
    REQUIRE(sim::step(m, without, c, ws3).ok());
  }
  CHECK(sim::state_hash(without) != loaded->final_hash);
}


namespace {

// A free strip (0.02 x 0.02 x `length` m, n x n x 4n cells, no gravity) whose x > 0 half is in a
// pressure group: the bilayer of a PneuNet finger.
struct Bilayer {
  sim::TetMesh mesh;
  sim::Model model;
};

Bilayer bilayer_strip(int n, Real pressure) {
  sim::SceneSpec spec;
  spec.dt = Real(1) / 120;
  spec.gravity = Vec3::Zero();
  spec.solver.linear_iterations = 60;
  spec.solver.newton_iterations = 16;
  sim::SoftMaterialSpec m;
  m.model = sim::SoftModel::NeoHookean;
  m.compliance = sim::SoftCompliance::Full;
  m.youngs_modulus = 1e5;
  m.poisson_ratio = 0.3;
  m.density = 1200;
  m.damping = 0.02;
  Bilayer out;
  out.mesh = sim::box_tet_mesh(Vec3(0.02, 0.02, 0.1), n, n, 4 * n);
  std::string error;
  REQUIRE(sim::add_soft_body(spec, out.mesh, m, {}, "strip", error) == 0);
  spec.soft_groups.push_back(sim::SoftGroupSpec{"half", pressure, {}});
  for (const auto& t : out.mesh.tets) {
    Real cx = 0;
    for (int k = 0; k < 4; ++k) cx += out.mesh.points[t[k]].x() / 4;
    spec.soft_bodies[0].tet_group.push_back(cx > 0 ? 0 : -1);
  }
  out.model = test::compile(spec);
  return out;
}

// The mean of the particles on the strip's cross-section at rest height z, now.
Vec3 section_centroid(const Bilayer& b, const sim::State& s, Real z) {
  Vec3 c = Vec3::Zero();
  int n = 0;
  for (int p = 0; p < b.model.particle_count; ++p)
    if (std::abs(b.mesh.points[p].z() - z) < 1e-9) {
      c += test::particle(b.model, s, p);
      ++n;
    }
  return c / Real(n);
}

}  // namespace

// Timoshenko's bimetal strip (J. Opt. Soc. Am. 11, 1925): two bonded layers of equal thickness and
// modulus with a mismatch strain ε bend to the curvature κ = 3ε / (2h), h the total thickness.
// Here the x > 0 half expands freely by ε = s − 1 (the free cube's closed form above) at a small
// pressure. The mesh is symmetric under y → −y, so the strip must not move sideways; it must bend
// away from the expanded side, and its curvature approach κ under refinement. (With one Kuhn
// pattern for every cell the mesh was chiral: the strip twisted sideways as much as it bent and
// the PneuNet fingers curled round the palm's axis, missing the ball.)
TEST_CASE("a strip expanded on one half bends like Timoshenko's bimetal strip, in its plane of symmetry",
          "[scene][fem][actuation]") {
  const Real h = 0.02, length = 0.1, p = 1e3;
  Real previous_error = 1e9;
  for (const int n : {2, 4}) {
    const Bilayer b = bilayer_strip(n, p);
    sim::State s = sim::make_initial_state(b.model);
    const sim::Control c = sim::make_initial_control(b.model);
    run(b.model, s, c, 120);
    const Real epsilon = equilibrium_stretch(sim::SoftModel::NeoHookean, b.model.tet_mu[0], b.model.tet_lambda[0], p) - 1;
    const Real kappa = 3 * epsilon / (2 * h);
    // The sagitta of the centre line: its middle against the chord of its ends; κ = 8 sagitta / L².
    const Vec3 top = section_centroid(b, s, length / 2), bottom = section_centroid(b, s, -length / 2);
    const Vec3 middle = section_centroid(b, s, 0);
    const Vec3 sagitta = middle - (top + bottom) / 2;
    const Real chord = (top - bottom).norm();
    const Real measured = 8 * sagitta.x() / (chord * chord);
    const Real error = std::abs(measured / kappa - 1);
    std::printf("bilayer strip %d x %d x %d cells: curvature %.4f 1/m, Timoshenko %.4f 1/m (eps %.2e): %.1f %% off; "
                "sideways sagitta %.1e m\n",
                n, n, 4 * n, measured, kappa, epsilon, 100 * error, sagitta.y());
    CHECK(epsilon > 1e-3);
    CHECK(std::abs(sagitta.y()) < 1e-6 * std::abs(sagitta.x()));  // no sideways bend or twist
    CHECK(std::abs(top.y() - bottom.y()) < 1e-9);
    CHECK(sagitta.x() > 0);       // convex on the expanded side: the ends curl towards −x
    CHECK(error < previous_error);  // converging under refinement
    previous_error = error;
  }
  CHECK(previous_error < 0.15);
}
