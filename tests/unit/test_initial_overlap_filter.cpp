// Self-collision of robots included with self_collision="true" (compile/initial_overlap_filter):
// link pairs overlapping at the initial pose are filtered (and listed with their depth), every
// other pair keeps colliding, and a robot whose links overlap at rest stands still.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/model_names.hpp"
#include "support/overlap_robot.hpp"

namespace {

using sim::Real;

// The 4-link robot of support/overlap_robot.hpp, compiled.
sim::Model load(const std::string& name, const std::string& self_collision) {
  auto spec = test::load_overlap_robot_scene("overlap_filter_" + name, self_collision);
  INFO((spec.ok() ? std::string("ok") : spec.error()));
  REQUIRE(spec.ok());
  auto model = sim::compile_model(*spec);
  INFO((model.ok() ? std::string("ok") : model.error()));
  REQUIRE(model.ok());
  return std::move(model.value());
}

bool filtered(const sim::Model& m, int a, int b) {
  const std::array<int, 2> p{std::min(a, b), std::max(a, b)};
  return std::find(m.no_collision_pairs.begin(), m.no_collision_pairs.end(), p) != m.no_collision_pairs.end();
}

}  // namespace

TEST_CASE("initial overlap filter: only the pair overlapping at the initial pose is filtered", "[unit][compile][robot]") {
  const sim::Model m = load("pairs", "true");
  const int base = test::body_index(m, "base"), link2 = test::body_index(m, "link2"), link3 = test::body_index(m, "link3");
  REQUIRE(m.initial_overlap_pairs.size() == 1);
  const sim::Model::FilteredPair& p = m.initial_overlap_pairs[0];
  CHECK(p.body_a == std::min(base, link2));
  CHECK(p.body_b == std::max(base, link2));
  CHECK(p.depth == Approx(0.005).margin(1e-9));  // link2's bottom 0.005, the base's top 0.01
  CHECK(filtered(m, base, link2));
  // link3 sits 1 mm above the base (within the contact margin, not overlapping): it still collides.
  CHECK_FALSE(filtered(m, base, link3));
  CHECK(m.no_collision_pairs.size() == 1);
  CHECK(sim::describe_initial_overlaps(m) ==
        "self-collision: filtered 1 link pair overlapping at the initial pose: base/link2 (5.0 mm)");
  sim::State state = sim::make_initial_state(m);
  sim::Workspace ws;
  REQUIRE(sim::step(m, state, sim::make_initial_control(m), ws).ok());
  bool link3_on_base = false;
  for (const sim::Contact& c : ws.contacts.contacts) {
    const bool a3 = c.a.kind == sim::ContactSide::Body && c.a.index == link3;
    const bool b3 = c.b.kind == sim::ContactSide::Body && c.b.index == link3;
    const bool a0 = c.a.kind == sim::ContactSide::Body && c.a.index == base;
    const bool b0 = c.b.kind == sim::ContactSide::Body && c.b.index == base;
    link3_on_base |= (a3 && b0) || (b3 && a0);
    CHECK_FALSE(((c.a.index == link2 && b0) || (c.b.index == link2 && a0)));
  }
  CHECK(link3_on_base);
}

TEST_CASE("initial overlap filter: self_collision=false filters every pair and lists none as overlapping",
          "[unit][compile][robot]") {
  const sim::Model m = load("off", "false");
  CHECK(m.initial_overlap_pairs.empty());
  CHECK(sim::describe_initial_overlaps(m).empty());
  CHECK(m.no_collision_pairs.size() == 6);  // 4 bodies: all 6 pairs
}

TEST_CASE("initial overlap filter: a robot whose links overlap at rest holds its pose under its drives",
          "[unit][compile][robot]") {
  const sim::Model m = load("still", "true");
  sim::State state = sim::make_initial_state(m);
  const std::vector<Real> q0 = state.q;
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  for (int i = 0; i < 240; ++i) {
    const sim::StepReport r = sim::step(m, state, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
  }
  // Nothing moved: gravity is carried by the fixed base's joints, no contact force fights them.
  for (std::size_t k = 0; k < q0.size(); ++k) CHECK(state.q[k] == Approx(q0[k]).margin(1e-6));
  for (Real v : state.u) CHECK(std::abs(v) < Real(1e-6));
}
