// The bodies and particles under a replayed Solve capture (issue 15): while the replay is shown
// and the run paused, the poses the viewport hands the renderer (PoseBridge into its pose
// buffer) are the capture's start State's, not the live state the run stepped on to; the
// simulation thread's writes do not replace them meanwhile; closing the replay (or playing)
// brings the live state back even without a new step.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "gui/capture_replay_overlay.hpp"
#include "gui/pose_bridge.hpp"
#include "support/scene_builders.hpp"

using namespace coulomb::gui;

namespace {

// A host-memory pose sink: what was published last.
class RecordingSink final : public render::PoseSink {
 public:
  RecordingSink(int bodies, int particles)
      : bodies_(bodies), particles_(particles), slot_(render::pose_float_count(bodies, particles)) {}
  int body_count() const override { return bodies_; }
  int particle_count() const override { return particles_; }
  float* data() override { return slot_.data(); }
  void publish() override { published = slot_; }
  std::vector<float> published;

 private:
  int bodies_, particles_;
  std::vector<float> slot_;
};

std::vector<float> poses_of(const sim::Model& model, const sim::State& state) {
  std::vector<float> out(render::pose_float_count(model.body_count, model.particle_count));
  render::write_poses(model, state.q, out.data());
  return out;
}

}  // namespace

TEST_CASE("while a capture is replayed the renderer gets its start State's poses, and the live ones after", "[capture][replay]") {
  // A box sliding on the ground, a pendulum swinging and two falling particles on a rod: all
  // move between the captured step and the live state 30 steps on.
  sim::SceneSpec spec = test::particle_pair(0.005, sim::Vec3(3, 0, 2), sim::Vec3(3, 0.3, 2));
  const int material = test::add_material(spec, "m", 0.3);
  spec.world_shapes.push_back(test::ground_plane(material));
  const int box = test::add_body(spec, "box", sim::Vec3(0, 0, 0.1), 2.0, test::box_shape(sim::Vec3(0.2, 0.1, 0.1), material));
  spec.bodies[static_cast<std::size_t>(box)].linear_velocity = sim::Vec3(2, 0, 0);
  test::add_hinged_pendulum(spec, sim::Vec3(0, -3, 2), 0.5, 0.6, 1.0, test::sphere_shape(0.05));
  const sim::Model model = test::compile(spec);
  REQUIRE(model.particle_count == 2);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  sim::SolveCapture capture;

  RecordingSink sink(model.body_count, model.particle_count);
  PoseBridge bridge;
  bridge.attach(&sink);
  std::uint64_t sequence = 0;
  // The simulation thread: a step, then its pose hook writes the published state.
  auto step = [&](bool capturing) {
    ws.capture = capturing ? &capture : nullptr;
    REQUIRE(sim::step(model, state, control, ws).ok());
    ws.capture = nullptr;
    bridge.write(model, state, ++sequence);
  };
  for (int i = 0; i < 20; ++i) step(false);
  step(true);
  REQUIRE(capture.filled);
  for (int i = 0; i < 30; ++i) step(false);
  const std::vector<float> live = poses_of(model, state), start = poses_of(model, capture.start);
  REQUIRE(sink.published == live);
  // The start differs from the live state in every body and particle (all moved).
  for (int b = 0; b < model.body_count; ++b)
    CHECK((state.body_position(b) - capture.start.body_position(b)).norm() > 1e-3);
  for (int p = 0; p < model.particle_count; ++p) {
    const std::size_t at = 7 * static_cast<std::size_t>(model.body_count) + 3 * static_cast<std::size_t>(p);
    CHECK(std::abs(state.q[at + 2] - capture.start.q[at + 2]) > 1e-3);  // fell
  }

  // A frame while the run plays: the live state, replay or not.
  write_frame_poses(bridge, model, state, sequence, replay_pose_state(model, &capture, true, true));
  CHECK(sink.published == live);
  CHECK_FALSE(bridge.held());

  // Paused with the replay shown: the capture's start State, exactly.
  const sim::State* replayed = replay_pose_state(model, &capture, true, false);
  REQUIRE(replayed == &capture.start);
  write_frame_poses(bridge, model, state, sequence, replayed);
  CHECK(sink.published == start);
  CHECK(sink.published != live);
  CHECK(bridge.held());
  // The simulation thread publishing meanwhile (a history seek) does not replace it; the next
  // frame holds it still.
  step(false);
  CHECK(sink.published == start);
  write_frame_poses(bridge, model, state, sequence, replayed);
  CHECK(sink.published == start);

  // The replay switched off (or the capture closed: no capture): the live state, although the
  // simulation wrote nothing newer.
  CHECK(replay_pose_state(model, &capture, false, false) == nullptr);
  CHECK(replay_pose_state(model, nullptr, true, false) == nullptr);
  write_frame_poses(bridge, model, state, sequence, replay_pose_state(model, &capture, false, false));
  CHECK_FALSE(bridge.held());
  CHECK(sink.published == poses_of(model, state));
  // And the run resumed: each step's state as before, an older one never.
  step(false);
  CHECK(sink.published == poses_of(model, state));
  const std::vector<float> newest = sink.published;
  CHECK_FALSE(bridge.write(model, capture.start, sequence - 1));
  CHECK(sink.published == newest);

  // A capture of another model's size is not drawn in this one.
  sim::SolveCapture other = capture;
  other.start.q.pop_back();
  CHECK(replay_pose_state(model, &other, true, false) == nullptr);
}
