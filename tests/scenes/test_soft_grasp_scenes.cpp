// The paper's soft grasping scenes (issue 14 items 7 and 8; Fig. 1, Table 2): the PneuNet gripper
// inflates its chambers (active pressure) and lifts a 0.32 kg ball; the Allegro hand squeezes a
// soft ball and holds it with gravity turned over; Fetch, driven by the teleoperation controller,
// holds a soft tomato 5 s without slip and places it on the mechanical scale, which reads its
// mass. The robot scenes skip (reported as skipped) without ../shared/robots.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "constraint/joint_rows.hpp"
#include "core/kinematics.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"
#include "sim/teleoperation.hpp"
#include "support/model_names.hpp"
#include "support/scene_builders.hpp"
#include "support/shared_robots.hpp"
#include "support/shipped_run.hpp"
#include "support/soft_body_measures.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// The centroid of particles [first, last).
Vec3 centroid(const sim::Model& m, const sim::State& s, int first, int last) {
  Vec3 c = Vec3::Zero();
  for (int p = first; p < last; ++p) c += test::particle(m, s, p);
  return c / Real(last - first);
}

// Steps, counting the steps that failed (the state then stays where it was).
struct Runner {
  const sim::Model& m;
  sim::State s;
  sim::Control c;
  sim::Workspace ws;
  int failed = 0, unconverged = 0;
  explicit Runner(const sim::Model& model) : m(model), s(sim::make_initial_state(model)), c(sim::make_initial_control(model)) {}
  void step() {
    const sim::StepReport r = sim::step(m, s, c, ws);
    if (!r.ok()) ++failed;
    if (r.warnings & sim::kStepNotConverged) ++unconverged;
  }
  void run(Real seconds) {
    for (int i = 0, n = static_cast<int>(std::lround(seconds / m.dt)); i < n; ++i) step();
  }
};

}  // namespace

// The paper's E 0.01 GPa, active stress 40 MPa (p/lambda = 0.75 of volumetric strain), damping
// 0.02 s. Until the box meshes' cells were mirrored (sim/src/fem/soft_body.cpp) the fingers, one
// chiral Kuhn pattern throughout, twisted sideways round the palm's axis instead of curling
// inwards, touched the ball without squeezing it and slid off. Run with `coulomb_tests "[pneunet]"`.
TEST_CASE("PneuNet: inflating the chambers closes the soft fingers round the ball, which the palm lifts",
          "[scene][fem][actuation][pneunet]") {
  const sim::Model m = test::load_shipped_model("pneunet");
  REQUIRE(m.soft_group_count == 1);
  REQUIRE(m.attachment_count == 3 * 9);
  const int ball = test::body_index(m, "ball"), palm = test::body_index(m, "palm"), lift = test::joint_index(m, "lift");
  Runner r(m);
  const Real pressure = r.c.soft_pressure[0];
  REQUIRE(pressure > 0);
  const Real z0 = r.s.body_position(ball).z();
  // Inflate over 0.5 s and let the fingers close (0.5 s).
  const int ramp = static_cast<int>(std::lround(0.5 / m.dt));
  for (int i = 0; i <= ramp; ++i) {
    r.c.soft_pressure[0] = pressure * i / ramp;
    r.step();
  }
  r.run(0.5);
  Real chamber = 0, chamber_rest = 0;
  for (int t = 0; t < m.tet_count; ++t)
    if (m.tet_group[t] == 0) {
      chamber += test::body_volume(m, r.s, nullptr, t, t + 1);
      chamber_rest += m.tet_volume[t];
    }
  // Lift the palm 0.1 m over 1 s, then hold 2 s.
  const int lift_steps = static_cast<int>(std::lround(1.0 / m.dt));
  for (int i = 1; i <= lift_steps; ++i) {
    r.c.joint_target[lift] = Real(0.1) * i / lift_steps;
    r.step();
  }
  r.run(0.5);
  const Real held = r.s.body_position(ball).z() - r.s.body_position(palm).z();
  r.run(2.0);
  const Real raised = r.s.body_position(ball).z() - z0;
  std::printf("PneuNet: palm at %.4f m (target +0.1 from 0.13)\n", r.s.body_position(palm).z());
  const Real slip = std::abs(r.s.body_position(ball).z() - r.s.body_position(palm).z() - held);
  std::printf("PneuNet: chamber volume ratio %.3f; ball raised %.4f m, slid %.4f m in the hand over 2 s; %d failed, "
              "%d unconverged steps\n",
              chamber / chamber_rest, raised, slip, r.failed, r.unconverged);
  CHECK(r.failed == 0);
  CHECK(chamber / chamber_rest > 1.1);  // inflated
  CHECK(raised > 0.08);                 // lifted with the palm (0.1 m)
  CHECK(slip < 0.005);                  // and held, not dropped
}

TEST_CASE("Allegro ball: the curled fingers squeeze the soft ball and hold it with gravity turned over",
          "[scene][fem][allegro]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir().string() << " is absent (Allegro hand)");
    return;
  }
  sim::Model m = test::load_shipped_model("allegro_ball");
  REQUIRE(m.tet_count > 0);
  const int first = m.tet_particle[0];
  const int last = m.particle_count;
  Runner r(m);
  r.run(0.5);  // the ball settles in the palm
  const Real v0 = test::body_volume(m, r.s) / test::rest_volume(m);
  // The synergy: every flexion joint 80 % of the way from its target to its far limit, over 0.5 s.
  std::vector<int> flex;
  for (int j = 0; j < m.joint_count; ++j) {
    const std::string& name = m.joint_name[j];
    if (m.joint_drive[j] == sim::DriveMode::None || !m.joint_limited[j]) continue;
    if (name == "joint_0.0" || name == "joint_4.0" || name == "joint_8.0" || name == "joint_12.0") continue;  // spread
    flex.push_back(j);
  }
  REQUIRE(flex.size() == 12);
  std::vector<Real> open(flex.size()), closed(flex.size());
  for (std::size_t k = 0; k < flex.size(); ++k) {
    const int j = flex[k];
    open[k] = r.c.joint_target[j];
    const Real far = std::abs(m.joint_upper[j]) > std::abs(m.joint_lower[j]) ? m.joint_upper[j] : m.joint_lower[j];
    closed[k] = open[k] + Real(0.8) * (far - open[k]);
  }
  const int ramp = static_cast<int>(std::lround(0.5 / m.dt));
  for (int i = 1; i <= ramp; ++i) {
    for (std::size_t k = 0; k < flex.size(); ++k) r.c.joint_target[flex[k]] = open[k] + (closed[k] - open[k]) * i / ramp;
    r.step();
  }
  r.run(1.0);
  Real smallest = 0;
  const Real squeezed = test::body_volume(m, r.s, &smallest) / test::rest_volume(m);
  const Vec3 held = centroid(m, r.s, first, last);
  // Palm down, in effect: gravity turned over pulls the ball out of the palm; only the fingers hold it.
  m.gravity = -m.gravity;
  r.run(2.0);
  const Vec3 after = centroid(m, r.s, first, last);
  std::printf("Allegro ball: volume ratio %.4f settled, %.4f squeezed (smallest tet %.3g m^3); with gravity turned over "
              "the ball moved %.4f m; %d failed, %d unconverged steps\n",
              v0, squeezed, smallest, (after - held).norm(), r.failed, r.unconverged);
  CHECK(r.failed == 0);
  CHECK(smallest > 0);
  CHECK(squeezed < v0 - 0.01);            // squeezed: the volume went down
  CHECK((after - held).norm() < 0.02);    // held against gravity, not dropped
}

namespace {

// Fetch's hand: the gripper link driven at the centre of its two fingers, closing them.
struct FetchHand {
  int hand = -1;
  std::vector<int> fingers;       // joints
  std::vector<int> finger_bodies;
  Vec3 point = Vec3::Zero();
};

FetchHand fetch_hand(const sim::Model& m, const sim::State& s) {
  FetchHand h;
  h.fingers = {test::joint_index(m, "l_gripper_finger_joint"), test::joint_index(m, "r_gripper_finger_joint")};
  h.hand = m.joint_body_a[h.fingers[0]];  // the gripper (fixed links are merged into their parents on import)
  Vec3 centre = Vec3::Zero();
  for (int j : h.fingers) {
    const int b = m.joint_body_b[j];
    h.finger_bodies.push_back(b);
    centre += (s.body_pose(b) * m.body_frame_in_com[b]).pos / 2;
  }
  h.point = (s.body_pose(h.hand) * m.body_frame_in_com[h.hand]).apply_inverse(centre);
  return h;
}

}  // namespace

// Passes since the FEM rows are condensed into the particles' mass block (solver/
// elastic_condensation.hpp); before, the plain Schur system's PCR left the tomato's elastic rows
// unsolved and the lift did not reach its goal. Measured: lifted 0.142 m, slip in the hand over
// 5 s 0.77 mm, the scale reads 0.1345 kg for 0.1344 kg (0.04 %). About 100 s of CPU.
TEST_CASE("Fetch tomato: the teleoperated gripper holds the soft tomato 5 s without slip and the scale reads its mass",
          "[scene][fem][fetch][teleop]") {
  if (!test::shared_robots_available()) {
    WARN("skipped: " << test::shared_robots_dir().string() << " is absent (Fetch)");
    return;
  }
  const sim::Model m = test::load_shipped_model("fetch_tomato");
  Runner r(m);
  const FetchHand h = fetch_hand(m, r.s);
  auto created = sim::TeleopController::create(m, r.s, h.hand, h.point, h.fingers);
  INFO((created.ok() ? std::string() : created.error()));
  REQUIRE(created.ok());
  sim::TeleopController ctl = std::move(created.value());
  const int first = m.tet_particle[0], last = m.particle_count;
  Real tomato_mass = 0;
  for (int p = first; p < last; ++p) tomato_mass += 1 / m.particle_inv_mass[p];
  const int platform = test::body_index(m, "platform"), needle = test::joint_index(m, "needle_pivot");
  auto needle_angle = [&] {
    sim::Configuration c;
    c.assign(m, r.s.q.data());
    return sim::joint_coordinate(m, needle, c).value;
  };
  sim::TeleopCommand command;
  auto step = [&] {
    ctl.update(m, r.s, &r.ws, command, m.dt, r.c);
    command.gripper = 0;
    r.step();
  };
  auto until = [&](auto done, Real seconds) {
    for (int i = 0, n = static_cast<int>(seconds / m.dt); i < n && !done(); ++i) step();
    return done();
  };
  auto wait = [&](Real seconds) { until([] { return false; }, seconds); };
  auto hand_at = [&] { return ctl.feedback().effector_position; };
  const sim::Quat down = ctl.target().orientation;  // the gripper hangs pointing down: keep it so
  auto go = [&](const Vec3& goal, Real tolerance, Real seconds) {
    ctl.set_goal(goal, down);
    return until([&] { return !ctl.has_goal() && (hand_at() - goal).norm() < tolerance; }, seconds);
  };
  wait(1.0);  // the tomato settles on the table, the scale under its platform's weight
  const Real empty = needle_angle();
  const Vec3 tomato = centroid(m, r.s, first, last);
  // Above the tomato, down to its centre, close.
  CHECK(go(tomato + Vec3(0, 0, 0.12), 0.01, 15));
  CHECK(go(tomato + Vec3(0, 0, 0.005), 0.01, 10));
  command.gripper = 1;
  wait(1.0);
  // Lift 15 cm and hold 5 s: slip relative to the fingers.
  CHECK(go(tomato + Vec3(0, 0, 0.15), 0.01, 10));
  wait(0.5);
  auto in_hand = [&]() -> Vec3 {
    const Vec3 a = r.s.body_position(h.finger_bodies[0]), b = r.s.body_position(h.finger_bodies[1]);
    return centroid(m, r.s, first, last) - Real(0.5) * (a + b);
  };
  const Vec3 grip0 = in_hand();
  Real slip = 0;
  for (int i = 0, n = static_cast<int>(5.0 / m.dt); i < n; ++i) {
    step();
    slip = std::max(slip, (in_hand() - grip0).norm());
  }
  const Real lifted = centroid(m, r.s, first, last).z() - tomato.z();
  // Over the platform, down until the tomato touches it, open, up and away.
  const Vec3 platform_top = r.s.body_position(platform) + Vec3(0, 0, 0.01);
  const Vec3 offset = centroid(m, r.s, first, last) - hand_at();
  CHECK(go(Vec3(platform_top.x(), platform_top.y(), hand_at().z()) - Vec3(offset.x(), offset.y(), 0), 0.01, 15));
  const Real radius = 0.0325 + 0.003;
  auto touches = [&] {
    Real low = 1e9;
    for (int p = first; p < last; ++p) low = std::min(low, test::particle(m, r.s, p).z());
    return low - 0.003 <= r.s.body_position(platform).z() + 0.01 + 0.002;
  };
  ctl.set_goal(hand_at() - Vec3(0, 0, 0.3), down);  // down at the approach speed until it touches
  CHECK(until(touches, 10));
  ctl.cancel_goal();
  command.gripper = -1;
  wait(1.0);
  CHECK(go(hand_at() + Vec3(0, 0, 0.15), 0.02, 10));
  wait(3.0);  // the scale settles
  const Real loaded = needle_angle();
  const Real k = 500, arm = 0.1, g = 9.81;
  const Real reading = k * arm * (std::sin(empty) - std::sin(loaded)) / g;
  const Vec3 placed = centroid(m, r.s, first, last);
  std::printf("Fetch tomato (%.4f kg, %d tets): lifted %.4f m, slip in the hand over 5 s %.3g mm; placed at "
              "(%.3f %.3f %.3f), platform at (%.3f %.3f); scale reads %.4f kg (%.2f %%); %d failed, %d unconverged steps\n",
              tomato_mass, m.tet_count, lifted, 1000 * slip, placed.x(), placed.y(), placed.z(),
              r.s.body_position(platform).x(), r.s.body_position(platform).y(), reading,
              100 * (reading - tomato_mass) / tomato_mass, r.failed, r.unconverged);
  CHECK(r.failed == 0);
  CHECK(lifted > 0.1);
  CHECK(slip < 0.002);
  CHECK(std::abs(placed.x() - r.s.body_position(platform).x()) < 0.1);
  CHECK(std::abs(placed.y() - r.s.body_position(platform).y()) < 0.1);
  CHECK(placed.z() == Approx(r.s.body_position(platform).z() + 0.01 + radius).margin(0.01));
  CHECK(reading == Approx(tomato_mass).epsilon(0.03));
}
