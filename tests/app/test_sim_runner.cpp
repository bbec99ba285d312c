// The simulation thread (app/gui/sim_runner.hpp): it keeps publishing snapshots, paces to the
// wall clock, never makes the reader wait (even during a deliberately slow step), applies
// parameter patches and structural edits between steps; plus the property path's patches
// matching a recompile, picking and the grab spring. No Qt needed.
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <tbb/global_control.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "app/sim_runner_support.hpp"
#include "gui/grab_spring.hpp"
#include "gui/picking.hpp"
#include "gui/scene_properties.hpp"
#include "sim/recompile.hpp"
#include "sim/compile.hpp"
#include "sim/recording.hpp"
#include "sim/scene_io.hpp"

using namespace coulomb::gui;
using namespace runner_test;
using Clock = std::chrono::steady_clock;

namespace {

// Distance the incline's box moved from its start.
double box_travel(const Snapshot& s) {
  return (s.state.body_position(0) - s.model->body_initial_pose[0].pos).norm();
}

}  // namespace

TEST_CASE("the simulation thread publishes snapshots and paces to the wall clock", "[app][runner]") {
  SimRunner runner;
  CHECK(runner.latest().sequence == 0);
  const Loaded scene = load("incline");
  runner.load(scene.spec, scene.model);
  REQUIRE(wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  CHECK(runner.latest().state.step_index == 0);
  CHECK_FALSE(runner.latest().stepped);

  SECTION("real time: about one simulated second per wall second, snapshots all along") {
    runner.set_real_time(true);
    runner.set_playing(true);
    const auto start = Clock::now();
    std::uint64_t last = 0;
    int fresh = 0;
    while (Clock::now() - start < std::chrono::milliseconds(1000)) {
      const Snapshot& s = runner.latest();
      if (s.sequence != last) ++fresh;
      last = s.sequence;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    const Snapshot& s = runner.latest();
    INFO("simulated " << s.state.time << " s in " << wall << " s wall");
    CHECK(s.state.time > 0.7 * wall);
    CHECK(s.state.time < 1.1 * wall + 0.05);
    CHECK(fresh > 50);  // ~100 polls, most of them see a new step
    CHECK(s.playing);
    CHECK(s.stepped);
    CHECK(s.report.ok());
    CHECK_FALSE(s.workspace.trace.iterations.empty());  // the solve measured its residuals
    CHECK(s.workspace.contacts.size() > 0);  // the box rests on the plane
    CHECK(s.real_time_factor > 0.5);
    CHECK(s.real_time_factor < 1.5);
    runner.set_playing(false);
    REQUIRE(wait_for(runner, [](const Snapshot& x) { return !x.playing; }));
  }

  SECTION("as fast as possible, single steps and reset") {
    run_steps(runner, 7);
    CHECK(runner.latest().state.time == Approx(7 * scene.model->dt));
    runner.set_real_time(false);
    runner.set_playing(true);
    REQUIRE(wait_for(runner, [](const Snapshot& s) { return s.state.step_index > 200; }));
    runner.set_playing(false);
    runner.reset();
    REQUIRE(wait_for(runner, [](const Snapshot& s) { return !s.playing && s.state.step_index == 0; }));
    CHECK(runner.latest().state.time == 0);
    CHECK(runner.latest().state.q == sim::make_initial_state(*scene.model).q);
  }
}

TEST_CASE("reading snapshots never waits for a slow step", "[app][runner]") {
  // The pyramid (210 boxes) with a large iteration budget: one step takes a good fraction of a
  // second, during which the reader polls (at ~2 kHz, like a busy UI) and queues requests.
  // The solver runs on one core, as on a desktop where the UI has another.
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  const Loaded scene = load("pyramid", [](sim::SceneSpec& s) {
    s.solver.newton_iterations = 20;
    s.solver.linear_iterations = 200;
  });
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  REQUIRE(wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
  runner.set_real_time(false);
  runner.set_playing(true);

  // A call that waited would sleep in the kernel: a voluntary context switch of this thread. A
  // call that was merely preempted (the machine is shared) shows an involuntary one instead; its
  // wall time says nothing about the code and is left out of the timing.
  auto switches = [] {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return std::make_pair(u.ru_nvcsw, u.ru_nivcsw);
  };
  long waits_in_reads = 0;
  double worst_read_ms = 0, worst_request_ms = 0;
  int preempted = 0;
  std::uint64_t reads_during_steps = 0;
  const std::uint64_t first = runner.published_count();
  const auto start = Clock::now();
  while (Clock::now() - start < std::chrono::milliseconds(2500)) {
    const auto before = switches();
    const auto t0 = Clock::now();
    const Snapshot& s = runner.latest();
    const auto t1 = Clock::now();
    const auto middle = switches();
    runner.set_joint_target(0, 0.0);  // a queued request (the pyramid has no joints: ignored)
    const auto t2 = Clock::now();
    const auto after = switches();
    waits_in_reads += middle.first - before.first;
    if (middle.second == before.second)
      worst_read_ms = std::max(worst_read_ms, std::chrono::duration<double, std::milli>(t1 - t0).count());
    else
      ++preempted;
    if (after.second == middle.second)
      worst_request_ms = std::max(worst_request_ms, std::chrono::duration<double, std::milli>(t2 - t1).count());
    if (runner.stepping()) ++reads_during_steps;
    REQUIRE(s.model != nullptr);
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  const std::uint64_t published = runner.published_count() - first;
  const Snapshot& last = runner.latest();
  INFO("steps published " << published << ", last step " << last.ms_per_step << " ms, reads during steps "
                          << reads_during_steps << ", worst read " << worst_read_ms << " ms, worst request "
                          << worst_request_ms << " ms, preempted reads " << preempted);
  CHECK(reads_during_steps > 500);   // the reads really overlapped the steps
  CHECK(published >= 2);             // it keeps publishing, slowly
  CHECK(last.ms_per_step > 50);      // the step really is slow
  CHECK(waits_in_reads == 0);        // reading never sleeps
  CHECK(worst_read_ms < 2);
  CHECK(worst_request_ms < 5);
  runner.set_playing(false);
}

TEST_CASE("pausing or quitting during a long step returns at once, the step undone", "[app][runner][cancel]") {
  // 1,000 Newton x 4,000 PCR iterations on the pyramid (210 boxes): uncancelled, its first step
  // runs for minutes. The pause and the destructor (the app quitting) raise the step's cancel
  // flag; the thread stops between iterations. The waits below are generous upper bounds for a loaded machine, not
  // timings: without the cancel neither could end before the step does.
  const Loaded scene = load("pyramid", [](sim::SceneSpec& s) {
    s.solver.newton_iterations = 1000;  // within the trace's bound of 2^24 records a step
    s.solver.linear_iterations = s.solver.linear_iterations_max = 4000;
    s.solver.newton_tolerance = 0;
  });
  {
    SimRunner runner;
    runner.load(scene.spec, scene.model);
    REQUIRE(wait_for(runner, [](const Snapshot& s) { return s.model != nullptr; }));
    runner.set_real_time(false);
    runner.set_playing(true);
    REQUIRE(wait_for(runner, [&](const Snapshot&) { return runner.stepping(); }, 10));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    INFO("message '" << runner.latest().message << "', step " << runner.latest().state.step_index);
    REQUIRE(runner.stepping());  // deep inside the step
    const auto paused_at = Clock::now();
    runner.set_playing(false);
    REQUIRE(wait_for(runner, [&](const Snapshot& s) { return !runner.stepping() && !s.message.empty(); }, 30));
    const double pause_ms = std::chrono::duration<double, std::milli>(Clock::now() - paused_at).count();
    const Snapshot& s = runner.latest();
    INFO("pause returned after " << pause_ms << " ms: " << s.message);
    CHECK(s.state.step_index == 0);  // the step was undone, not taken
    CHECK(s.message.find("stopped during a step") != std::string::npos);
    CHECK_FALSE(runner.playing_requested());

    runner.set_playing(true);  // again, then quit while it steps
    REQUIRE(wait_for(runner, [&](const Snapshot&) { return runner.stepping(); }, 10));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    REQUIRE(runner.stepping());
  }  // ~SimRunner: must return, not wait for the step
  SUCCEED("the destructor returned during the step");
}

TEST_CASE("parameter patches match a recompile of the edited spec", "[app][properties]") {
  auto spec = sim::load_scene_file(test::scene_path("workcell"));
  REQUIRE(spec.ok());
  auto compiled = sim::compile_model(*spec);
  REQUIRE(compiled.ok());
  const sim::SceneSpec base = *spec;
  const sim::Model base_model = *compiled;

  struct Edit {
    PropertyKey key;
    PropertyValue value;
  };
  std::vector<Edit> edits;
  auto add = [&](ItemKind kind, int index, int sub, const char* name, PropertyValue value) {
    Edit e;
    e.key.item = ItemRef{kind, index, sub};
    e.key.name = name;
    e.value = std::move(value);
    edits.push_back(std::move(e));
  };
  add(ItemKind::Material, 1, -1, "friction", 0.25);
  add(ItemKind::Body, 0, -1, "mass", 3.5);
  add(ItemKind::Shape, 1, 0, "thickness", 0.002);
  add(ItemKind::Shape, 1, 0, "material", std::string("rubber"));
  add(ItemKind::Joint, 1, -1, "lower", -1.0);
  add(ItemKind::Joint, 1, -1, "limited", false);
  add(ItemKind::Joint, 2, -1, "stiffness", 900.0);
  add(ItemKind::Joint, 2, -1, "max_force", -1.0);
  add(ItemKind::Joint, 2, -1, "drive", std::string("velocity"));
  add(ItemKind::Scene, -1, -1, "gravity.z", -1.62);
  add(ItemKind::Scene, -1, -1, "dt", 0.004);
  add(ItemKind::Solver, -1, -1, "linear_solver", std::string("pcg"));
  add(ItemKind::Solver, -1, -1, "newton_iterations", 9.0);
  add(ItemKind::Solver, -1, -1, "kind", std::string("pgs"));
  add(ItemKind::Solver, -1, -1, "pgs_iterations", 40.0);
  for (const Edit& e : edits) {
    INFO(item_label(base, e.key.item) << " " << e.key.name);
    sim::SceneSpec edited = base;
    REQUIRE(set_property(edited, e.key, e.value) == "");
    REQUIRE(get_property(edited, e.key) == e.value);
    REQUIRE(is_parameter_only(edited, e.key));
    sim::Model patched = base_model;
    REQUIRE(patch_model(patched, edited, e.key));
    auto recompiled = sim::compile_model(edited);
    REQUIRE(recompiled.ok());
    const sim::Model& r = *recompiled;
    CHECK(patched.material_friction == r.material_friction);
    CHECK(patched.shape_thickness == r.shape_thickness);
    CHECK(patched.shape_material == r.shape_material);
    CHECK(patched.joint_limited == r.joint_limited);
    CHECK(patched.joint_lower == r.joint_lower);
    CHECK(patched.joint_stiffness == r.joint_stiffness);
    CHECK(patched.joint_max_force == r.joint_max_force);
    CHECK(patched.joint_drive == r.joint_drive);
    CHECK(patched.gravity == r.gravity);
    CHECK(patched.dt == r.dt);
    CHECK(sim::get_solver_option(patched.solver, "linear_solver") == sim::get_solver_option(r.solver, "linear_solver"));
    CHECK(patched.solver.newton_iterations == r.solver.newton_iterations);
    CHECK(patched.solver.kind == r.solver.kind);
    CHECK(patched.solver.pgs_iterations == r.solver.pgs_iterations);
    for (int b = 0; b < r.body_count; ++b) {
      CHECK(patched.body_inv_mass[b] == Approx(r.body_inv_mass[b]).epsilon(1e-12));
      for (int k = 0; k < 3; ++k) CHECK(patched.body_inertia[b][k] == Approx(r.body_inertia[b][k]).epsilon(1e-12));
    }
  }
  // Rejected values leave the spec as it was.
  sim::SceneSpec edited = base;
  CHECK(set_property(edited, {{ItemKind::Material, 0}, "friction"}, -1.0) != "");
  CHECK(set_property(edited, {{ItemKind::Joint, 0}, "drive"}, std::string("sideways")) != "");
  CHECK(set_property(edited, {{ItemKind::Body, 99}, "mass"}, 1.0) != "");
  CHECK(edited.materials[0].friction == base.materials[0].friction);
  // Shape sizes are structural.
  CHECK_FALSE(is_parameter_only(base, {{ItemKind::Shape, 0, 0}, "half_extents.x"}));
  CHECK_FALSE(is_parameter_only(base, {{ItemKind::Body, 0}, "fixed"}));
}

TEST_CASE("friction patched into the running incline: sticks at 0.5, slides at 0.2", "[app][runner]") {
  for (const double mu : {0.5, 0.2}) {
    SimRunner runner;
    const Loaded scene = load("incline");
    runner.load(scene.spec, scene.model);
    sim::SceneSpec edited = *scene.spec;
    const PropertyKey key{{ItemKind::Material, 0}, "friction"};
    REQUIRE(set_property(edited, key, mu) == "");
    runner.patch(std::make_shared<const sim::SceneSpec>(edited), key);
    run_steps(runner, 120);  // 1 s
    const Snapshot& s = runner.latest();
    CHECK(s.model->material_friction[0] == mu);
    const double travel = box_travel(s);
    INFO("mu " << mu << ": the box moved " << travel << " m in 1 s");
    if (mu == 0.5) CHECK(travel < 1e-3);
    else CHECK(travel > 0.3);  // a = g (sin 20° − 0.2 cos 20°) = 1.51 m/s²: ~0.75 m
  }
}

TEST_CASE("the solver kind patched into the running incline switches its solver", "[app][runner]") {
  SimRunner runner;
  const Loaded scene = load("incline");
  runner.load(scene.spec, scene.model);
  run_steps(runner, 30);
  CHECK(runner.latest().workspace.trace.kind == sim::SolverKind::NonSmoothNewton);
  const double before = box_travel(runner.latest());
  const sim::State at_switch = runner.latest().state;
  sim::SceneSpec edited = *scene.spec;
  const PropertyKey key{{ItemKind::Solver}, "kind"};
  REQUIRE(set_property(edited, key, std::string("pgs")) == "");
  REQUIRE(is_parameter_only(edited, key));  // no recompile: the next step makes the new solver
  runner.patch(std::make_shared<const sim::SceneSpec>(edited), key);
  run_steps(runner, 60);
  const Snapshot& s = runner.latest();
  CHECK(s.model->solver.kind == sim::SolverKind::ProjectedGaussSeidel);
  CHECK(s.workspace.trace.kind == sim::SolverKind::ProjectedGaussSeidel);
  CHECK(s.report.ok());
  CHECK_FALSE(s.report.warnings & sim::kStepNotConverged);
  CHECK(s.workspace.trace.linear_residuals.empty());  // PGS has no inner linear solves
  CHECK(s.state.step_index == at_switch.step_index + 60);  // the run went on from the same state
  CHECK(std::abs(box_travel(s) - before) < 1e-4);          // and the box still sticks (tan 20° < 0.5)
}

TEST_CASE("a structural edit keeps the running state by name", "[app][runner]") {
  SimRunner runner;
  const Loaded scene = load("heavy_stack");
  runner.load(scene.spec, scene.model);
  run_steps(runner, 30);
  const sim::State before = runner.latest().state;
  // Grow the top cube's box a little: recompile, same bodies, same poses of the body frames.
  sim::SceneSpec edited = *scene.spec;
  const int top = static_cast<int>(edited.bodies.size()) - 1;
  REQUIRE(set_property(edited, {{ItemKind::Shape, top, 0}, "half_extents.z"}, 0.26) == "");
  auto model = sim::compile_model(edited);
  REQUIRE(model.ok());
  runner.replace_model(std::make_shared<const sim::SceneSpec>(edited), std::make_shared<const sim::Model>(*model));
  REQUIRE(wait_for(runner, [&](const Snapshot& s) { return s.model && s.model->shape_half_extents.back().z() == sim::Real(0.26); }));
  const Snapshot& s = runner.latest();
  CHECK(s.state.step_index == before.step_index);
  CHECK(s.state.time == before.time);
  for (int b = 0; b < s.model->body_count; ++b) CHECK((s.state.body_position(b) - before.body_position(b)).norm() < 1e-12);
  // A body whose pose was edited restarts from it.
  const sim::State moved = sim::remap_state(*scene.model, before, *s.model, {scene.model->body_name[0]});
  CHECK((moved.body_position(0) - s.model->body_initial_pose[0].pos).norm() < 1e-12);
}

TEST_CASE("picking finds the body under the cursor", "[app][interaction]") {
  const Loaded scene = load("heavy_stack");
  const sim::State state = sim::make_initial_state(*scene.model);
  const sim::Model& m = *scene.model;
  for (int b = 0; b < m.body_count; ++b) {
    Ray ray;
    ray.origin = state.body_position(b) + sim::Vec3(5, 0.1, 0.05);
    ray.direction = sim::Vec3(-1, 0, 0);
    const PickHit hit = pick(m, state, ray);
    REQUIRE(hit.kind == PickHit::Body);
    CHECK(hit.index == b);
    CHECK(hit.distance == Approx(5 - 0.25).margin(1e-9));  // the cube's face at 0.25 from its centre
  }
  Ray miss;
  miss.origin = sim::Vec3(5, 5, 5);
  miss.direction = sim::Vec3(0, 0, 1);
  CHECK_FALSE(pick(m, state, miss).hit());

  // Particles (the rope) are picked too.
  const Loaded rope = load("rope");
  const sim::State rs = sim::make_initial_state(*rope.model);
  const int p = 10;
  const auto c = static_cast<std::size_t>(rope.model->particle_coord(p));
  Ray down;
  down.origin = sim::Vec3(rs.q[c], rs.q[c + 1], rs.q[c + 2] + 3);
  down.direction = sim::Vec3(0, 0, -1);
  const PickHit ph = pick(*rope.model, rs, down);
  CHECK(ph.kind == PickHit::Particle);
  CHECK(ph.index == p);
}

TEST_CASE("the grab spring: effective mass, critical damping, pulling through the runner", "[app][interaction]") {
  const Loaded scene = load("heavy_stack");
  const sim::Model& m = *scene.model;
  sim::State state = sim::make_initial_state(m);
  // At the centre of mass the effective mass is the mass, in every direction.
  const sim::Mat3 at_com = effective_mass_matrix(m, state, 0, state.body_position(0));
  CHECK((at_com - sim::Mat3::Identity() / m.body_inv_mass[0]).norm() < 1e-9 / m.body_inv_mass[0]);
  // Off the centre it is lighter across the lever arm, and the same along it.
  const sim::Vec3 corner = state.body_position(0) + sim::Vec3(0.25, 0.25, 0.25);
  const sim::Mat3 at_corner = effective_mass_matrix(m, state, 0, corner);
  const sim::Vec3 along = sim::Vec3(1, 1, 1).normalized();
  CHECK(along.dot(at_corner * along) == Approx(1 / m.body_inv_mass[0]).epsilon(1e-9));
  CHECK(sim::Vec3::UnitZ().dot(at_corner * sim::Vec3::UnitZ()) < 0.9 / m.body_inv_mass[0]);

  Grab grab;
  grab.kind = Grab::Body;
  grab.index = 4;  // the 32 t top cube
  grab.local_point = sim::Vec3::Zero();
  grab.target = state.body_position(4) + sim::Vec3(0, 0, 0.1);
  const GrabForce f = grab_force(m, state, grab);
  const double omega = 2 * 3.14159265358979323846 * 5;
  CHECK(f.force.z() == Approx(0.1 * omega * omega / m.body_inv_mass[4]).epsilon(1e-9));  // k = m ω²
  CHECK(f.effective_mass == Approx(1 / m.body_inv_mass[4]).epsilon(1e-9));
  // Moving towards the target at speed v: damping 2 m ω v against it.
  const int d = m.body_dof(4);
  state.u[d + 2] = 1.0;
  const GrabForce damped = grab_force(m, state, grab);
  CHECK(damped.force.z() == Approx(f.force.z() - 2 * omega / m.body_inv_mass[4]).epsilon(1e-9));

  // Through the runner: the top cube (32 t) is lifted 10 cm off the stack and held there,
  // sagging by g / ω² (1 cm) under its weight.
  {
    SimRunner runner;
    runner.load(scene.spec, scene.model);
    const sim::State initial = sim::make_initial_state(m);
    Grab lift;
    lift.kind = Grab::Body;
    lift.index = 4;
    lift.local_point = sim::Vec3::Zero();
    lift.target = initial.body_position(4) + sim::Vec3(0, 0, 0.1);
    runner.set_grab(lift);
    run_steps(runner, 120);
    const sim::Vec3 held = runner.latest().state.body_position(4);
    INFO("top cube at " << held.transpose() << ", target " << lift.target.transpose());
    CHECK((held - lift.target).norm() < 0.03);
    CHECK(held.z() < lift.target.z());
  }
  // A particle of the rope follows the target far closer than it would fall without the grab.
  const Loaded rope = load("rope");
  const int p = 50;  // the free end
  const sim::State initial = sim::make_initial_state(*rope.model);
  const auto c = static_cast<std::size_t>(rope.model->particle_coord(p));
  const sim::Vec3 start(initial.q[c], initial.q[c + 1], initial.q[c + 2]);
  Grab pull;
  pull.kind = Grab::Particle;
  pull.index = p;
  pull.target = start + sim::Vec3(0, 0, 0.3);
  double distance[2] = {0, 0};
  for (int grabbed = 0; grabbed < 2; ++grabbed) {
    SimRunner runner;
    runner.load(rope.spec, rope.model);
    if (grabbed) runner.set_grab(pull);
    run_steps(runner, 120);
    const Snapshot& s = runner.latest();
    distance[grabbed] = (sim::Vec3(s.state.q[c], s.state.q[c + 1], s.state.q[c + 2]) - pull.target).norm();
  }
  INFO("free end's distance to the target: " << distance[0] << " m free, " << distance[1] << " m grabbed");
  CHECK(distance[1] < 0.5 * distance[0]);
}
