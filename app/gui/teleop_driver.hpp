// The UI side of teleoperation: turns it on and off for the scene's robot (teleop_session.hpp's
// default setup, or the body the user picks), keeps the teleoperation keys held in the viewport
// and the gamepad (polled with a QTimer through SDL, gamepad.hpp) and sends their summed velocity
// command to the simulation thread when it changes, drives the target gizmo (target_gizmo.hpp)
// and fills and applies the ImGui Teleop panel. Keys (world axes, z up; see teleop_input.hpp):
// arrows ±x/±y, Page Up/Down ±z, U/O, I/K, J/L rotate about x, y, z, G toggles the gripper,
// M moves the hand above the selected object (or the panel's object) for a top-down grasp,
// ] / [ (gamepad X / Y) held ramp the soft groups' active pressure up / down (the panel has a
// slider per group).
#pragma once

#include <QObject>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gui/gamepad.hpp"
#include "gui/target_gizmo.hpp"
#include "gui/teleop_input.hpp"
#include "gui/teleop_session.hpp"
#include "ui/teleop_panel.hpp"

class QTimer;

namespace coulomb::gui {

class SimRunner;
struct Snapshot;

class TeleopDriver : public QObject {
  Q_OBJECT

 public:
  // `runner` must outlive the driver. The gamepad is opened here (SDL); without one the driver
  // works with keys and the gizmo and says why in gamepad_status().
  explicit TeleopDriver(SimRunner& runner, QObject* parent = nullptr);
  ~TeleopDriver() override;

  // On: starts a session on the current scene (and on every scene opened later) for the chosen
  // body, else the default end effector, and plays the simulation if it was paused. False when
  // the scene has nothing to drive (message()).
  bool set_enabled(bool on);
  bool enabled() const { return enabled_; }
  // The end effector to drive (−1: the scene's default); restarts a running session.
  void set_end_effector(int body);
  void toggle_gripper();
  // The body selected in the viewport or the scene tree (−1: none): the object M moves to.
  void set_selected_body(int body) { selected_body_ = body; }
  // Moves the hand above `body` (−1: the selected body if it is an object, else the panel's
  // object) for a top-down grasp; false (message) when there is no such object.
  bool move_to_object(int body = -1);
  const TeleopSpeeds& speeds() const { return speeds_; }
  void set_speeds(const TeleopSpeeds& speeds);
  const std::string& message() const { return message_; }

  // A key in the viewport (Qt::Key); true when teleoperation is on and the key is one of its keys.
  // Auto-repeats are taken and ignored: a key counts from its press to its release.
  bool key(int qt_key, bool down, bool auto_repeat);
  void release_keys();  // focus lost: nothing stays held
  const HeldKeys& held_keys() const { return keys_; }

  // The gizmo under the left mouse button (view: the viewport's camera and logical size). press:
  // true when a handle was hit and the drag began; move: drags, or hovers without a drag, true
  // when the picture changes; release ends the drag.
  bool gizmo_press(const GizmoView& view, double x, double y);
  bool gizmo_move(const GizmoView& view, double x, double y);
  void gizmo_release();
  bool gizmo_dragging() const { return gizmo_.active() != GizmoHandle::None; }
  GizmoHandle gizmo_highlight() const { return gizmo_dragging() ? gizmo_.active() : hover_; }
  // Where the gizmo is drawn now (the target; while dragging, the dragged pose); false when no
  // session is running.
  bool gizmo_pose(sim::Vec3& position, sim::Quat& orientation, bool& rotations) const;

  // The panel, from the latest snapshot, and its edits (applied on the UI thread).
  void fill_panel_view(const Snapshot& snapshot, ui::TeleopPanelView& view) const;
  void apply(const ui::TeleopPanelEdits& edits, const ui::TeleopPanelView& view);

  const std::string& gamepad_status() const { return gamepad_.status(); }
  // Reads the gamepad and follows scene changes now (the timer does this every 16 ms).
  void poll();

 signals:
  void enabled_changed(bool on);
  void status_message(const QString& text);

 private:
  bool start_session();
  // Sends the keys' and the gamepad's command when it changed (or always, `force`).
  void send_command(bool force = false);
  // While ] / [ or X / Y are held, ramps every soft group's pressure (ramp_soft_pressure) over
  // the time since the last poll and sends it to the runner.
  void ramp_pressure(const Snapshot& snapshot);

  SimRunner& runner_;
  bool enabled_ = false;
  int chosen_body_ = -1;
  int selected_body_ = -1;
  mutable int panel_object_ = -1;  // the object chosen in the panel (body index)
  mutable std::chrono::steady_clock::time_point warning_until_{};
  mutable std::string warning_;
  std::uint64_t session_scene_ = 0;
  std::uint64_t seen_scene_ = 0;       // the scene poll() last saw (chosen body and message belong to it)
  TeleopSpeeds speeds_;
  HeldKeys keys_{};
  GamepadState pad_;
  bool pad_connected_ = false;
  Gamepad gamepad_;
  QTimer* timer_ = nullptr;
  sim::TeleopCommand sent_;
  int last_gripper_ = 0;
  std::vector<sim::Real> pressure_;    // the soft groups' pressures being ramped [Pa]
  std::vector<double> pressure_range_; // their sliders' ranges [Pa], for the model of pressure_range_version_
  std::uint64_t pressure_range_version_ = 0;
  std::chrono::steady_clock::time_point last_poll_ = std::chrono::steady_clock::now();
  mutable std::uint64_t soft_listed_version_ = 0;
  TargetGizmo gizmo_;
  GizmoHandle hover_ = GizmoHandle::None;
  sim::Vec3 drag_position_ = sim::Vec3::Zero();
  sim::Quat drag_orientation_ = sim::Quat::Identity();
  std::string message_;
  mutable std::uint64_t listed_model_version_ = 0;  // the panel's body list is for this model
  mutable int default_end_effector_ = -1;
};

}  // namespace coulomb::gui
