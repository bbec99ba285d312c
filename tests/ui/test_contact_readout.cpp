// The Contact panel's numbers (ui/contact_readout.hpp) against closed forms: a box resting on the
// ground carries its weight over its contacts with no gap and no slip; a box sliding at 2 m/s
// with μ = 0.3 slips at the box's speed along its motion, and each contact's friction force
// opposes the slip at μ λ_n (on the cone); a box sliding across a grain carries the
// maximal-dissipation force of its ellipse, which the panel's figure draws on its rim. The
// read-out is the data the panel and the viewport's contact click show.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "support/scene_builders.hpp"
#include "ui/contact_readout.hpp"
#include "ui/friction_ellipse.hpp"

namespace {

constexpr double kMass = 2.0, kMu = 0.3, kG = 9.81;

sim::SceneSpec box_on_ground(const sim::Vec3& velocity) {
  sim::SceneSpec spec;
  spec.dt = 0.005;
  sim::MaterialSpec m;
  m.name = "m";
  m.friction = kMu;
  spec.materials.push_back(m);
  spec.world_shapes.push_back(test::ground_plane(0));
  const int b = test::add_body(spec, "box", sim::Vec3(0, 0, 0.1), kMass, test::box_shape(sim::Vec3(0.2, 0.1, 0.1), 0));
  spec.bodies[static_cast<std::size_t>(b)].linear_velocity = velocity;
  return spec;
}

}  // namespace

TEST_CASE("a resting box: its contacts carry m g, no gap, no slip", "[ui][contact]") {
  const sim::Model model = test::compile(box_on_ground(sim::Vec3::Zero()));
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  for (int i = 0; i < 100; ++i) REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
  REQUIRE(ws.contacts.size() >= 4);
  double weight = 0;
  for (int i = 0; i < ws.contacts.size(); ++i) {
    const ui::ContactReadout r = ui::contact_readout(model, state, ws, i);
    REQUIRE(r.contact == i);
    INFO("contact " << i << ": " << r.side_a << " on " << r.side_b);
    CHECK(((r.side_a == "body 'box'" && r.side_b == "world") || (r.side_b == "body 'box'" && r.side_a == "world")));
    CHECK(std::abs(std::abs(r.normal.z()) - 1) < 1e-9);
    CHECK(std::abs(r.gap) < 1e-3);
    CHECK(r.slip_speed < 1e-3);
    CHECK(r.mu == Approx(kMu));
    CHECK(r.cone_ratio < 0.99);  // sticking
    weight += r.normal_force;
  }
  CHECK(weight == Approx(kMass * kG).epsilon(5e-3));
  CHECK(ui::contact_readout(model, state, ws, ws.contacts.size()).contact == -1);  // out of range
}

TEST_CASE("a sliding box: slip along its motion at its speed, friction μ λ_n against it", "[ui][contact]") {
  const sim::Model model = test::compile(box_on_ground(sim::Vec3(2.0, 0, 0)));
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  for (int i = 0; i < 40; ++i) REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
  const double speed = state.body_velocity(0).x();
  REQUIRE(speed > 1.0);  // still sliding: 2 - μ g t = 2 - 0.3 · 9.81 · 0.2 = 1.41 m/s
  CHECK(speed == Approx(2.0 - kMu * kG * 40 * 0.005).epsilon(0.02));
  REQUIRE(ws.contacts.size() >= 4);
  double friction = 0, weight = 0;
  for (int i = 0; i < ws.contacts.size(); ++i) {
    const ui::ContactReadout r = ui::contact_readout(model, state, ws, i);
    INFO("contact " << i);
    // Slip of a's point against b's: the box's velocity with the box as side a, else its opposite.
    const double sign = r.side_a == "body 'box'" ? 1.0 : -1.0;
    CHECK(sign * r.slip_velocity.x() == Approx(speed).epsilon(1e-3));
    CHECK(std::abs(r.slip_velocity.y()) < 1e-6);
    CHECK(r.slip_speed == Approx(speed).epsilon(1e-3));
    CHECK(r.friction_force.dot(r.slip_velocity) < 0);  // friction on a opposes a's slip
    CHECK(r.cone_ratio == Approx(1.0).epsilon(1e-2));
    CHECK(r.friction_magnitude == Approx(kMu * r.normal_force).epsilon(1e-2));
    friction += r.friction_magnitude;
    weight += r.normal_force;
  }
  CHECK(weight == Approx(kMass * kG).epsilon(1e-2));
  CHECK(friction == Approx(kMu * kMass * kG).epsilon(1e-2));
}

TEST_CASE("a box sliding across a grain: the Contact panel's ellipse holds the maximal-dissipation force on its rim",
          "[ui][contact][anisotropic]") {
  // Box and ground of one grained material (μ_t 0.6 along x, μ_b 0.2 across: both grains along
  // x, fully aligned), launched at 45° to the grain. Sliding, each contact's force is
  // −λ_n M² v/|M v| (M = diag(μ_t, μ_b) in the grain frame): on the ellipse's rim, and not
  // against the slip (that holds only on a circle).
  constexpr double kMajor = 0.6, kMinor = 0.2;
  sim::SceneSpec spec = box_on_ground(sim::Vec3(std::sqrt(2.0), std::sqrt(2.0), 0));
  spec.materials[0].friction = 0.4;
  spec.materials[0].friction_major = kMajor;
  spec.materials[0].friction_minor = kMinor;
  spec.materials[0].structure.kind = sim::StructureFieldKind::Constant;
  spec.materials[0].structure.direction = sim::Vec3::UnitX();
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  for (int i = 0; i < 20; ++i) REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
  REQUIRE(state.body_velocity(0).head<2>().norm() > 1.0);  // still sliding
  REQUIRE(ws.contacts.size() >= 4);
  for (int i = 0; i < ws.contacts.size(); ++i) {
    const ui::ContactReadout r = ui::contact_readout(model, state, ws, i);
    INFO("contact " << i);
    REQUIRE(r.anisotropic);
    CHECK(r.mu == Approx(kMajor));
    CHECK(r.mu_bitangent == Approx(kMinor));
    CHECK(std::abs(r.tangent1.dot(sim::Vec3::UnitX())) == Approx(1).margin(1e-9));
    // The slip in the frame is the slip itself.
    CHECK((r.slip_tangent.x() * r.tangent1 + r.slip_tangent.y() * r.tangent2 - r.slip_velocity).norm() < 1e-9);
    const sim::Vec2 m2v(kMajor * kMajor * r.slip_tangent.x(), kMinor * kMinor * r.slip_tangent.y());
    const sim::Vec2 expected = -m2v.normalized();
    const sim::Vec2 force = r.friction_tangent.normalized();
    CHECK(force.dot(expected) > 0.999);
    CHECK(force.dot(-r.slip_tangent.normalized()) < 0.98);  // not opposite the slip: the grain turns it
    const ui::FrictionEllipseFigure fig = ui::friction_ellipse_figure(r, 80);
    REQUIRE(fig.loaded);
    CHECK(fig.semi_axis_t / fig.semi_axis_b == Approx(kMajor / kMinor));
    CHECK(std::max(fig.semi_axis_t, fig.semi_axis_b) == Approx(80));  // the rim fills the figure
    const double rim = std::hypot(fig.force.x() / fig.semi_axis_t, fig.force.y() / fig.semi_axis_b);
    CHECK(rim == Approx(1).epsilon(0.02));  // sliding: on the rim
    CHECK(fig.slip.norm() == Approx(80));
    CHECK(fig.newtons_per_pixel * fig.semi_axis_t == Approx(kMajor * r.normal_force));
  }
}

TEST_CASE("a resting box: the Contact panel's disc holds the friction force inside it", "[ui][contact]") {
  const sim::Model model = test::compile(box_on_ground(sim::Vec3::Zero()));
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  for (int i = 0; i < 100; ++i) REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
  REQUIRE(ws.contacts.size() >= 4);
  for (int i = 0; i < ws.contacts.size(); ++i) {
    const ui::ContactReadout r = ui::contact_readout(model, state, ws, i);
    const ui::FrictionEllipseFigure fig = ui::friction_ellipse_figure(r, 80);
    REQUIRE(fig.loaded);
    CHECK(fig.semi_axis_t == Approx(fig.semi_axis_b));
    CHECK(fig.semi_axis_t == Approx(80));
    CHECK(fig.force.norm() < 0.99 * fig.semi_axis_t);  // sticking: inside
  }
  // No load: nothing to draw.
  ui::ContactReadout unloaded;
  unloaded.mu = unloaded.mu_bitangent = 0.5;
  CHECK_FALSE(ui::friction_ellipse_figure(unloaded, 80).loaded);
}
