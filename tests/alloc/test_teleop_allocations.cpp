// What runs with every step on the simulation thread allocates nothing once warm (the project's
// rule for the step loop): the teleoperation update, and the history scrubber's recording once its
// budget is full. Its own executable: it replaces the global
// operator new with a counting one, which must not leak into the main test binary.
// GCC pairs the replaced operator new with the free() in the replaced delete and warns; they match.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "gui/capture_ring.hpp"
#include "gui/state_history.hpp"
#include "gui/teleop_session.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/step.hpp"

namespace {
std::atomic<long> allocations{0};
std::atomic<bool> counting{false};
// COULOMB_ALLOC_ABORT=1: abort at the first allocation a no-allocation loop counts (gdb: `bt`).
std::atomic<bool> abort_on_allocation{false};
}  // namespace

void* operator new(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (abort_on_allocation.load(std::memory_order_relaxed)) std::abort();
  }
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST_CASE("the teleoperation session's per-step update allocates nothing once warm", "[teleop][alloc]") {
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/workcell.xml");
  REQUIRE(spec.ok());
  auto compiled = sim::compile_model(spec.value());
  REQUIRE(compiled.ok());
  const sim::Model& m = compiled.value();
  const sim::State state = sim::make_initial_state(m);
  sim::Control control = sim::make_initial_control(m);
  coulomb::gui::TeleopSession session;
  // A workspace with the contacts of a few steps: the contact force watch reads them.
  sim::Workspace workspace;
  {
    sim::State stepped = state;
    for (int i = 0; i < 5; ++i) sim::step(m, stepped, control, workspace);
  }
  REQUIRE(session.start(m, state, coulomb::gui::default_teleop_setup(m)));
  sim::TeleopCommand command;
  command.linear_velocity = sim::Vec3(0.1, -0.05, 0.02);
  command.angular_velocity = sim::Vec3(0, 0, 0.3);
  session.set_command(command);
  session.update(m, state, &workspace, m.dt, control);  // warm-up: sizes the IK buffers
  coulomb::gui::TeleopStatus status;
  session.write_status(m, state, status);

  // The counter sees allocations: the allocating IK API makes some.
  counting = true;
  { auto r = sim::solve_ik(m, state, status.end_effector >= 0 ? sim::IkTarget{status.end_effector} : sim::IkTarget{}); }
  counting = false;
  CHECK(allocations.load() > 0);

  allocations = 0;
  counting = true;
  for (int i = 0; i < 200; ++i) {
    if (i == 100) session.toggle_gripper();
    session.update(m, state, &workspace, m.dt, control);
    session.write_status(m, state, status);
  }
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(status.gripper_closed);
}

TEST_CASE("the history records every step without allocating once its budget is full", "[history][alloc]") {
  // Jointed pendulums: every state has the same size (no contacts come and go), so a slot that is
  // reused never has to grow; a state with more contacts than its slot held allocates that once.
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/pendulum.xml");
  REQUIRE(spec.ok());
  auto compiled = sim::compile_model(spec.value());
  REQUIRE(compiled.ok());
  const sim::Model& m = compiled.value();
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace workspace;
  std::vector<sim::State> states;
  for (int i = 0; i < 400; ++i) {
    sim::step(m, state, control, workspace);
    states.push_back(state);
  }

  // A budget of about 50 entries: the first 100 pushes fill it (the ring grows), the next 300
  // reuse the dropped entries' slots.
  coulomb::gui::StateHistory history(50 * coulomb::gui::history_entry_bytes(state, control));
  for (int i = 0; i < 100; ++i) history.push(states[std::size_t(i)], control);
  REQUIRE(history.size() < 100);
  allocations = 0;
  counting = true;
  for (int i = 100; i < 400; ++i) history.push(states[std::size_t(i)], control);
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(history.size() >= 40);
  CHECK(history.bytes() <= history.budget());
  CHECK(history.at(history.size() - 1).state.time == states.back().time);
  CHECK(history.at(0).state.time == states[400 - history.size()].time);
}

TEST_CASE("a continuous capture ring reuses its slots: capturing every step allocates nothing once warm", "[capture][alloc]") {
  // The pendulum: every solve has the same rows, so a slot that held one solve holds the next.
  auto spec = sim::load_scene_file(std::string(COULOMB_SOURCE_DIR) + "/assets/scenes/pendulum.xml");
  REQUIRE(spec.ok());
  auto compiled = sim::compile_model(spec.value());
  REQUIRE(compiled.ok());
  const sim::Model& m = compiled.value();
  sim::State state = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace workspace;
  coulomb::gui::CaptureRing ring;
  coulomb::gui::CaptureTriggers triggers;
  triggers.continuous = true;
  triggers.ring_size = 4;
  ring.configure(triggers);
  std::vector<ui::CaptureSummary> listed;
  const auto step = [&] {
    workspace.capture = ring.begin_step();
    const sim::StepReport report = sim::step(m, state, control, workspace);
    workspace.capture = nullptr;
    ring.end_step(report, workspace.trace, workspace.contacts.contacts);
    ring.summaries(listed);
    return report.ok();
  };
  // The largest solve so far (Newton iterates, linear residuals): the ring gives every slot room
  // for it, so a step allocates only when its solve is larger than every one before.
  std::size_t most_iterates = 0, most_linear = 0;
  const auto larger = [&] {
    const sim::SolveCapture& c = ring.find(ring.newest_id())->capture;
    const bool grew = c.iterates.size() > most_iterates || c.linear_residuals.size() > most_linear;
    most_iterates = std::max(most_iterates, c.iterates.size());
    most_linear = std::max(most_linear, c.linear_residuals.size());
    return grew;
  };
  // Warm-up: the first solves size the slots.
  for (int i = 0; i < 20; ++i) {
    REQUIRE(step());
    larger();
  }
  // The counter sees a capture's allocations: a fresh capture of one step makes some.
  allocations = 0;
  counting = true;
  {
    sim::SolveCapture fresh;
    sim::State s = state;
    workspace.capture = &fresh;
    sim::step(m, s, control, workspace);
    workspace.capture = nullptr;
  }
  counting = false;
  CHECK(allocations.load() > 0);

  int allocating = 0, larger_steps = 0;
  abort_on_allocation = std::getenv("COULOMB_ALLOC_ABORT") != nullptr;
  for (int i = 0; i < 300; ++i) {
    allocations = 0;
    counting = true;
    step();
    counting = false;
    const bool grew = larger();
    larger_steps += grew ? 1 : 0;
    if (allocations.load() > 0) {
      ++allocating;
      INFO("step " << i << ": " << allocations.load() << " allocations, " << most_iterates << " iterates, " << most_linear
                   << " linear residuals");
      CHECK(grew);  // only a solve larger than every one before may allocate
    }
  }
  abort_on_allocation = false;
  CHECK(allocating <= larger_steps);
  CHECK(larger_steps < 10);
  CHECK(ring.size() == 4);
  CHECK(listed.size() == 4);
  CHECK(ring.bytes() < 4 * 1024 * 1024);  // bounded: 5 slots of a pendulum's solve
}
