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
