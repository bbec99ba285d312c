// The Solve capture replayed in the viewport (issue 15 item 2), the data the viewport draws:
// a captured step with a box resting on the ground (μ = 0.3), a box sliding at 2 m/s and a
// hinged pendulum. At the last Newton iterate the resting box's contacts are marked "stick" (and
// drawn in the stick colour), the sliding box's "slip", the pendulum's joint has no stick/slip;
// the normal arrows are λ_n n with the captured λ_n, the resting box's λ_n sum to m g, the sliding
// box's friction is μ λ_n; the overlay's arrow segment is λ_n · scale long along the normal. The
// residual colour map runs from the smallest to the largest mark. A capture row's nodes, all of
// them, are framed (node_sphere). A pendulum at rest: its joint's force is m g up, drawn as an
// arrow from the pivot. The rows table's state column follows the replay's cone rule (stick on
// the resting box, slip on the sliding one). A rope gets a mark per distance row at the
// midpoint of its particles; hanging at rest, each row pulls its lower particle up by the weight
// below it. A soft block gets one mark per tet at the mean of its free corners.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "debug_lines.hpp"
#include "gui/capture_replay_overlay.hpp"
#include "gui/node_sphere.hpp"
#include "sim/soft_body.hpp"
#include "support/scene_builders.hpp"
#include "ui/capture_panel.hpp"
#include "ui/capture_replay.hpp"

using namespace coulomb::gui;

namespace {

constexpr double kMass = 2.0, kMu = 0.3, kG = 9.81;

struct Captured {
  sim::Model model;
  sim::SolveCapture capture;
  std::vector<sim::Contact> contacts;
  sim::Workspace ws;
  int resting = -1, sliding = -1, bob = -1;
};

// Two boxes on the ground (one still, one sliding along x) and a pendulum far from them; the
// 41st step captured.
Captured captured_step() {
  sim::SceneSpec spec;
  spec.dt = 0.005;
  const int material = test::add_material(spec, "m", kMu);
  spec.world_shapes.push_back(test::ground_plane(material));
  Captured c;
  const sim::ShapeSpec box = test::box_shape(sim::Vec3(0.2, 0.1, 0.1), material);
  c.resting = test::add_body(spec, "resting", sim::Vec3(0, 0, 0.1), kMass, box);
  c.sliding = test::add_body(spec, "sliding", sim::Vec3(0, 2, 0.1), kMass, box);
  spec.bodies[static_cast<std::size_t>(c.sliding)].linear_velocity = sim::Vec3(2, 0, 0);
  c.bob = test::add_hinged_pendulum(spec, sim::Vec3(0, -3, 2), 0.5, 0.4, 1.0, test::sphere_shape(0.05));
  c.model = test::compile(spec);
  sim::State state = sim::make_initial_state(c.model);
  const sim::Control control = sim::make_initial_control(c.model);
  for (int i = 0; i < 40; ++i) REQUIRE(sim::step(c.model, state, control, c.ws).ok());
  c.ws.capture = &c.capture;
  REQUIRE(sim::step(c.model, state, control, c.ws).ok());
  c.ws.capture = nullptr;
  c.contacts = c.ws.contacts.contacts;
  return c;
}

// `model` stepped `settle` times from its initial state, then one step captured.
struct CapturedRun {
  sim::State state;
  sim::Workspace ws;
  sim::SolveCapture capture;
};
CapturedRun capture_after(const sim::Model& model, int settle) {
  CapturedRun r{sim::make_initial_state(model), {}, {}};
  const sim::Control control = sim::make_initial_control(model);
  for (int i = 0; i < settle; ++i) REQUIRE(sim::step(model, r.state, control, r.ws).ok());
  r.ws.capture = &r.capture;
  REQUIRE(sim::step(model, r.state, control, r.ws).ok());
  r.ws.capture = nullptr;
  REQUIRE(r.capture.filled);
  return r;
}

int contact_body(const sim::Contact& k) {
  return k.a.kind == sim::ContactSide::Body ? k.a.index : k.b.kind == sim::ContactSide::Body ? k.b.index : -1;
}

int row_of(const sim::SolveCapture& c, int kind, int source, int sub) {
  for (int r = 0; r < c.rows.count(); ++r)
    if (c.rows.kind[static_cast<std::size_t>(r)] == kind && c.rows.source[static_cast<std::size_t>(r)] == source &&
        c.rows.sub[static_cast<std::size_t>(r)] == sub)
      return r;
  return -1;
}

// A rope of `count` particles of `mass` from `top` (fixed in space, mass 0) in steps of `step`,
// joined by distance rows i → i + 1 (particle_a the one nearer the fixed end).
sim::SceneSpec rope_spec(int count, double mass, const sim::Vec3& top, const sim::Vec3& step) {
  sim::SceneSpec spec;
  spec.dt = 0.005;
  for (int i = 0; i < count; ++i) {
    sim::ParticleSpec p;
    p.position = top + double(i) * step;
    p.mass = i == 0 ? 0.0 : mass;
    p.radius = 0.01;
    spec.particles.push_back(p);
  }
  for (int i = 0; i + 1 < count; ++i) {
    sim::DistanceSpec d;
    d.particle_a = i;
    d.particle_b = i + 1;
    spec.distances.push_back(d);
  }
  return spec;
}

}  // namespace

TEST_CASE("replay: resting contacts stick, sliding ones slip, in their colours, and the arrows are the captured λ", "[capture][replay]") {
  const Captured c = captured_step();
  REQUIRE(c.capture.filled);
  REQUIRE(static_cast<int>(c.contacts.size()) == c.capture.contact_count);
  const int last = static_cast<int>(c.capture.iterates.size()) - 1;
  const sim::CapturedIterate& it = c.capture.iterates.back();

  ui::CaptureReplay replay;
  ui::build_capture_replay(c.model, c.capture, c.contacts, last, ui::ReplayQuantity::StickSlip, replay);
  REQUIRE(replay.iteration == last);
  int stick = 0, slip = 0, joints = 0;
  for (const ui::ReplayMark& m : replay.marks) {
    const glm::vec3 color = replay_mark_color(replay, m);
    if (m.joint >= 0) {
      ++joints;
      CHECK(m.joint == 0);
      CHECK(m.state == ui::ReplayState::None);
      continue;
    }
    REQUIRE(m.contact >= 0);
    const int body = contact_body(c.contacts[static_cast<std::size_t>(m.contact)]);
    INFO("contact " << m.contact << " of body " << body);
    const ui::ReplayState expected = body == c.resting ? ui::ReplayState::Stick : ui::ReplayState::Slip;
    CHECK(m.state == expected);
    const std::array<float, 3> want = ui::replay_state_color(expected);
    CHECK(color == glm::vec3(want[0], want[1], want[2]));
    (expected == ui::ReplayState::Stick ? stick : slip) += 1;
  }
  CHECK(stick >= 4);  // a box face on the ground: its corners
  CHECK(slip >= 4);
  CHECK(joints == 1);
  CHECK(static_cast<int>(replay.marks.size()) == c.capture.contact_count + 1);

  // The forces: λ of the contact's rows at the iterate; at the last one what the step published.
  double resting_weight = 0;
  for (int k = 0; k < c.capture.contact_count; ++k) {
    const int normal = row_of(c.capture, 3, k, 0), f1 = row_of(c.capture, 4, k, 1), f2 = row_of(c.capture, 4, k, 2);
    REQUIRE(normal >= 0);
    REQUIRE(f1 >= 0);
    REQUIRE(f2 >= 0);
    const auto K = static_cast<std::size_t>(k);
    CHECK(replay.normal_force[K] == it.lambda[static_cast<std::size_t>(normal)]);
    CHECK(replay.friction_force[K].x() == it.lambda[static_cast<std::size_t>(f1)]);
    CHECK(replay.friction_force[K].y() == it.lambda[static_cast<std::size_t>(f2)]);
    CHECK(replay.normal_force[K] == Approx(c.ws.contact_normal_force[K]).margin(1e-9));
    const int body = contact_body(c.contacts[K]);
    if (body == c.resting) resting_weight += replay.normal_force[K];
    if (body == c.sliding)  // slipping: on the cone, |λ_f| = μ λ_n
      CHECK(replay.friction_force[K].norm() == Approx(kMu * replay.normal_force[K]).epsilon(1e-3));
  }
  CHECK(resting_weight == Approx(kMass * kG).epsilon(5e-3));

  // The overlay: each contact's normal arrow is λ_n n from its point, scale · λ_n long.
  render::ContactOverlay overlay;
  CHECK(fill_replay_overlay(c.model, c.capture, c.contacts, replay, overlay).empty());
  REQUIRE(overlay.size() == c.capture.contact_count);
  REQUIRE(overlay.mark_point.size() == replay.marks.size());
  REQUIRE(overlay.mark_color.size() == replay.marks.size());
  // The joint's mark sits at its pivot (frame a on the world).
  CHECK(glm::length(overlay.mark_point.back() - glm::vec3(0.0f, -3.0f, 2.0f)) < 1e-6f);
  render::Overlays switches;
  switches.normal_forces = true;
  switches.replay_marks = true;
  switches.force_scale = 0.01f;  // 1 N = 1 cm
  render::OverlayScale scale;
  scale.max_arrow = 100.0f;      // no clamping
  std::vector<render::LineVertex> lines;
  render::PoseView poses;  // not read without body frames, joint frames or boxes
  render::build_overlay_lines(c.model, poses, switches, &overlay, scale, glm::vec3(5.0f, 5.0f, 5.0f), lines);
  int arrows = 0;
  for (int k = 0; k < overlay.size(); ++k) {
    const glm::vec3 from = overlay.point[static_cast<std::size_t>(k)];
    const glm::vec3 n = overlay.normal[static_cast<std::size_t>(k)];
    const float lambda = float(replay.normal_force[static_cast<std::size_t>(k)]);
    if (lambda * 0.01f < 1e-5f) continue;  // no arrow for an unloaded contact
    ++arrows;
    // The shaft: the segment starting at the point along n.
    bool found = false;
    for (std::size_t v = 0; v + 1 < lines.size() && !found; v += 2) {
      const glm::vec3 a(lines[v].position[0], lines[v].position[1], lines[v].position[2]);
      const glm::vec3 b(lines[v + 1].position[0], lines[v + 1].position[1], lines[v + 1].position[2]);
      if (glm::length(a - from) > 1e-6f) continue;
      found = true;
      INFO("contact " << k << ": lambda_n " << lambda);
      CHECK(glm::length(b - a) == Approx(lambda * 0.01f).epsilon(1e-5));
      CHECK(glm::dot(glm::normalize(b - a), n) == Approx(1.0f).epsilon(1e-5));
    }
    CHECK(found);
  }
  CHECK(arrows >= 8);  // both boxes' contacts carry weight

  // Active set: every contact of the boxes is in contact, the joint (no limit) active.
  ui::build_capture_replay(c.model, c.capture, c.contacts, last, ui::ReplayQuantity::ActiveSet, replay);
  for (const ui::ReplayMark& m : replay.marks) CHECK(m.state == ui::ReplayState::Active);

  // Residual: each mark's value is its largest row residual, the map spans the marks' range.
  ui::build_capture_replay(c.model, c.capture, c.contacts, 0, ui::ReplayQuantity::Residual, replay);
  const sim::CapturedIterate& first = c.capture.iterates.front();
  REQUIRE(replay.hi > 0);
  float lowest = 2, highest = -1;
  for (const ui::ReplayMark& m : replay.marks) {
    REQUIRE(m.worst_row >= 0);
    double largest = 0;
    for (int r = 0; r < c.capture.rows.count(); ++r) {
      const int kind = c.capture.rows.kind[static_cast<std::size_t>(r)];
      const bool mine = m.contact >= 0 ? (kind >= 3 && c.capture.rows.source[static_cast<std::size_t>(r)] == m.contact)
                                       : (kind <= 2 && c.capture.rows.source[static_cast<std::size_t>(r)] == m.joint);
      if (mine) largest = std::max(largest, std::abs(double(first.residual[static_cast<std::size_t>(r)])));
    }
    CHECK(m.value == largest);
    const float t = ui::replay_map_position(replay, m);
    if (m.value > 0) lowest = std::min(lowest, t), highest = std::max(highest, t);
  }
  CHECK(lowest == 0.0f);
  CHECK(highest == 1.0f);
  // Complementarity leaves the joint (no limit rows) without a value: grey.
  ui::build_capture_replay(c.model, c.capture, c.contacts, 0, ui::ReplayQuantity::Complementarity, replay);
  CHECK(replay.marks.back().joint == 0);
  CHECK(replay.marks.back().worst_row == -1);
  CHECK(std::isnan(ui::replay_map_position(replay, replay.marks.back())));
  CHECK(replay_mark_color(replay, replay.marks.back()) == render::field_color(NAN, render::FieldRange{0, 1}));

  // Contacts that do not match the capture are not drawn, and the line says so.
  const std::vector<sim::Contact> fewer(c.contacts.begin(), c.contacts.end() - 1);
  CHECK_FALSE(fill_replay_overlay(c.model, c.capture, fewer, replay, overlay).empty());
  CHECK(overlay.size() == 0);
  CHECK(overlay.mark_point.size() == 1);  // the joint only
}

TEST_CASE("a capture row's nodes, all of them, are framed", "[capture][replay]") {
  // Two boxes stacked on the ground: a contact row between them couples both.
  sim::SceneSpec spec;
  spec.dt = 0.005;
  spec.world_shapes.push_back(test::ground_plane());
  const sim::ShapeSpec box = test::box_shape(sim::Vec3(0.1, 0.1, 0.1));
  test::add_body(spec, "lower", sim::Vec3(0, 0, 0.1), 1.0, box);
  test::add_body(spec, "upper", sim::Vec3(0, 0, 0.3), 1.0, box);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  sim::Workspace ws;
  sim::SolveCapture capture;
  ws.capture = &capture;
  REQUIRE(sim::step(model, state, sim::make_initial_control(model), ws).ok());
  int between = -1;
  std::vector<int> nodes;
  for (int r = 0; r < capture.rows.count() && between < 0; ++r) {
    ui::capture_row_nodes(capture, r, nodes);
    if (nodes.size() == 2) between = r;
  }
  REQUIRE(between >= 0);
  std::sort(nodes.begin(), nodes.end());
  CHECK(nodes == std::vector<int>{0, 1});
  // The sphere holds both bodies' bounding spheres: the box from z = 0.1 − r to 0.3 + r.
  const NodeSphere sphere = node_sphere(model, state, nodes);
  const double r = model.body_bound_radius[0];
  for (int b : nodes) CHECK((sphere.center - state.body_position(b)).norm() + r <= sphere.radius + 1e-12);
  const double dz = state.body_position(1).z() - state.body_position(0).z();
  CHECK(sphere.radius == Approx(0.5 * std::sqrt(8 * r * r + (dz + 2 * r) * (dz + 2 * r))).epsilon(1e-9));
  // One body: its own sphere; nothing of the model: radius 0.
  CHECK(node_sphere(model, state, std::vector<int>{1}).radius == Approx(std::sqrt(3.0) * r));
  CHECK(node_sphere(model, state, std::vector<int>{7}).radius == 0);
}

TEST_CASE("replay: a pendulum at rest gets a joint force arrow of m g pointing up at its pivot", "[capture][replay]") {
  // A 1.5 kg bob hanging at rest 0.5 m below a world hinge: the hinge's positional rows carry
  // its weight, the force on the bob is m g straight up (closed form), drawn from the pivot.
  constexpr double m = 1.5;
  const sim::Vec3 pivot(0.0, 0.0, 2.0);
  sim::SceneSpec spec;
  spec.dt = 0.005;
  test::add_hinged_pendulum(spec, pivot, 0.5, 0.0, m, test::sphere_shape(0.05));
  const sim::Model model = test::compile(spec);
  const CapturedRun run = capture_after(model, 40);
  const sim::SolveCapture& capture = run.capture;
  const int last = static_cast<int>(capture.iterates.size()) - 1;

  ui::CaptureReplay replay;
  ui::build_capture_replay(model, capture, {}, last, ui::ReplayQuantity::Residual, replay);
  REQUIRE(replay.joint_force.size() == 1);
  const sim::Vec3 force = replay.joint_force[0];
  INFO("joint force " << force.transpose());
  CHECK(force.norm() == Approx(m * kG).epsilon(0.01));
  CHECK(force.normalized().dot(sim::Vec3::UnitZ()) > 0.9999);  // up
  CHECK(replay.largest_force == Approx(force.norm()));

  // The overlay: the joint's mark at the pivot with that force, drawn as an arrow from it.
  render::ContactOverlay overlay;
  CHECK(fill_replay_overlay(model, capture, {}, replay, overlay).empty());
  REQUIRE(overlay.mark_point.size() == 1);
  REQUIRE(overlay.mark_force.size() == 1);
  const glm::vec3 at(float(pivot.x()), float(pivot.y()), float(pivot.z()));
  CHECK(glm::length(overlay.mark_point[0] - at) < 1e-6f);
  CHECK(glm::length(overlay.mark_force[0] - glm::vec3(float(force.x()), float(force.y()), float(force.z()))) < 1e-4f);
  render::Overlays switches;
  switches.normal_forces = true;
  switches.replay_marks = true;
  switches.force_scale = 0.01f;  // 1 N = 1 cm
  render::OverlayScale scale;
  scale.max_arrow = 100.0f;
  std::vector<render::LineVertex> lines;
  render::PoseView poses;
  render::build_overlay_lines(model, poses, switches, &overlay, scale, glm::vec3(5.0f, 5.0f, 5.0f), lines);
  bool shaft = false;
  for (std::size_t v = 0; v + 1 < lines.size(); v += 2) {
    const glm::vec3 a(lines[v].position[0], lines[v].position[1], lines[v].position[2]);
    const glm::vec3 b(lines[v + 1].position[0], lines[v + 1].position[1], lines[v + 1].position[2]);
    if (glm::length(a - at) > 1e-6f || glm::length(b - a) < 0.05f) continue;  // not the marker's short lines
    shaft = true;
    CHECK(glm::length(b - a) == Approx(float(m * kG) * 0.01f).epsilon(0.01));
    CHECK(glm::normalize(b - a).z == Approx(1.0f).epsilon(1e-4));
  }
  CHECK(shaft);
  // Without the arrows switched on, no arrow.
  switches.normal_forces = false;
  render::build_overlay_lines(model, poses, switches, &overlay, scale, glm::vec3(5.0f, 5.0f, 5.0f), lines);
  for (std::size_t v = 0; v + 1 < lines.size(); v += 2) {
    const glm::vec3 a(lines[v].position[0], lines[v].position[1], lines[v].position[2]);
    const glm::vec3 b(lines[v + 1].position[0], lines[v + 1].position[1], lines[v + 1].position[2]);
    CHECK(glm::length(b - a) < 0.1f);
  }
}

TEST_CASE("the rows table's state column reads stick for a resting box and slip for a sliding one, as the replay does", "[capture][replay]") {
  const Captured c = captured_step();
  REQUIRE(c.capture.filled);
  const int last = static_cast<int>(c.capture.iterates.size()) - 1;
  const sim::CapturedIterate& it = c.capture.iterates.back();
  // What the panel computes for its table (ui::capture_panel): the contacts' states at the
  // iterate, then each row's.
  std::vector<sim::Real> normal;
  std::vector<sim::Vec2> friction;
  std::vector<ui::ReplayState> states;
  ui::capture_contact_states(c.capture, c.contacts, last, normal, friction, states);
  REQUIRE(static_cast<int>(states.size()) == c.capture.contact_count);
  ui::CaptureReplay replay;
  ui::build_capture_replay(c.model, c.capture, c.contacts, last, ui::ReplayQuantity::StickSlip, replay);
  int resting_rows = 0, sliding_rows = 0, resting_flagged = 0;
  for (int r = 0; r < c.capture.rows.count(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    const int kind = c.capture.rows.kind[i];
    const ui::ReplayState state = ui::capture_row_state(c.capture, states, it, r);
    if (kind != 3 && kind != 4) {
      CHECK(state == ui::ReplayState::None);  // the pendulum's hinge rows: no state
      continue;
    }
    const int contact = c.capture.rows.source[i];
    const int body = contact_body(c.contacts[static_cast<std::size_t>(contact)]);
    INFO("row " << r << " (" << sim::row_kind_name(kind) << ") of contact " << contact << ", body " << body);
    // The table and the viewport's mark of the same contact agree.
    CHECK(state == replay.marks[static_cast<std::size_t>(contact)].state);
    if (body == c.resting) {
      ++resting_rows;
      CHECK(std::string(ui::replay_state_name(state)) == "stick");
      if (kind == 4 && it.active[i] != 0) ++resting_flagged;  // the solver's flag would say "slip"
    } else {
      ++sliding_rows;
      CHECK(std::string(ui::replay_state_name(state)) == "slip");
    }
  }
  CHECK(resting_rows >= 12);  // 4 contacts, a normal and two friction rows each
  CHECK(sliding_rows >= 12);
  INFO("resting friction rows the solver's W > 0 flag calls slipping: " << resting_flagged);
  // Sorting the table by the state column groups the rows by it.
  std::vector<int> order;
  ui::sort_capture_rows(c.capture, last, ui::CaptureColumn::State, false, -1, order, states);
  for (std::size_t k = 1; k < order.size(); ++k)
    CHECK(static_cast<int>(ui::capture_row_state(c.capture, states, it, order[k - 1])) <=
          static_cast<int>(ui::capture_row_state(c.capture, states, it, order[k])));
}

TEST_CASE("replay: a rope capture gets one mark per distance row, at the midpoint of its two particles", "[capture][replay]") {
  // Six particles 10 cm apart along x, the first fixed in space (mass 0), falling from the
  // horizontal: five distance rows (the first with one free particle).
  constexpr int kParticles = 6;
  const sim::Model model = test::compile(rope_spec(kParticles, 0.05, sim::Vec3(0, 0, 2), sim::Vec3(0.1, 0, 0)));
  REQUIRE(model.distance_count == kParticles - 1);
  const CapturedRun run = capture_after(model, 10);
  const sim::SolveCapture& capture = run.capture;
  const int last = static_cast<int>(capture.iterates.size()) - 1;

  ui::CaptureReplay replay;
  ui::build_capture_replay(model, capture, {}, last, ui::ReplayQuantity::Residual, replay);
  REQUIRE(static_cast<int>(replay.marks.size()) == model.distance_count);
  const sim::CapturedIterate& it = capture.iterates.back();
  for (int d = 0; d < model.distance_count; ++d) {
    const ui::ReplayMark& m = replay.marks[static_cast<std::size_t>(d)];
    CHECK(m.distance == d);
    CHECK(m.contact == -1);
    CHECK(m.joint == -1);
    // Its value is its row's residual.
    REQUIRE(m.worst_row >= 0);
    CHECK(capture.rows.kind[static_cast<std::size_t>(m.worst_row)] == 0);
    CHECK(capture.rows.source[static_cast<std::size_t>(m.worst_row)] == d);
    CHECK(m.value == std::abs(double(it.residual[static_cast<std::size_t>(m.worst_row)])));
  }
  // Bilateral: always active, no complementarity (grey).
  ui::build_capture_replay(model, capture, {}, last, ui::ReplayQuantity::ActiveSet, replay);
  for (const ui::ReplayMark& m : replay.marks) CHECK(m.state == ui::ReplayState::Active);
  ui::build_capture_replay(model, capture, {}, last, ui::ReplayQuantity::Complementarity, replay);
  for (const ui::ReplayMark& m : replay.marks) CHECK(m.worst_row == -1);

  // In the overlay: at the midpoint of the two particles as the step began.
  render::ContactOverlay overlay;
  CHECK(fill_replay_overlay(model, capture, {}, replay, overlay).empty());
  REQUIRE(overlay.mark_point.size() == replay.marks.size());
  for (int d = 0; d < model.distance_count; ++d) {
    const sim::Vec3 a(capture.start.q[3 * std::size_t(d)], capture.start.q[3 * std::size_t(d) + 1],
                      capture.start.q[3 * std::size_t(d) + 2]);
    const sim::Vec3 b(capture.start.q[3 * std::size_t(d + 1)], capture.start.q[3 * std::size_t(d + 1) + 1],
                      capture.start.q[3 * std::size_t(d + 1) + 2]);
    const sim::Vec3 mid = 0.5 * (a + b);
    CHECK(glm::length(overlay.mark_point[std::size_t(d)] - glm::vec3(float(mid.x()), float(mid.y()), float(mid.z()))) < 1e-6f);
    const sim::Vec3& f = replay.distance_force[std::size_t(d)];
    CHECK(overlay.mark_force[std::size_t(d)] == glm::vec3(float(f.x()), float(f.y()), float(f.z())));
  }
  // The free particles fell since the start: the start, not the live state.
  CHECK(run.state.q[3 * (kParticles - 1) + 2] < capture.start.q[3 * (kParticles - 1) + 2]);
}

TEST_CASE("replay: a hanging rope's distance rows pull each particle up by the weight below it", "[capture][replay]") {
  // Six particles 10 cm apart hanging straight down from a fixed one, at rest in equilibrium:
  // distance row d (particles d above, d + 1 below) carries the weight of the particles from
  // d + 1 down, (5 − d) m g, and its arrow (CaptureReplay::distance_force, the force on particle
  // b = d + 1) points up at that size.
  constexpr int kParticles = 6;
  constexpr double kMass = 0.05, kG = 9.81;
  sim::SceneSpec spec = rope_spec(kParticles, kMass, sim::Vec3(0, 0, 2), sim::Vec3(0, 0, -0.1));
  spec.gravity = sim::Vec3(0, 0, -kG);
  const sim::Model model = test::compile(spec);
  const CapturedRun run = capture_after(model, 20);
  ui::CaptureReplay replay;
  ui::build_capture_replay(model, run.capture, {}, static_cast<int>(run.capture.iterates.size()) - 1,
                           ui::ReplayQuantity::Residual, replay);
  REQUIRE(static_cast<int>(replay.distance_force.size()) == model.distance_count);
  double largest = 0;
  for (int d = 0; d < model.distance_count; ++d) {
    INFO("distance row " << d);
    const sim::Vec3& f = replay.distance_force[std::size_t(d)];
    const double weight_below = (kParticles - 1 - d) * kMass * kG;
    CHECK(f.z() == Approx(weight_below).epsilon(0.01));
    CHECK(std::hypot(f.x(), f.y()) < 1e-6 * weight_below);
    largest = std::max(largest, double(f.norm()));
  }
  CHECK(replay.largest_force == Approx(largest));
  CHECK(largest == Approx((kParticles - 1) * kMass * kG).epsilon(0.01));
}

TEST_CASE("replay: a soft body's tets get one mark each, at the mean of their free corners", "[capture][replay][fem]") {
  // A 2 × 1 × 1 cell Neo-Hookean block falling freely (no contacts): every bilateral row is a tet
  // row, seven per tet; one corner pinned, so the tets that hold it have three free corners.
  sim::SceneSpec spec;
  spec.dt = 0.01;
  sim::SoftMaterialSpec material;
  material.youngs_modulus = 1e5;
  material.poisson_ratio = 0.3;
  material.density = 1000;
  std::string error;
  const int first = sim::add_soft_body(spec, sim::box_tet_mesh(sim::Vec3(0.2, 0.1, 0.1), 2, 1, 1), material,
                                       sim::SoftBodyPlacement{}, "block", error);
  INFO(error);
  REQUIRE(first >= 0);
  spec.particles[static_cast<std::size_t>(first)].mass = 0;
  const sim::Model model = test::compile(spec);
  REQUIRE(model.tet_count > 0);
  const CapturedRun run = capture_after(model, 3);
  const sim::SolveCapture& capture = run.capture;
  const int last = static_cast<int>(capture.iterates.size()) - 1;
  const sim::CapturedIterate& it = capture.iterates.back();

  ui::CaptureReplay replay;
  ui::build_capture_replay(model, capture, {}, last, ui::ReplayQuantity::Residual, replay);
  REQUIRE(static_cast<int>(replay.marks.size()) == model.tet_count);
  REQUIRE(capture.rows.count() == 7 * model.tet_count);
  for (int t = 0; t < model.tet_count; ++t) {
    const ui::ReplayMark& m = replay.marks[static_cast<std::size_t>(t)];
    INFO("tet " << t);
    CHECK(m.element == 7 * t);  // its first row
    CHECK(m.contact == -1);
    CHECK(m.joint == -1);
    CHECK(m.distance == -1);
    // Its value is the largest residual of its seven rows.
    double largest = 0;
    for (int r = 7 * t; r < 7 * t + 7; ++r) largest = std::max(largest, std::abs(double(it.residual[std::size_t(r)])));
    REQUIRE(m.worst_row >= 7 * t);
    CHECK(m.worst_row < 7 * t + 7);
    CHECK(m.value == largest);
  }
  ui::build_capture_replay(model, capture, {}, last, ui::ReplayQuantity::ActiveSet, replay);
  for (const ui::ReplayMark& m : replay.marks) CHECK(m.state == ui::ReplayState::Active);

  // In the overlay: at the mean of the tet's free corners as the step began, with no arrow.
  render::ContactOverlay overlay;
  CHECK(fill_replay_overlay(model, capture, {}, replay, overlay).empty());
  REQUIRE(overlay.mark_point.size() == replay.marks.size());
  int with_pinned = 0;
  for (int t = 0; t < model.tet_count; ++t) {
    sim::Vec3 mean = sim::Vec3::Zero();
    int free = 0;
    for (int k = 0; k < 4; ++k) {
      const int p = model.tet_particle[std::size_t(4 * t + k)];
      if (model.particle_inv_mass[std::size_t(p)] == 0) continue;
      const std::size_t at = 3 * std::size_t(p);
      mean += sim::Vec3(capture.start.q[at], capture.start.q[at + 1], capture.start.q[at + 2]);
      ++free;
    }
    with_pinned += free < 4;
    mean /= free;
    CHECK(glm::length(overlay.mark_point[std::size_t(t)] - glm::vec3(float(mean.x()), float(mean.y()), float(mean.z()))) <
          1e-6f);
    CHECK(overlay.mark_force[std::size_t(t)] == glm::vec3(0.0f));
  }
  CHECK(with_pinned > 0);
}
