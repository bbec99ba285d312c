#include "gui/sim_runner.hpp"

#include <algorithm>
#include <cstdio>

#include "gui/capture_ring.hpp"
#include "sim/captured_resolve.hpp"
#include "gui/failed_step.hpp"
#include "gui/state_history.hpp"
#include "sim/recompile.hpp"
#include "sim/compile.hpp"

namespace coulomb::gui {

namespace {

using Clock = std::chrono::steady_clock;

// A real-time run that falls further behind than this stops trying to catch up.
constexpr std::chrono::milliseconds kMaxLag{250};
// Window of the real-time factor measurement.
constexpr std::chrono::milliseconds kRateWindow{500};

}  // namespace

struct SimRunner::Core {
  std::shared_ptr<const sim::SceneSpec> spec;
  std::shared_ptr<const sim::Model> model;
  std::uint64_t scene_version = 0;
  std::uint64_t model_version = 0;
  std::uint64_t parameter_version = 0;
  sim::State state;
  sim::Control control;        // drive targets set by requests; wrenches: the teleoperation's gravity compensation
  sim::Control step_control;   // control + the grab's wrench, rebuilt for every step
  sim::Workspace workspace;
  std::shared_ptr<sim::DeviceLinearSolver> device;  // the backend's device (null: the CPU), set into every step's workspace
  sim::StepReport report;
  bool stepped = false;
  Grab grab;
  bool playing = false;
  bool real_time = true;
  int steps_pending = 0;
  std::string message;
  PoseHook pose_hook;
  TeleopSession teleop;
  StateHistory history;
  long history_cursor = -1;    // the history entry the state was set from; -1: the newest
  std::shared_ptr<const FailedStep> failed_step;  // the capture open in the panel: the last failure or one picked
  CaptureRing ring;                                 // the solves kept by the capture triggers (capture_ring.hpp)
  std::shared_ptr<const ui::CaptureComparison> comparison;  // A/B and sweep of the open capture

  // The comparison of the open capture to add to: the last one when it is of the same capture.
  std::shared_ptr<ui::CaptureComparison> comparison_of_open() const {
    auto out = comparison && comparison->capture_id == failed_step->id ? std::make_shared<ui::CaptureComparison>(*comparison)
                                                                       : std::make_shared<ui::CaptureComparison>();
    out->capture_id = failed_step->id;
    return out;
  }
  ui::ConvergenceHistory steps{kTimelineSteps};   // every taken step's figures (the timeline)
  ui::IterationTraces traces{kQuartileSteps, kQuartileIterations};  // their residual per iterate (quartiles)
  std::uint64_t failures = 0;
  // Steps that failed and passed when taken again with more substeps (sim::kStepRetried), and the
  // last one's time and message.
  std::uint64_t retried_steps = 0;
  std::string last_retry;

  // Pacing: the wall time at which the simulation time `anchor_sim` is due.
  Clock::time_point anchor_wall{};
  double anchor_sim = 0;
  // Measurements.
  Clock::time_point rate_wall{};
  double rate_sim = 0;
  double real_time_factor = 0;
  double ms_per_step = 0;

  bool has_model() const { return model != nullptr; }
  bool wants_step() const { return has_model() && (playing || steps_pending > 0); }

  void anchor(Clock::time_point now) {
    anchor_wall = now;
    anchor_sim = state.time;
    rate_wall = now;
    rate_sim = state.time;
  }

  // When the next paced step is due.
  Clock::time_point due() const {
    const double ahead = static_cast<double>(state.time) - anchor_sim;
    return anchor_wall + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(ahead));
  }

  void fresh_run() {
    state = sim::make_initial_state(*model);
    control = sim::make_initial_control(*model);
    step_control = control;
    workspace = sim::Workspace{};
    report = sim::StepReport{};
    stepped = false;
    message.clear();
    retried_steps = 0;
    last_retry.clear();
    steps_pending = 0;
    real_time_factor = 0;
    anchor(Clock::now());
    teleop.rebind(*model, state);  // a running teleoperation starts again from the initial pose
    restart_history();
  }

  // Another model: the recorded states belong to the old one.
  void restart_history() {
    history.clear();
    history_cursor = -1;
    failed_step = nullptr;  // its rows belong to the old model
    comparison = nullptr;
    ring.clear();
    steps.clear();
    traces.clear();
    history.push(state, control);
  }

  // After a step or a jump: resuming from a shown state drops the states after it.
  void record_history() {
    if (history_cursor >= 0) history.truncate_after(static_cast<std::size_t>(history_cursor));
    history_cursor = -1;
    history.push(state, control);
  }

  // Continue from a given state (history, keyframe): the warm start of another state does not apply.
  void jump_to(const sim::State& s, const HistoryControl& inputs) {
    state = s;
    inputs.apply_to(control);
    workspace = sim::Workspace{};
    report = sim::StepReport{};
    stepped = false;
    message.clear();
    steps_pending = 0;
    anchor(Clock::now());
    teleop.rebind(*model, state);
  }

  // After a failed step (sim::step undid it): roll back to the history entry the step started
  // from (state and inputs: the last good ones), solve the failed step again from it with
  // a capture (failed_step.hpp) and keep it for the Solve capture panel.
  void capture_failure() {
    const long index = history_cursor >= 0 ? history_cursor : static_cast<long>(history.size()) - 1;
    if (index >= 0) state = history.at(static_cast<std::size_t>(index)).state;
    auto failure = std::make_shared<FailedStep>(
        capture_failed_step(*model, model->solver, state, step_control, workspace, report));
    failure->id = ++failures;
    failure->history_index = index;
    if (failure->capture.filled) {  // listed with the triggers' captures
      ring.keep(failure->capture, failure->report, CaptureTrigger::Failure, failure->contacts);
      failure->ring_id = ring.newest_id();
    }
    failed_step = std::move(failure);
    if (index >= 0) history.at(static_cast<std::size_t>(index)).control.apply_to(control);
  }

  // Applies a teleoperation request at once (IK with dt = 0), so a paused simulation shows it.
  bool teleop_changed() {
    if (!has_model() || !teleop.active()) return false;
    teleop.update(*model, state, &workspace, 0, control);
    return true;
  }
};

SimRunner::SimRunner() : core_(std::make_unique<Core>()) {
  core_->ring.configure(CaptureTriggers{});
  thread_ = std::thread([this] { thread_main(); });
}

SimRunner::~SimRunner() {
  sweep_worker_.cancel();  // its last requests go nowhere: the thread stops below
  sweep_worker_.wait();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    cancel_step_.store(true, std::memory_order_relaxed);
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SimRunner::submit(Request request, bool interrupt) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(std::move(request));
    if (interrupt) cancel_step_.store(true, std::memory_order_relaxed);
  }
  wake_.notify_one();
}

const Snapshot& SimRunner::latest() {
  buffer_.acquire();
  return buffer_.front();
}

void SimRunner::load(std::shared_ptr<const sim::SceneSpec> spec, std::shared_ptr<const sim::Model> model, bool play) {
  playing_requested_.store(play, std::memory_order_release);
  submit([spec = std::move(spec), model = std::move(model), play](Core& c) {
    c.spec = spec;
    c.model = model;
    ++c.scene_version;
    ++c.model_version;
    ++c.parameter_version;
    c.grab = Grab{};
    c.teleop.stop();  // another scene: the UI starts a new session for it
    c.fresh_run();
    c.playing = play;
    return true;
  }, /*interrupt=*/true);
}

void SimRunner::replace_model(std::shared_ptr<const sim::SceneSpec> spec, std::shared_ptr<const sim::Model> model,
                              std::vector<std::string> restart_bodies) {
  submit([spec = std::move(spec), model = std::move(model), restart = std::move(restart_bodies)](Core& c) {
    if (!c.has_model()) {
      c.spec = spec;
      c.model = model;
      c.fresh_run();
    } else {
      c.state = sim::remap_state(*c.model, c.state, *model, restart);
      c.control = sim::remap_control(*c.model, c.control, *model);
      c.step_control = c.control;
      c.workspace = sim::Workspace{};  // rows and contacts change; no warm start across models
      c.spec = spec;
      c.model = model;
      c.stepped = false;
    }
    c.teleop.rebind(*c.model, c.state);
    c.restart_history();
    // The grabbed body may be gone or renumbered.
    if (c.grab.kind == Grab::Body && c.grab.index >= c.model->body_count) c.grab = Grab{};
    if (c.grab.kind == Grab::Particle && c.grab.index >= c.model->particle_count) c.grab = Grab{};
    ++c.model_version;
    ++c.parameter_version;
    return true;
  });
}

void SimRunner::patch(std::shared_ptr<const sim::SceneSpec> spec, PropertyKey key) {
  submit([spec = std::move(spec), key = std::move(key)](Core& c) {
    if (!c.has_model()) return false;
    // Copy on write: published snapshots keep the model they were stepped with.
    auto patched = std::make_shared<sim::Model>(*c.model);
    const auto edit = spec_edit(key);
    const sim::PatchResult result =
        edit ? sim::patch_model(*patched, *spec, *edit) : sim::PatchResult{sim::PatchOutcome::NeedsRecompile, {}};
    if (result.outcome == sim::PatchOutcome::Failed) {
      c.message = result.error;
      return true;
    }
    if (result.outcome == sim::PatchOutcome::Patched) {
      c.spec = spec;
      c.model = std::move(patched);
      ++c.parameter_version;
      if (key.item.kind == ItemKind::Joint && (key.name == "target" || key.name == "target_velocity")) {
        const auto j = static_cast<std::size_t>(key.item.index);
        if (j < c.control.joint_target.size()) {
          c.control.joint_target[j] = c.model->joint_initial_target[j];
          c.control.joint_target_velocity[j] = c.model->joint_initial_target_velocity[j];
        }
      }
      return true;
    }
    // Not a value edit after all (a principal frame moved): the engine recompiles and carries the
    // run over, here on the simulation thread.
    auto recompiled = sim::recompile(*spec, *c.model, c.state, c.control);
    if (!recompiled) {
      c.message = recompiled.error();
      return true;
    }
    c.state = std::move(recompiled->state);
    c.control = std::move(recompiled->control);
    c.workspace = sim::Workspace{};
    c.spec = spec;
    c.model = std::make_shared<const sim::Model>(std::move(recompiled->model));
    c.teleop.rebind(*c.model, c.state);
    c.restart_history();
    ++c.model_version;
    ++c.parameter_version;
    return true;
  });
}

void SimRunner::set_playing(bool playing) {
  playing_requested_.store(playing, std::memory_order_release);
  submit([playing](Core& c) {
    if (c.playing == playing) return false;
    c.playing = playing;
    if (playing) c.message.clear();
    c.real_time_factor = 0;
    c.anchor(Clock::now());
    return true;
  }, /*interrupt=*/!playing);
}

void SimRunner::toggle_playing() { set_playing(!playing_requested()); }

void SimRunner::single_step(int count) {
  playing_requested_.store(false, std::memory_order_release);
  submit([count](Core& c) {
    c.playing = false;
    c.steps_pending += std::max(count, 0);
    return true;
  });
}

void SimRunner::reset() {
  submit([](Core& c) {
    if (!c.has_model()) return false;
    c.fresh_run();
    return true;
  }, /*interrupt=*/true);
}

void SimRunner::set_available_device(std::shared_ptr<sim::DeviceLinearSolver> device, std::string why_not) {
  available_device_ = std::move(device);
  device_why_not_ = std::move(why_not);
  use_device(available_device_ != nullptr);
}

void SimRunner::use_device(bool on) {
  using_device_ = on && available_device_;
  submit([device = using_device_ ? available_device_ : nullptr](Core& c) {
    c.device = device;
    return false;
  });
}

std::string SimRunner::backend() const { return using_device_ ? available_device_->description() : std::string("CPU"); }

void SimRunner::set_real_time(bool real_time) {
  submit([real_time](Core& c) {
    c.real_time = real_time;
    c.anchor(Clock::now());
    return true;
  });
}

void SimRunner::set_grab(const Grab& grab) {
  submit([grab](Core& c) {
    c.grab = grab;
    return false;  // takes effect with the next step
  });
}

void SimRunner::set_joint_target(int joint, double target) {
  submit([joint, target](Core& c) {
    if (joint < 0 || joint >= static_cast<int>(c.control.joint_target.size())) return false;
    c.control.joint_target[static_cast<std::size_t>(joint)] = static_cast<sim::Real>(target);
    return false;
  });
}

void SimRunner::set_soft_pressure(int group, double pressure) {
  submit([group, pressure](Core& c) {
    if (group < 0 || group >= static_cast<int>(c.control.soft_pressure.size())) return false;
    c.control.soft_pressure[static_cast<std::size_t>(group)] = static_cast<sim::Real>(pressure);
    return false;
  });
}

void SimRunner::set_pose_hook(PoseHook hook) {
  submit([hook = std::move(hook)](Core& c) {
    c.pose_hook = hook;
    return c.has_model();  // publish so the new sink gets the current poses
  });
}

void SimRunner::seek_history(long index) {
  playing_requested_.store(false, std::memory_order_release);
  submit([index](Core& c) {
    if (!c.has_model() || c.history.empty()) return false;
    const long last = static_cast<long>(c.history.size()) - 1;
    const long i = std::clamp(index, 0L, last);
    const HistoryEntry& e = c.history.at(static_cast<std::size_t>(i));
    c.playing = false;
    c.jump_to(e.state, e.control);
    c.history_cursor = i == last ? -1 : i;
    return true;
  });
}

void SimRunner::history_step(long delta) {
  playing_requested_.store(false, std::memory_order_release);
  submit([delta](Core& c) {
    if (!c.has_model() || c.history.empty()) return false;
    const long from = c.history_cursor >= 0 ? c.history_cursor : static_cast<long>(c.history.size()) - 1;
    const long last = static_cast<long>(c.history.size()) - 1;
    const long i = std::clamp(from + delta, 0L, last);
    const HistoryEntry& e = c.history.at(static_cast<std::size_t>(i));
    c.playing = false;
    c.jump_to(e.state, e.control);
    c.history_cursor = i == last ? -1 : i;
    return true;
  });
}

void SimRunner::set_history_budget(std::size_t bytes) {
  submit([bytes](Core& c) {
    c.history.set_budget(bytes);
    c.history_cursor = std::min<long>(c.history_cursor, static_cast<long>(c.history.size()) - 1);
    return true;
  });
}

void SimRunner::restore(const sim::State& state, const sim::Control& control) {
  submit([state, control](Core& c) {
    if (!c.has_model() || state.q.size() != c.state.q.size() || state.u.size() != c.state.u.size()) return false;
    c.jump_to(state, HistoryControl::of(control));
    c.record_history();
    return true;
  });
}

void SimRunner::set_capture_triggers(const CaptureTriggers& triggers) {
  submit([triggers](Core& c) {
    c.ring.configure(triggers);
    return true;
  });
}

void SimRunner::capture_next_step() {
  submit([](Core& c) {
    c.ring.arm_next();
    return true;
  });
}

void SimRunner::open_capture(std::uint64_t id) {
  submit([id](Core& c) {
    const CaptureRing::Slot* slot = c.has_model() ? c.ring.find(id) : nullptr;
    if (!slot) {
      c.message = "capture " + std::to_string(id) + " is no longer in the ring";
      return true;
    }
    auto opened = std::make_shared<FailedStep>(open_kept_capture(*c.model, *slot));
    opened->id = ++c.failures;
    c.failed_step = std::move(opened);
    return true;
  });
}

void SimRunner::compare_capture(std::string key, std::string value) {
  submit([key = std::move(key), value = std::move(value)](Core& c) {
    if (!c.has_model() || !c.failed_step || !c.failed_step->capture.filled) return false;
    const sim::SolveCapture& a = c.failed_step->capture;
    auto cmp = c.comparison_of_open();
    cmp->key = key;
    cmp->value = value;
    cmp->error.clear();
    cmp->a.clear();
    cmp->b.clear();
    for (const sim::CapturedIterate& k : a.iterates) cmp->a.push_back(k.trace);
    sim::SolverOptions options = a.options;
    cmp->error = sim::set_solver_option(options, key, value);
    if (cmp->error.empty()) {
      const sim::ResolvedStep b = sim::resolve_captured_step(*c.model, options, a.start, a.control);
      for (const sim::CapturedIterate& k : b.capture.iterates) cmp->b.push_back(k.trace);
      cmp->b_ok = b.report.ok();
      cmp->b_message = b.report.message;
    }
    c.comparison = std::move(cmp);
    return true;
  });
}

void SimRunner::sweep_capture(std::string key, double from, double to, int count) {
  submit([this, key = std::move(key), from, to, count](Core& c) {
    if (!c.has_model() || !c.failed_step || !c.failed_step->capture.filled) return false;
    const sim::SolveCapture& a = c.failed_step->capture;
    auto cmp = c.comparison_of_open();
    cmp->sweep_key = key;
    cmp->sweep_error.clear();
    cmp->sweep.clear();
    // Whole numbers for the integer options (iterations, substeps): those that refuse 0.5.
    sim::SolverOptions probe = a.options;
    const bool integer = !sim::set_solver_option(probe, key, "0.5").empty();
    SweepRequest request{c.model, a.options, a.start, a.control, key,
                         sim::sweep_values(from, to, std::clamp(count, 1, 64), integer)};
    cmp->sweep_total = static_cast<int>(request.values.size());
    cmp->sweep_running = true;
    const std::uint64_t id = cmp->capture_id;
    c.comparison = std::move(cmp);
    // The worker's points and its end come back as requests: only this thread writes the
    // comparison (a copy per point: the published one is shared with the UI).
    sweep_worker_.start(
        std::move(request),
        [this, id](int, int, const sim::SweepPoint& point) {
          submit([id, point](Core& core) {
            if (!core.comparison || core.comparison->capture_id != id) return false;
            auto next = std::make_shared<ui::CaptureComparison>(*core.comparison);
            next->sweep.push_back(point);
            core.comparison = std::move(next);
            return true;
          });
        },
        [this, id](const std::string& error, int, int) {
          submit([id, error](Core& core) {
            if (!core.comparison || core.comparison->capture_id != id) return false;
            auto next = std::make_shared<ui::CaptureComparison>(*core.comparison);
            next->sweep_running = false;
            next->sweep_error = error;
            core.comparison = std::move(next);
            return true;
          });
        });
    return true;
  });
}

void SimRunner::set_teleop(const TeleopSetup& setup) {
  submit([setup](Core& c) {
    if (!setup.valid() || !c.has_model()) {
      c.teleop.stop();
      return true;
    }
    if (c.teleop.start(*c.model, c.state, setup)) c.teleop_changed();
    return true;
  });
}

void SimRunner::set_teleop_command(const sim::TeleopCommand& command) {
  submit([command](Core& c) {
    c.teleop.set_command(command);
    // Velocities act with the steps; a gripper change shows at once.
    return command.gripper != 0 && c.teleop_changed();
  });
}

void SimRunner::set_teleop_target(const sim::Vec3& position, const sim::Quat& orientation) {
  submit([position, orientation](Core& c) {
    c.teleop.set_target(position, orientation);
    return c.teleop_changed();
  });
}

void SimRunner::teleop_move_to_object(int body) {
  submit([body](Core& c) {
    if (!c.has_model()) return false;
    c.teleop.move_to_object(*c.model, c.state, body);
    return true;  // publish: the status shows the goal or why there is none
  });
}

void SimRunner::set_teleop_gripper(bool closed) {
  submit([closed](Core& c) {
    c.teleop.set_gripper(closed);
    return c.teleop_changed();
  });
}

void SimRunner::toggle_teleop_gripper() {
  submit([](Core& c) {
    c.teleop.toggle_gripper();
    return c.teleop_changed();
  });
}

void SimRunner::publish(Core& c) {
  Snapshot& s = buffer_.back();
  s.sequence = published_.load(std::memory_order_relaxed) + 1;
  s.model = c.model;
  s.scene_version = c.scene_version;
  s.model_version = c.model_version;
  s.parameter_version = c.parameter_version;
  // The whole State (joint angles and warm start too: keyframes and the history's hashes read
  // it); member-wise assignments reuse the slot's capacity, so no allocation once warm.
  s.state = c.state;
  s.workspace.contacts.contacts = c.workspace.contacts.contacts;
  s.workspace.contact_normal_force = c.workspace.contact_normal_force;
  s.workspace.contact_friction_force = c.workspace.contact_friction_force;
  s.workspace.joint_force = c.workspace.joint_force;
  s.workspace.trace.kind = c.workspace.trace.kind;
  s.workspace.trace.iterations = c.workspace.trace.iterations;
  s.workspace.trace.linear_residuals = c.workspace.trace.linear_residuals;
  s.workspace.trace.final_normal_max = c.workspace.trace.final_normal_max;
  s.workspace.trace.final_friction_max = c.workspace.trace.final_friction_max;
  s.workspace.trace.final_bilateral_max = c.workspace.trace.final_bilateral_max;
  s.workspace.trace.final_complementarity_max = c.workspace.trace.final_complementarity_max;
  s.report = c.report;
  s.stepped = c.stepped;
  s.playing = c.playing;
  s.real_time = c.real_time;
  s.real_time_factor = c.playing ? c.real_time_factor : 0;
  s.ms_per_step = c.ms_per_step;
  const sim::SolverTrace& t = c.workspace.trace;
  s.max_residual = c.stepped ? final_residual(t) : 0.0;
  s.message = c.message;
  s.retried_steps = c.retried_steps;
  s.last_retry = c.last_retry;
  s.failed_step = c.failed_step;
  s.comparison = c.comparison;
  c.ring.summaries(s.captures.kept);
  s.captures.triggers = c.ring.triggers();
  s.captures.bytes = c.ring.bytes();
  s.captures.next_armed = c.ring.next_armed();
  s.steps = c.steps;
  s.traces = c.traces;
  if (c.model) c.teleop.write_status(*c.model, c.state, s.teleop);
  else s.teleop.active = false;
  s.joint_target = c.control.joint_target;
  s.soft_pressure = c.control.soft_pressure;
  s.history.size = c.history.size();
  s.history.cursor = c.history_cursor;
  s.history.first_time = c.history.empty() ? 0.0 : static_cast<double>(c.history.at(0).state.time);
  s.history.last_time = c.history.empty() ? 0.0 : static_cast<double>(c.history.at(c.history.size() - 1).state.time);
  s.history.bytes = c.history.bytes();
  s.history.budget = c.history.budget();
  s.history.capacity = c.history.capacity();
  s.published = Clock::now();
  // Poses first, so that a frame that sees this snapshot finds them in the renderer's buffer.
  if (c.pose_hook && c.model) c.pose_hook(*c.model, c.state, s.sequence);
  buffer_.publish();
  published_.store(s.sequence, std::memory_order_release);
}

void SimRunner::thread_main() {
  Core& c = *core_;
  std::vector<Request> batch;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      for (;;) {
        if (quit_) return;
        if (!requests_.empty()) break;
        if (c.wants_step()) {
          if (c.steps_pending > 0 || !c.real_time) break;
          const Clock::time_point due = c.due();
          if (Clock::now() >= due) break;
          wake_.wait_until(lock, due);
        } else {
          wake_.wait(lock);
        }
      }
      batch.swap(requests_);
      cancel_step_.store(false, std::memory_order_relaxed);  // the interrupting requests are in `batch`
    }

    bool changed = false;
    for (Request& r : batch) changed |= r(c);
    batch.clear();

    if (c.wants_step()) {
      const Clock::time_point now = Clock::now();
      const bool paced = c.playing && c.real_time && c.steps_pending == 0;
      if (paced && now - c.due() > kMaxLag) c.anchor(now);  // cannot keep up: drop the backlog
      if (!paced || now >= c.due()) {
        // Drive targets from the IK, the arm's weight compensated (body wrenches).
        c.teleop.update(*c.model, c.state, &c.workspace, c.model->dt, c.control);
        c.step_control.joint_target = c.control.joint_target;
        c.step_control.joint_target_velocity = c.control.joint_target_velocity;
        c.step_control.body_wrench = c.control.body_wrench;
        c.step_control.soft_pressure = c.control.soft_pressure;
        std::fill(c.step_control.particle_force.begin(), c.step_control.particle_force.end(), sim::Vec3::Zero());
        apply_grab(*c.model, c.state, c.grab, c.step_control);

        c.workspace.cancel = &cancel_step_;
        c.workspace.device_solver = c.device;
        // The capture triggers' slot (null while none is armed: nothing captured or allocated).
        c.workspace.capture = c.ring.begin_step();
        stepping_.store(true, std::memory_order_release);
        const Clock::time_point start = Clock::now();
        c.report = sim::step(*c.model, c.model->solver, c.state, c.step_control, c.workspace);
        const Clock::time_point end = Clock::now();
        stepping_.store(false, std::memory_order_release);
        c.workspace.capture = nullptr;
        c.ring.end_step(c.report, c.workspace.trace, c.workspace.contacts.contacts);

        c.stepped = true;
        if (c.report.warnings & sim::kStepRetried) {
          ++c.retried_steps;
          char at[48];
          std::snprintf(at, sizeof at, "t = %.4g s: ", static_cast<double>(c.state.time));
          c.last_retry = at + c.report.message;
        }
        if (c.report.ok()) {
          c.record_history();
          c.steps.push(c.report, c.workspace.trace, static_cast<double>(c.state.time));
          c.traces.push(c.workspace.trace);
        }
        const double ms = std::chrono::duration<double, std::milli>(end - start).count();
        c.ms_per_step = c.ms_per_step > 0 ? 0.8 * c.ms_per_step + 0.2 * ms : ms;
        if (c.steps_pending > 0) --c.steps_pending;
        if (!c.report.ok()) {
          // The step left the state at its start; stop rather than repeat the failure.
          c.playing = false;
          c.steps_pending = 0;
          playing_requested_.store(false, std::memory_order_release);
          c.message = (c.report.flags & sim::kStepCancelled) ? std::string("stopped during a step (the step was undone)")
                      : c.report.message.empty()            ? std::string("the step failed")
                                                            : c.report.message;
          if (!(c.report.flags & sim::kStepCancelled)) {
            c.capture_failure();
            char at[64];
            std::snprintf(at, sizeof at, "; rolled back to t = %.4g s", static_cast<double>(c.state.time));
            c.message += std::string(at) + ", the failed solve is in the Solve capture panel";
          }
        }
        if (end - c.rate_wall >= kRateWindow) {
          const double wall = std::chrono::duration<double>(end - c.rate_wall).count();
          c.real_time_factor = (static_cast<double>(c.state.time) - c.rate_sim) / wall;
          c.rate_wall = end;
          c.rate_sim = c.state.time;
        }
        changed = true;
      }
    }
    if (changed) publish(c);
  }
}

}  // namespace coulomb::gui
