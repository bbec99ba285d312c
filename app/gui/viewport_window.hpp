// The 3D viewport: a QVulkanWindow (embedded in the main window with
// QWidget::createWindowContainer) whose renderer drives render::SceneRenderer in the window's
// own render pass. Poses reach the GPU from the simulation thread through a PoseBridge into
// the renderer's SharedPoseBuffer; the frame reads only the latest snapshot for overlays.
//
// Mouse: left drag orbits, middle drag or Shift+left drag pans, the wheel zooms, a double click
// selects (ray pick), Ctrl+left drag pulls the picked body or particle with a critically damped
// spring (grab_spring.hpp), drawn as a line. Keys Space, S, R, F, T emit commands for the main
// window's actions (which also own the shortcuts). While teleoperation is on (teleop_driver.hpp)
// the teleoperation keys go to the driver and a left drag on the target gizmo moves the target.
// Ctrl+right drag turns the body under the cursor (rotational perturbation). F1 shows every
// shortcut. Mouse and key events for the ImGui panels are queued (imgui_input_queue.hpp) and each
// asks for a frame, so a quick click on a panel is never lost, paused or not. The viewer's own
// panels (History, View) and their state live here: render switches, camera snaps and tracking,
// the frame rate, recording (video_recorder.hpp) and the history scrubber's requests.
#pragma once

#include <QImage>
#include <QVulkanWindow>
#include <chrono>
#include <functional>
#include <memory>
#include <span>

#include "gui/grab_spring.hpp"
#include "gui/picking.hpp"
#include "gui/orbit_camera.hpp"
#include "gui/pose_bridge.hpp"
#include "gui/scene_properties.hpp"
#include "gui/sim_runner.hpp"
#include "ui/color_legend.hpp"
#include "ui/friction_panel.hpp"
#include "render/frame_input.hpp"
#include "ui/help_overlay.hpp"
#include "ui/history_panel.hpp"
#include "ui/view_panel.hpp"

namespace coulomb::gui {

class DebugPanels;
class TeleopDriver;
class VideoRecorder;

// Display switches of the scene (View panel), for slow machines and for seeing inside.
struct RenderSettings {
  bool wireframe = false;     // triangle edges only
  bool transparent = false;   // shapes drawn see-through
  bool shadows = true;
  bool surface_particles = false;  // spheres of the particles under soft-body and cloth surfaces
  render::GeometryView geometry;  // robots' visual shapes, collision shapes as an overlay
};

class ViewportWindow : public QVulkanWindow {
  Q_OBJECT

 public:
  // `runner` must outlive the window; so must `vulkan` (created). The window installs the runner's
  // pose hook (poses into the renderer's buffer) and removes it when destroyed.
  ViewportWindow(SimRunner& runner, QVulkanInstance* vulkan);
  ~ViewportWindow() override;

  QVulkanWindowRenderer* createRenderer() override;

  SimRunner& runner() { return runner_; }
  const std::shared_ptr<PoseBridge>& bridge() const { return bridge_; }

  OrbitCamera& camera() { return camera_; }
  void reset_camera();                       // frames the whole scene
  void frame_item(const ItemRef& item);      // frames a body, shape's body or particle (else all)
  void frame_nodes(std::span<const int> nodes);  // frames bodies and particles (a capture row's nodes)
  // The State the viewport shows of `snapshot`: while a kept solve is replayed (paused), the
  // captured step's start State the bodies are held at; otherwise the live one. Clicks and
  // framing go by what is shown.
  const sim::State& shown_state(const Snapshot& snapshot) const;
  void set_selection(const ItemRef& item);   // highlighted body
  const render::Overlays& overlays() const { return overlays_; }
  void set_overlays(const render::Overlays& overlays);
  const Grab& current_grab() const { return grab_; }
  // The range the colour field overlay maps onto the colour map in the last frame drawn.
  render::FieldRange element_range() const { return element_range_; }
  // The surface face the last double-click pick went through (PickHit::face, -1: none) and where.
  int picked_face() const { return picked_face_; }
  int picked_render_mesh() const { return picked_render_mesh_; }  // the face's render mesh, -1: a particle triangle
  const sim::Vec3& picked_point() const { return picked_point_; }
  // The colour-field legend drawn over the viewport (filled each frame while a field is shown).
  const ui::ColorLegendView& legend() const { return legend_view_; }  // the Ctrl+drag spring (kind None: none)
  int selected_body() const;
  // The contact shown in the Contact panel (double click near a contact point): followed from
  // step to step by its feature key; -1: none.
  void select_contact(int contact);
  std::uint64_t selected_contact_key() const { return contact_key_; }
  bool contact_selected() const { return contact_selected_; }
  // The contact whose point (midway between its sides) projects within `radius` pixels of (x, y)
  // in the latest snapshot, the nearest; -1: none.
  int contact_at(double x, double y, double radius = 10) const;
  // Teleoperation: keys, the gizmo and the Teleop panel go through `driver` (must outlive the
  // window; null: none).
  void set_teleop(TeleopDriver* driver);
  TeleopDriver* teleop() const { return teleop_; }

  // The ImGui panels (ui/) over the scene; they show the values `solver_source` returns and
  // report edits through solver_edited / dt_edited (joint sliders go to the runner directly).
  void set_panels_visible(bool visible);
  bool panels_visible() const { return panels_visible_; }
  void set_solver_source(std::function<sim::SolverOptions()> solver, std::function<double()> dt) {
    solver_source_ = std::move(solver);
    dt_source_ = std::move(dt);
  }
  // The Friction panel (friction_authoring.hpp): `fill` refreshes its view each frame, `apply`
  // receives its edits after the frame. Unset: no Friction panel.
  void set_friction_authoring(std::function<void(ui::FrictionPanelView&, const sim::Workspace*)> fill,
                              std::function<void(const ui::FrictionPanelEdits&)> apply) {
    friction_fill_ = std::move(fill);
    friction_apply_ = std::move(apply);
  }

  // A surface tool (the Friction panel's texture brush): while `active` says so, a plain left press
  // whose ray `press` accepts (it hit a surface the tool works on) starts a drag that goes to
  // `move` and ends with `release`, instead of orbiting. Unset: none.
  struct SurfaceTool {
    std::function<bool()> active;
    std::function<bool(const Ray&)> press;
    std::function<void(const Ray&)> move;
    std::function<void()> release;
  };
  void set_surface_tool(SurfaceTool tool) { surface_tool_ = std::move(tool); }

  // ---- viewer (MuJoCo simulate parity) -----------------------------------------------------------
  const RenderSettings& render_settings() const { return render_settings_; }
  void set_render_settings(const RenderSettings& settings);
  // The F1 overlay and its rows (the main window's actions with their keys, the mouse, teleop).
  void set_help_open(bool open);
  bool help_open() const { return help_open_; }
  void set_shortcuts(std::vector<ui::ShortcutRow> rows) { shortcuts_ = std::move(rows); }
  // Camera: a snapped view of the scene (top, side, front) or of the teleoperated gripper from the
  // side at its height (fingertips over the table visible); tracking keeps the camera's target on
  // a body as it moves (-1: none).
  void snap_view(ui::SnapView view);
  void track_body(int body);
  int tracked_body() const { return tracked_body_; }
  double render_fps() const { return render_fps_; }
  // Recording (owned by the main window; null: none), the scene's keyframe names, the
  // anti-aliasing the user chose (applies when the viewport is next created) and the one in use.
  void set_recorder(VideoRecorder* recorder) { recorder_ = recorder; }
  void set_keyframe_names(std::vector<std::string> names) { history_view_.keyframes = std::move(names); requestUpdate(); }
  void set_msaa_choice(int samples) { view_view_.msaa = samples; }
  DebugPanels* panels() const { return panels_; }  // null until the renderer has a device

  // The next frame as shown on screen, read back (QVulkanWindow::grab() hands over the
  // swapchain's bytes as RGBA: with a BGRA swapchain red and blue come back swapped, and are
  // swapped back here). Null when the window cannot grab.
  QImage screenshot();

  // Set by the renderer: empty while all is well, else why the scene cannot be drawn.
  const QString& render_error() const { return render_error_; }
  std::uint64_t frames_rendered() const { return frames_; }

 signals:
  void picked(const coulomb::gui::ItemRef& item);   // double click (kind None: empty space)
  void command(const QString& name);                 // "play", "step", "reset", "frame", "teleop"
  void render_failed(const QString& message);
  void solver_edited(const sim::SolverOptions& options);  // from the ImGui Solver panel
  void dt_edited(double dt);
  // The SDF baker panel's Apply: new grid parameters for model shape `shape` (baked already).
  void sdf_apply_requested(int shape, double voxel_size, double band);
  // The History panel's keyframe buttons; the View panel's recording and quality choices.
  void keyframe_save_requested(const QString& name);
  void keyframe_restore_requested(int index);
  void keyframe_delete_requested(int index);
  void record_requested(bool start, int seconds, bool mp4);
  void msaa_requested(int samples);
  void help_toggled(bool open);
  void render_settings_changed(const coulomb::gui::RenderSettings& settings);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;

 private:
  friend class ViewportRenderer;
  enum class Drag { None, Orbit, Pan, Grab, Rotate, Gizmo, Paint };
  void release_grab();
  // Forwards the event to the ImGui panels; true when they take it (the camera leaves it).
  bool panels_take_mouse(QMouseEvent* event);
  bool panels_take_key(QKeyEvent* event, bool down);
  // The History and View panels' edits (the frame that built them has ended).
  void apply_viewer_edits(const ui::HistoryPanelEdits& history, const ui::ViewPanelEdits& view);
  void fill_viewer_views(const Snapshot& snapshot);

  SimRunner& runner_;
  std::shared_ptr<PoseBridge> bridge_;
  OrbitCamera camera_;
  bool camera_framed_ = false;               // framed once the first scene appears
  std::uint64_t framed_scene_version_ = 0;
  render::Overlays overlays_;
  render::FieldRange element_range_;
  ItemRef selection_;
  Grab grab_;
  sim::Vec3 grab_plane_point_ = sim::Vec3::Zero();
  Drag drag_ = Drag::None;
  QPointF last_mouse_;
  DebugPanels* panels_ = nullptr;       // owned by the renderer while it has a device
  TeleopDriver* teleop_ = nullptr;
  bool panels_visible_ = true;
  std::function<sim::SolverOptions()> solver_source_;
  std::function<double()> dt_source_;
  std::function<void(ui::FrictionPanelView&, const sim::Workspace*)> friction_fill_;
  std::function<void(const ui::FrictionPanelEdits&)> friction_apply_;
  SurfaceTool surface_tool_;
  QString render_error_;
  std::uint64_t frames_ = 0;
  // Viewer state.
  RenderSettings render_settings_;
  bool help_open_ = false;
  std::vector<ui::ShortcutRow> shortcuts_;
  ui::HistoryPanelView history_view_;
  ui::ColorLegendView legend_view_;
  bool contact_selected_ = false;
  std::uint64_t contact_key_ = 0;
  int contact_index_ = -1;                       // where the key was found last
  int picked_face_ = -1;
  int picked_render_mesh_ = -1;
  sim::Vec3 picked_point_ = sim::Vec3::Zero();
  ui::ViewPanelView view_view_;
  int tracked_body_ = -1;
  sim::Vec3 track_offset_ = sim::Vec3::Zero();   // camera target − tracked body position
  VideoRecorder* recorder_ = nullptr;
  bool panel_buttons_ = false;                   // a press went to the panels: until all buttons are up
  double render_fps_ = 0;
  std::uint64_t fps_frames_ = 0;
  std::chrono::steady_clock::time_point fps_since_ = std::chrono::steady_clock::now();
};

}  // namespace coulomb::gui
