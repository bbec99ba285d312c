// The simulation thread. It owns the running Model, State, Control and Workspace; everything else
// talks to it through requests, queued under a mutex that is only ever held to push or to take
// the queue (never during a step), and applied by the thread between steps. After each step (and
// after any request that changed something) it publishes a Snapshot through a lock-free triple
// buffer, so the UI reads the latest poses, contacts, forces and trace without waiting on a step,
// however slow. Pacing: real time (sleep to the wall clock; drop the backlog when the simulation
// cannot keep up) or as fast as possible. No Qt here.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/device_linear_solver.hpp"

#include "gui/grab_spring.hpp"
#include "gui/scene_properties.hpp"
#include "gui/snapshot.hpp"
#include "gui/sweep_worker.hpp"
#include "gui/teleop_session.hpp"
#include "sim/spec.hpp"

namespace coulomb::gui {

class SimRunner {
 public:
  // Called on the simulation thread after every publish with the model and state just
  // published: the renderer's pose sink takes body poses and particle positions from here, so
  // they reach the GPU without passing through the UI thread.
  using PoseHook = std::function<void(const sim::Model& model, const sim::State& state, std::uint64_t sequence)>;

  SimRunner();
  ~SimRunner();  // stops the thread; a step in progress is cancelled (undone) between iterations
  SimRunner(const SimRunner&) = delete;
  SimRunner& operator=(const SimRunner&) = delete;

  // ---- requests: any thread; queued, applied between steps; never wait for a step -------------
  // A new scene: initial state and control, fresh warm start, paused unless `play`.
  void load(std::shared_ptr<const sim::SceneSpec> spec, std::shared_ptr<const sim::Model> model, bool play = false);
  // A structural edit: the recompiled model; the running state is carried over by ids
  // (remap_state), bodies in `restart_bodies` start again from their (edited) initial pose.
  void replace_model(std::shared_ptr<const sim::SceneSpec> spec, std::shared_ptr<const sim::Model> model,
                     std::vector<std::string> restart_bodies = {});
  // A parameter-only edit: `spec` holds the edited value of `key`; the thread patches a copy of
  // its model (patch_model) and keeps state and warm start. Falls back to recompiling when the
  // key cannot be patched.
  void patch(std::shared_ptr<const sim::SceneSpec> spec, PropertyKey key);
  void set_playing(bool playing);
  void toggle_playing();
  void single_step(int count = 1);             // pauses, then takes `count` steps at once
  void reset();                                // initial state of the current model
  void set_real_time(bool real_time);          // false: as fast as possible
  void set_grab(const Grab& grab);             // Ctrl+drag spring; kind None releases
  void set_joint_target(int joint, double target);
  // The active pressure of soft group `group` (Control::soft_pressure) [Pa], from the next step.
  void set_soft_pressure(int group, double pressure);
  void set_pose_hook(PoseHook hook);
  // Teleoperation (teleop_session.hpp): starts driving `setup` from the current pose (an invalid
  // setup stops it); the held velocity command; a jump of the target (gizmo); the gripper. The
  // session survives edits and resets by name and stops when another scene is loaded.
  // History (state_history.hpp): every step's state is recorded. seek_history shows the state at
  // `index` (0: the oldest; clamped) and pauses there; playing or stepping resumes from it and
  // drops the states after it. history_step moves the shown state by `delta` (from the newest
  // when none is shown). The budget bounds the ring's memory.
  void seek_history(long index);
  void history_step(long delta);
  void set_history_budget(std::size_t bytes);
  // Continues from `state` and `control` (a restored keyframe): a jump, recorded in the history.
  void restore(const sim::State& state, const sim::Control& control);

  // Capture (capture_ring.hpp): the triggers that keep a step's solve in the ring; keep the next
  // step's solve whatever they are (the F9 key); open a kept solve in the Solve capture panel
  // (Snapshot::failed_step, a new id). The ring's list is Snapshot::captures.
  void set_capture_triggers(const CaptureTriggers& triggers);
  void capture_next_step();
  void open_capture(std::uint64_t id);
  // A/B and sweep of the open capture (Snapshot::failed_step; sim/captured_resolve.hpp): solve its
  // step again with solver option `key` = `value` (B, against the capture's own iterates as A), or
  // once per value of `key` from `from` to `to` (`count` solves; whole numbers for integer
  // options). B is solved on the simulation thread between steps; the sweep on a worker thread
  // (sweep_worker.hpp: the run goes on; each point is published as it is done, with the progress,
  // in Snapshot::comparison; a new sweep cancels the running one). cancel_sweep() stops it
  // between its solves.
  void compare_capture(std::string key, std::string value);
  void sweep_capture(std::string key, double from, double to, int count);
  void cancel_sweep() { sweep_worker_.cancel(); }

  void set_teleop(const TeleopSetup& setup);
  void set_teleop_command(const sim::TeleopCommand& command);
  void set_teleop_target(const sim::Vec3& position, const sim::Quat& orientation);
  void set_teleop_gripper(bool closed);
  // "Move to the selected object": the end effector approaches a pose above `body` for a
  // top-down grasp (TeleopSession::move_to_object); the status says why when it cannot.
  void teleop_move_to_object(int body);
  void toggle_teleop_gripper();

  // The backend (sim/device_linear_solver.hpp): the device the app found at start (null: none,
  // `why_not` says why), and whether the steps use it (the Solver panel's Backend choice). The
  // UI thread's own copy answers backend(); the simulation thread gets the choice as a request.
  void set_available_device(std::shared_ptr<sim::DeviceLinearSolver> device, std::string why_not);
  void use_device(bool on);
  bool using_device() const { return using_device_; }
  const sim::DeviceLinearSolver* available_device() const { return available_device_.get(); }
  const std::string& device_unavailable_reason() const { return device_why_not_; }
  std::string backend() const;  // "CPU", or the device's description

  // ---- reading: one thread only (the UI's) ------------------------------------------------------
  // Takes the newest published snapshot (lock-free) and returns it; the reference stays valid and
  // unchanged until the next latest() call.
  const Snapshot& latest();
  // The snapshot taken by the last latest() call.
  const Snapshot& current() const { return buffer_.front(); }

  // ---- diagnostics (any thread) ---------------------------------------------------------------
  std::uint64_t published_count() const { return published_.load(std::memory_order_acquire); }
  bool stepping() const { return stepping_.load(std::memory_order_acquire); }  // inside sim::step now
  bool playing_requested() const { return playing_requested_.load(std::memory_order_acquire); }

 private:
  struct Core;                                  // the simulation thread's own state
  using Request = std::function<bool(Core&)>;   // returns true when the change should be published

  // Queues `request`; with `interrupt` the step in progress, if any, is cancelled between solver
  // iterations and undone (Workspace::cancel), so a pause, a reset or another scene takes effect
  // within an iteration however long the step.
  void submit(Request request, bool interrupt = false);
  void thread_main();
  void publish(Core& core);

  std::unique_ptr<Core> core_;
  TripleBuffer<Snapshot> buffer_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Request> requests_;               // guarded by mutex_
  bool quit_ = false;                           // guarded by mutex_
  // Workspace::cancel of the thread's steps: raised with an interrupting request (under mutex_),
  // cleared when the thread takes the requests (under mutex_), so no raise is lost.
  std::atomic<bool> cancel_step_{false};
  std::atomic<std::uint64_t> published_{0};
  std::atomic<bool> stepping_{false};
  SweepWorker sweep_worker_;                    // the capture sweep's solves (started on the simulation thread)
  std::atomic<bool> playing_requested_{false};
  std::shared_ptr<sim::DeviceLinearSolver> available_device_;  // UI thread
  std::string device_why_not_;
  bool using_device_ = false;
  std::thread thread_;
};

}  // namespace coulomb::gui
