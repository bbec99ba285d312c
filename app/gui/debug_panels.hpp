// The Dear ImGui panels of ui/ (Solver, Convergence, Stats, Solve capture, Joints, Contact forces, SDF baker) drawn over the
// viewport in its own render pass: owns the ImGui context and the Vulkan backend, feeds the
// panels from the latest snapshot and returns what the user changed, for the main window to
// apply through the same paths as everything else (document edits, runner requests). The input
// events come from the viewport (Qt), translated to ImGui's io there. No Qt here.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "gui/imgui_input_queue.hpp"
#include "gui/panel_layout.hpp"
#include "gui/sdf_baker_controller.hpp"
#include "render/render_context.hpp"
#include "sim/result.hpp"
#include "sim/solver_options.hpp"
#include "ui/capture_panel.hpp"
#include "ui/color_legend.hpp"
#include "ui/contact_readout.hpp"
#include "ui/friction_panel.hpp"
#include "ui/help_overlay.hpp"
#include "ui/history_panel.hpp"
#include "ui/teleop_panel.hpp"
#include "ui/view_panel.hpp"

struct ImGuiContext;
struct ImGuiIO;

namespace coulomb::gui {

struct Snapshot;

struct PanelEdits {
  std::optional<sim::SolverOptions> solver;  // the Solver panel changed an option
  std::optional<double> dt;                   // ... or the time step
  int joint = -1;                             // the Joints panel moved this joint's target
  double joint_target = 0;
  int soft_group = -1;                        // ... or this soft group's active pressure
  double soft_pressure = 0;                   // [Pa]
  ui::TeleopPanelEdits teleop;                // the Teleop panel's edits (view: the one passed in)
  ui::FrictionPanelEdits friction;            // the Friction panel's edits of a material
  // The SDF baker panel: new grid parameters for a model shape, already baked into the cache, to
  // apply through the document (a recompile), and the slice overlay's axis and position.
  std::optional<SdfApply> sdf_apply;
  std::optional<std::pair<int, float>> sdf_slice;
  ui::HistoryPanelEdits history;              // the History panel (scrubber, keyframes)
  ui::ViewPanelEdits view;                    // the View panel (display, camera, recording)
  // The Solve capture panel: a clicked row's first body, or on a new failed step its worst row's:
  // select (highlight) it, and frame the camera on all the row's nodes (bodies, then particles).
  int select_body = -1;
  std::vector<int> frame_nodes;
  ui::CapturePanelEdits capture;              // the Solve capture panel's triggers, F9 button, opened solve
  bool contact_closed = false;                // the Contact panel's close button
  std::optional<bool> use_device;             // the Solver panel's Backend choice changed
};

// The viewer's own panels, filled by the viewport (null: not shown).
struct ViewerPanels {
  ui::HistoryPanelView* history = nullptr;
  ui::ViewPanelView* view = nullptr;
  const std::vector<ui::ShortcutRow>* shortcuts = nullptr;  // the F1 overlay's rows
  bool* help_open = nullptr;                                // F1 overlay shown; its close button clears it
  ui::FrictionPanelView* friction = nullptr;                // the Friction panel's view (null: no panel)
  const ui::ColorLegendView* legend = nullptr;              // the colour field's legend (top centre)
  const ui::ContactReadout* contact = nullptr;              // the contact clicked in the viewport (null: none)
  // The backend (SimRunner::backend): what runs the steps' large solves, the device found at start
  // (null: none; device_missing says why) and whether the steps use it.
  const char* backend = "CPU";
  const char* device = nullptr;
  const char* device_missing = nullptr;
  bool using_device = false;
};

class DebugPanels {
 public:
  DebugPanels();
  ~DebugPanels();
  DebugPanels(const DebugPanels&) = delete;
  DebugPanels& operator=(const DebugPanels&) = delete;

  // `image_count`: frames whose vertex buffers may be in flight at once (>= 2).
  sim::Result<bool> init(const render::RenderContext& context, VkRenderPass render_pass, VkSampleCountFlagBits samples,
                         int image_count);
  void release();
  bool ready() const { return ready_; }

  // Makes this panel set's ImGui context current (before touching io()).
  ImGuiIO& io();

  // Outside any render pass, once per frame: uploads the font atlas on first use.
  void prepare(VkCommandBuffer cmd);
  // Builds the panels for this frame. `solver`, `dt`: the document's values (what the Solver
  // panel shows). `width`, `height`: logical size; `scale`: device pixels per logical pixel.
  // `teleop`: the Teleop panel's view (filled by the caller; null: no Teleop panel); its finger
  // force history is set here.
  PanelEdits build(const Snapshot& snapshot, const sim::SolverOptions& solver, double dt, float width, float height,
                   float scale, ui::TeleopPanelView* teleop = nullptr, const ViewerPanels& viewer = {});
  // Inside the render pass, after build().
  void record(VkCommandBuffer cmd);

  bool wants_mouse() const;
  bool wants_keyboard() const;

  // Input (imgui_input_queue.hpp): the viewport queues Qt's events here; build() applies them.
  ImGuiInputQueue& input() { return input_; }
  // True when queued input is left for the next frame (the viewport asks for one).
  bool wants_frame() const { return !input_.empty() || settle_frames_ > 0; }
  // Whether the point (logical pixels) is on a panel or popup drawn in the last frame.
  bool hit(float x, float y) const;
  // The docked panels of the last frame (panel_layout.hpp).
  const std::vector<PanelRect>& panel_rects() const { return rects_; }
  const PanelRect* panel(const std::string& name) const;
  // The Solve capture panel's view: the viewport reads the replay settings (iterate, quantity,
  // arrows, selected row) and fills in what it drew (the replay, the arrow scale) before build().
  ui::CapturePanelView* capture_view();

 private:
  struct State;  // panel histories and views
  ImGuiContext* context_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  bool ready_ = false;
  bool backend_ = false;
  int font_state_ = 0;        // 0: not uploaded, then frames since the upload was recorded
  int image_count_ = 2;
  std::unique_ptr<State> state_;
  ImGuiInputQueue input_;
  int settle_frames_ = 0;              // frames still drawn after input (ImGui reacts a frame late)
  std::vector<PanelRect> rects_;
};

}  // namespace coulomb::gui
