// Self-collision of robots included with self_collision="true" (compile/initial_overlap_filter):
// link pairs overlapping at the initial pose are filtered (and listed with their depth), every
// other pair keeps colliding, and a robot whose links overlap at rest stands still.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "collision/collide.hpp"
#include "compile/initial_overlap_filter.hpp"

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"
#include "support/model_names.hpp"
#include "support/overlap_robot.hpp"
#include "support/scratch_files.hpp"
#include "support/shared_robots.hpp"
#include "support/shipped_scenes.hpp"

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

// A URDF chain of `links` links, link i with the collision geometry geometry(i), each hinged to
// the one before at `origin` (xyz in the parent frame), in a scene with self_collision="true".
sim::Result<sim::SceneSpec> chain_scene(const std::string& name, int links,
                                        const std::function<std::string(int)>& geometry, const std::string& origin) {
  std::string urdf = "<robot name=\"chain\">\n";
  for (int i = 0; i < links; ++i)
    urdf += "  <link name=\"l" + std::to_string(i) +
            "\"><inertial><mass value=\"0.01\"/><inertia ixx=\"1e-6\" iyy=\"1e-6\" izz=\"1e-6\" ixy=\"0\" ixz=\"0\" "
            "iyz=\"0\"/></inertial><collision><geometry>" + geometry(i) + "</geometry></collision></link>\n";
  for (int i = 1; i < links; ++i)
    urdf += "  <joint name=\"j" + std::to_string(i) + "\" type=\"revolute\"><parent link=\"l" + std::to_string(i - 1) +
            "\"/><child link=\"l" + std::to_string(i) + "\"/><origin xyz=\"" + origin +
            "\" rpy=\"0 0.3 0.7\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n";
  urdf += "</robot>\n";
  const auto dir = test::scratch_dir(name);
  test::write_file(dir / "chain.urdf", urdf);
  test::write_file(dir / "scene.xml", R"(<scene><robot file="chain.urdf" fixed_base="true" self_collision="true"/></scene>)");
  return sim::load_scene_file((dir / "scene.xml").string());
}

// What the filter found before the overlap-only query, as the oracle: every contact of the
// whole scene at the initial state without margin (generate_contacts, full manifolds), kept
// where both sides are bodies of one self-colliding robot and the gap is below -tolerance, the
// deepest per body pair, sorted. Run on the model without the pairs the filter added.
std::vector<sim::Model::FilteredPair> overlaps_from_contacts(const sim::SceneSpec& spec, const sim::Model& compiled) {
  sim::Model m = compiled;
  m.no_collision_pairs.resize(m.no_collision_pairs.size() - m.initial_overlap_pairs.size());
  std::vector<int> robot_of(static_cast<std::size_t>(m.body_count), -1);
  for (std::size_t i = 0; i < spec.robots.size(); ++i)
    if (spec.robots[i].self_collision)
      for (int b = spec.robots[i].first_body; b < spec.robots[i].first_body + spec.robots[i].body_count; ++b)
        robot_of[static_cast<std::size_t>(b)] = static_cast<int>(i);
  sim::detail::CollisionScratch scratch;
  sim::ContactBuffer contacts;
  sim::generate_contacts(m, sim::make_initial_state(m), m.dt, Real(0), scratch, contacts);
  std::map<std::pair<int, int>, Real> deepest;
  for (const sim::Contact& c : contacts.contacts) {
    if (c.a.kind != sim::ContactSide::Body || c.b.kind != sim::ContactSide::Body) continue;
    if (!(c.initial_gap < -sim::detail::kInitialOverlapTolerance)) continue;
    const int ra = robot_of[static_cast<std::size_t>(c.a.index)];
    if (ra < 0 || ra != robot_of[static_cast<std::size_t>(c.b.index)]) continue;
    const std::pair<int, int> key{std::min(c.a.index, c.b.index), std::max(c.a.index, c.b.index)};
    const auto it = deepest.find(key);
    if (it == deepest.end() || -c.initial_gap > it->second) deepest[key] = -c.initial_gap;
  }
  std::vector<sim::Model::FilteredPair> out;
  for (const auto& [key, depth] : deepest) out.push_back({key.first, key.second, depth});
  return out;
}

// The filter's pairs equal the oracle's: the same body pairs, the same depths to the bit.
void check_same_as_contacts(const sim::SceneSpec& spec, const sim::Model& m) {
  const std::vector<sim::Model::FilteredPair> expected = overlaps_from_contacts(spec, m);
  REQUIRE(m.initial_overlap_pairs.size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const sim::Model::FilteredPair &p = m.initial_overlap_pairs[k], &e = expected[k];
    INFO("pair " << k << ": " << m.body_name[e.body_a] << "/" << m.body_name[e.body_b]);
    CHECK(p.body_a == e.body_a);
    CHECK(p.body_b == e.body_b);
    CHECK(p.depth == e.depth);
  }
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

TEST_CASE("initial overlap filter: a chain of 1,000 coincident links compiles, every unjointed pair filtered once",
          "[unit][compile][robot]") {
  // 1,000 spheres of 1 cm at one point, each hinged to the one before (issue 13: 262 s to compile
  // when the pair list was searched per contact). Sphere pairs make one contact each, depth 2 r.
  constexpr int kLinks = 1000;
  auto spec = chain_scene("overlap_filter_chain", kLinks, [](int) { return std::string("<sphere radius=\"0.01\"/>"); },
                                "0 0 0");
  INFO((spec.ok() ? std::string("ok") : spec.error()));
  REQUIRE(spec.ok());
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  auto model = sim::compile_model(*spec);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu_seconds = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  INFO((model.ok() ? std::string("ok") : model.error()));
  REQUIRE(model.ok());
  const sim::Model& m = model.value();
  WARN("1,000 coincident links: compiled in " << seconds << " s (process CPU " << cpu_seconds << " s), "
                                              << m.initial_overlap_pairs.size() << " pairs filtered");
  REQUIRE(m.body_count == kLinks);
  // Every pair but the 999 jointed ones overlaps, each listed once, ordered, at depth 2 r.
  const std::size_t expected = std::size_t(kLinks) * (kLinks - 1) / 2 - (kLinks - 1);
  REQUIRE(m.initial_overlap_pairs.size() == expected);
  bool ordered = true, depths = true, unjointed = true;
  for (std::size_t k = 0; k < m.initial_overlap_pairs.size(); ++k) {
    const sim::Model::FilteredPair& p = m.initial_overlap_pairs[k];
    if (k > 0) {
      const sim::Model::FilteredPair& q = m.initial_overlap_pairs[k - 1];
      ordered &= q.body_a < p.body_a || (q.body_a == p.body_a && q.body_b < p.body_b);
    }
    depths &= std::abs(p.depth - Real(0.02)) < Real(1e-9);
    unjointed &= p.body_b != p.body_a + 1;  // link i is jointed to i + 1 (bodies in link order)
  }
  CHECK(ordered);
  CHECK(depths);
  CHECK(unjointed);
  CHECK(m.no_collision_pairs.size() >= expected);
  // The load summary names the first 20 pairs and counts the rest.
  const std::string note = sim::describe_initial_overlaps(m);
  CHECK(note.rfind("self-collision: filtered 498501 link pairs overlapping at the initial pose: l0/l2 (20.0 mm) ", 0) == 0);
  CHECK(note.size() < 1000);
  CHECK(note.find(" and 498481 more") + 16 == note.size());
}

TEST_CASE("initial overlap filter: the overlap-only query filters the pairs full contact generation finds, same depths",
          "[unit][compile][robot]") {
  SECTION("the 4-link robot") {
    auto spec = test::load_overlap_robot_scene("overlap_filter_same_robot", "true");
    REQUIRE(spec.ok());
    auto m = sim::compile_model(*spec);
    REQUIRE(m.ok());
    check_same_as_contacts(*spec, *m);
  }
  SECTION("a chain of 60 mixed links (boxes, capsules, cylinders, spheres), some overlapping, some not") {
    // Each link 4 cm from its parent, turned by the joint origin: a coiled chain whose links
    // overlap their near neighbours by different depths and miss the far ones.
    auto spec = chain_scene("overlap_filter_mixed", 60, [](int i) {
      switch (i % 4) {
        case 0: return std::string("<box size=\"0.06 0.03 0.02\"/>");
        case 1: return std::string("<cylinder radius=\"0.015\" length=\"0.06\"/>");
        case 2: return std::string("<sphere radius=\"0.025\"/>");
        default: return std::string("<capsule radius=\"0.01\" length=\"0.05\"/>");
      }
    }, "0.04 0 0");
    INFO((spec.ok() ? std::string("ok") : spec.error()));
    REQUIRE(spec.ok());
    auto m = sim::compile_model(*spec);
    REQUIRE(m.ok());
    CHECK(m->initial_overlap_pairs.size() > 10);  // the test compares something
    check_same_as_contacts(*spec, *m);
  }
  for (const std::string name : {"fetch", "allegro"}) {
    DYNAMIC_SECTION("the shipped scene " << name) {
      const std::string path = test::scene_path(name);
      if (test::scene_needs_shared_robots(path) && !test::shared_robots_available()) {
        WARN("skipped: " << name << " needs ../shared/robots");
        return;
      }
      auto spec = sim::load_scene_file(path);
      INFO((spec.ok() ? std::string("ok") : spec.error()));
      REQUIRE(spec.ok());
      auto m = sim::compile_model(*spec);
      REQUIRE(m.ok());
      WARN(name << ": " << m->initial_overlap_pairs.size() << " pairs filtered");
      check_same_as_contacts(*spec, *m);
    }
  }
}
