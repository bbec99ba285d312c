// The shipped anisotropic-friction scenes (after the thesis's Figs. 6-9) do what they are for:
// the channel gathers its crates in the band, the spread scatters them, the slalom crate follows
// its wave, the grooves steer the logs, the stroked sheet resists along its grain μ_major/μ_minor
// times more than across it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>
#include <string>

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/shipped_scenes.hpp"

using sim::Real;
using sim::Vec3;

namespace {

struct SceneRun {
  sim::Model model;
  sim::State state;
  sim::Workspace ws;
};

template <class AfterStep = void (*)(const SceneRun&)>
SceneRun load_and_run(const std::string& name, Real seconds, AfterStep&& after_step = [](const SceneRun&) {}) {
  auto spec = sim::load_scene_file(test::scene_path(name));
  INFO((spec ? std::string() : spec.error()));
  REQUIRE(spec.ok());
  auto model = sim::compile_model(spec.value());
  INFO((model ? std::string() : model.error()));
  REQUIRE(model.ok());
  SceneRun r{std::move(model.value()), {}, {}};
  r.state = sim::make_initial_state(r.model);
  const sim::Control control = sim::make_initial_control(r.model);
  const int steps = static_cast<int>(std::lround(seconds / r.model.dt));
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport report = sim::step(r.model, r.state, control, r.ws);
    INFO(name << " step " << i << ": " << report.message);
    REQUIRE(report.ok());
    after_step(r);
  }
  return r;
}

}  // namespace

TEST_CASE("the channel scene gathers all crates inside its band", "[scene][friction][anisotropic]") {
  SceneRun r = load_and_run("friction_channel", 4.0);
  // Without the grain (isotropic μ 0.5) they would keep their lanes: y unchanged.
  Real innermost = 1;
  for (int b = 0; b < r.model.body_count; ++b) {
    const Vec3 x = r.state.body_position(b);
    INFO(r.model.body_name[b] << " rests at " << x.transpose());
    CHECK(std::abs(x.y()) < 0.25);  // the channel's width; started at |y| 0.25 .. 0.9 (3.6 widths)
    CHECK(x.x() - r.model.body_initial_pose[b].pos.x() > 1.0);  // and slid forward
    CHECK(r.state.body_velocity(b).norm() < 1e-3);
    innermost = std::min(innermost, std::abs(x.y()));
  }
  CHECK(innermost < 0.01);  // the ones launched nearer than 2 widths end on the centre line
}

TEST_CASE("the spread scene fans its crates out from the centre line", "[scene][friction][anisotropic]") {
  SceneRun r = load_and_run("friction_spread", 4.0);
  for (int b = 0; b < r.model.body_count; ++b) {
    const Real y0 = r.model.body_initial_pose[b].pos.y();
    const Vec3 x = r.state.body_position(b);
    INFO(r.model.body_name[b] << " from y " << y0 << " rests at " << x.transpose());
    CHECK(x.y() * y0 > 0);                         // on its own side
    CHECK(std::abs(x.y()) > 2.5 * std::abs(y0));   // much further out (started at 0.05 .. 0.2)
    CHECK(r.state.body_velocity(b).norm() < 1e-3);
  }
}

TEST_CASE("the slalom scene's crates weave along their waves", "[scene][friction][anisotropic]") {
  // Flow lines y = c + a sin(k x), a = 0.15, k = 2π/3: each crate stays within a fraction of the
  // amplitude of its wave while it crosses at least one full period.
  const Real a = 0.3, k = 2 * std::numbers::pi / 6;
  std::vector<Real> worst(3, 0), y_min(3, 1e9), y_max(3, -1e9);
  SceneRun r = load_and_run("friction_slalom", 4.0, [&](const SceneRun& s) {
    for (int b = 0; b < s.model.body_count; ++b) {
      const Vec3 x = s.state.body_position(b);
      const Real c = s.model.body_initial_pose[b].pos.y();
      worst[b] = std::max(worst[b], std::abs(x.y() - (c + a * std::sin(k * x.x()))));
      y_min[b] = std::min(y_min[b], x.y() - c);
      y_max[b] = std::max(y_max[b], x.y() - c);
    }
  });
  for (int b = 0; b < r.model.body_count; ++b) {
    const Vec3 x = r.state.body_position(b);
    INFO(r.model.body_name[b] << " rests at " << x.transpose() << ", worst distance from its wave " << worst[b]
                              << ", y swing " << y_min[b] << " .. " << y_max[b]);
    CHECK(x.x() > 3.0);            // at least a full wavelength
    CHECK(worst[b] < 0.25 * a);    // on its wave
    CHECK(y_max[b] > 0.8 * a);     // and weaving: up to the crest
    CHECK(y_min[b] < -0.8 * a);    // and down to the trough
  }
}

TEST_CASE("the grooved slope steers its logs along the grooves", "[scene][friction][anisotropic]") {
  // Slope 25° about x (normal (0, −sin 25°, cos 25°)), grooves 35° off the fall line towards +x.
  const Real th = 25 * std::numbers::pi / 180;
  const Vec3 normal(0, -std::sin(th), std::cos(th));
  const Vec3 fall(0, -std::cos(th), -std::sin(th));
  const Vec3 groove = std::cos(35 * std::numbers::pi / 180) * fall + std::sin(35 * std::numbers::pi / 180) * normal.cross(fall);
  SceneRun r = load_and_run("friction_grooves", 1.5);
  for (int b = 0; b < r.model.body_count; ++b) {
    const Vec3 d = r.state.body_position(b) - r.model.body_initial_pose[b].pos;
    const Real off_fall = std::acos(d.normalized().dot(fall)) * 180 / std::numbers::pi;
    const Real off_groove = std::acos(d.normalized().dot(groove)) * 180 / std::numbers::pi;
    INFO(r.model.body_name[b] << " moved " << d.transpose() << ": " << off_fall << " deg off the fall line, "
                              << off_groove << " off the grooves");
    CHECK(d.norm() > 1.0);                    // it slides (down)
    CHECK(std::abs(d.dot(normal)) < 1e-3);    // on the slope
    CHECK(d.dot(normal.cross(fall)) > 0);     // to the grooves' side of the fall line
    CHECK(off_groove < 8);                    // nearly along the grooves (35° off the fall line)
  }
}

TEST_CASE("stroking the sheet along its grain pulls mu_major over mu_minor times harder than across",
          "[scene][friction][anisotropic]") {
  // Friction on each pad (summed over its contacts), averaged over the last second of 2 s of
  // steady stroking; the pair's ellipse (0.632, 0.316) predicts a ratio of 2 and forces μ m g.
  Vec3 along = Vec3::Zero(), across = Vec3::Zero();
  int samples = 0, step = 0;
  int pad_along = -1, pad_across = -1;
  SceneRun r = load_and_run("friction_stroke", 2.0, [&](const SceneRun& s) {
    if (pad_along < 0)
      for (int b = 0; b < s.model.body_count; ++b) {
        if (s.model.body_name[b] == "pad_along") pad_along = b;
        if (s.model.body_name[b] == "pad_across") pad_across = b;
      }
    if (++step * s.model.dt < 1.0) return;
    ++samples;
    for (int c = 0; c < s.ws.contacts.size(); ++c) {
      const sim::Contact& k = s.ws.contacts.contacts[c];
      const Vec3 f = s.ws.contact_friction_force[c].x() * k.tangent1 + s.ws.contact_friction_force[c].y() * k.tangent2;
      const int body = k.a.kind == sim::ContactSide::Body ? k.a.index : -1;  // the pad (the sheet is fixed)
      if (body == pad_along) along += f;
      if (body == pad_across) across += f;
    }
  });
  REQUIRE(samples > 0);
  along /= samples;
  across /= samples;
  const Real weight = 1.0 * 9.81;  // pad 0.06 x 0.06 x 0.05 m at 5555.56 kg/m³
  INFO("friction along " << along.transpose() << " N, across " << across.transpose() << " N");
  CHECK(along.x() == Approx(-std::sqrt(0.8 * 0.5) * weight).epsilon(0.01));
  CHECK(across.y() == Approx(-std::sqrt(0.2 * 0.5) * weight).epsilon(0.01));
  CHECK(along.x() / across.y() == Approx(2).epsilon(0.01));
  CHECK(std::abs(along.y()) < 1e-3 * std::abs(along.x()));    // on the axes: the force opposes the stroke
  CHECK(std::abs(across.x()) < 1e-3 * std::abs(across.y()));
  const Vec3 v = r.state.body_velocity(pad_along);
  CHECK(v.x() == Approx(0.2).epsilon(0.01));
}
