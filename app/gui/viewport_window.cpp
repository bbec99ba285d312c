#include "gui/viewport_window.hpp"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QTimer>
#include <imgui.h>
#include <QMouseEvent>
#include <QVulkanFunctions>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gui/capture_replay_overlay.hpp"
#include "gui/debug_panels.hpp"
#include "gui/node_sphere.hpp"
#include "gui/marker_lines.hpp"
#include "gui/picking.hpp"
#include "gui/teleop_driver.hpp"
#include "gui/video_recorder.hpp"
#include "render/element_field.hpp"
#include "render/orbit_camera.hpp"
#include "render/render_context.hpp"
#include "render/scene_renderer.hpp"

namespace coulomb::gui {

namespace {

glm::vec3 to_glm(const sim::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

render::OrbitCamera to_render(const OrbitCamera& c) {
  render::OrbitCamera r;
  r.target = to_glm(c.target);
  r.distance = float(c.distance);
  r.yaw = float(c.yaw);
  r.pitch = float(c.pitch);
  r.fov_y = float(c.fov_y);
  return r;
}

// The legend of the field drawn (ui/color_legend.hpp): the map's colours, its range, the units.
void fill_legend(ui::ColorLegendView& v, render::ElementField field, const render::FieldRange& range) {
  v.shown = field != render::ElementField::None;
  if (!v.shown) return;
  v.name = render::element_field_name(field);
  v.unit = render::element_field_unit(field);
  v.lo = range.lo;
  v.hi = range.hi;
  if (v.colors.empty())
    for (const glm::vec3& c : render::field_map_srgb(16)) v.colors.push_back({c.r, c.g, c.b});
  const glm::vec3 none = render::field_none_srgb();
  v.none = {none.r, none.g, none.b};
}

}  // namespace

// Runs on the GUI thread (QVulkanWindow renders there); reads the runner's latest snapshot.
class ViewportRenderer : public QVulkanWindowRenderer {
 public:
  explicit ViewportRenderer(ViewportWindow* window) : window_(window) {}

  void initResources() override {
    QVulkanWindow& w = *window_;
    context_ = render::describe_context(w.vulkanInstance()->vkInstance(), w.physicalDevice(), w.device(),
                                        w.graphicsQueueFamilyIndex(), w.graphicsQueue());
    render::SceneRendererOptions options;
    options.frames_in_flight = w.concurrentFrameCount();
    scene_ = std::make_unique<render::SceneRenderer>();
    auto ok = scene_->init(context_, w.defaultRenderPass(), w.sampleCountFlagBits(), w.colorFormat(), options);
    if (!ok) {
      fail(QString::fromStdString(ok.error()));
      return;
    }
    if (auto lines = lines_.init(w.device(), w.defaultRenderPass(), w.sampleCountFlagBits()); !lines) {
      fail(QString::fromStdString(lines.error()));
      return;
    }
    panels_ = std::make_unique<DebugPanels>();
    if (auto panels = panels_->init(context_, w.defaultRenderPass(), w.sampleCountFlagBits(), w.concurrentFrameCount() + 1);
        !panels) {
      // The scene still draws; only the panels are missing.
      emit window_->render_failed(QString::fromStdString(panels.error()));
      panels_.reset();
    }
    window_->panels_ = panels_.get();
    ready_ = true;
    model_version_ = 0;
  }

  void releaseResources() override {
    window_->bridge()->detach();  // the pose buffer goes with the renderer
    window_->panels_ = nullptr;
    panels_.reset();
    lines_.release();
    // Destroyed here, while the device exists (QVulkanWindow destroys it right after).
    scene_.reset();
    ready_ = false;
    model_version_ = 0;
  }

  void startNextFrame() override {
    ViewportWindow& w = *window_;
    const Snapshot& snap = w.runner().latest();
    const QSize size = w.swapChainImageSize();
    const VkExtent2D extent{static_cast<std::uint32_t>(size.width()), static_cast<std::uint32_t>(size.height())};
    VkCommandBuffer cmd = w.currentCommandBuffer();
    const float aspect = size.height() > 0 ? float(size.width()) / float(size.height()) : 1.0f;

    bool draw_scene = ready_ && scene_ && snap.model != nullptr;
    if (draw_scene && snap.model_version != model_version_) {
      w.bridge()->detach();  // set_model replaces the pose buffer
      if (auto set = scene_->set_model(*snap.model); !set) {
        fail(QString::fromStdString(set.error()));
        draw_scene = false;
      } else {
        model_version_ = snap.model_version;
        w.bridge()->attach(scene_->pose_sink());
      }
    }
    if (draw_scene && snap.scene_version != w.framed_scene_version_) {
      w.framed_scene_version_ = snap.scene_version;
      w.reset_camera();
    }
    // Tracking: the camera's target rides on the body (the offset the user panned to is kept).
    if (draw_scene && w.tracked_body_ >= 0 && w.tracked_body_ < snap.model->body_count &&
        static_cast<int>(snap.state.q.size()) == snap.model->coord_count())
      w.camera_.target = snap.state.body_position(w.tracked_body_) + w.track_offset_;
    const render::OrbitCamera camera = to_render(w.camera_);
    if (draw_scene) {
      // A capture open in the Solve capture panel, paused: its contacts and joints at the iterate
      // the panel shows, in place of the live step's (issue 15 item 2), on the bodies and
      // particles as the captured step began (its start State held in the pose buffer).
      ui::CapturePanelView* capture_view = panels_ && w.panels_visible_ ? panels_->capture_view() : nullptr;
      const FailedStep* opened = snap.failed_step.get();
      const bool replay = capture_view && opened && opened->capture.filled && capture_view->replay_shown;
      // Normally the simulation thread already wrote the live state (the bridge skips it then);
      // after attaching a new buffer, or when a replay's hold ends, the frame writes it itself.
      write_frame_poses(*w.bridge(), *snap.model, snap.state, snap.sequence,
                        replay_pose_state(*snap.model, replay ? &opened->capture : nullptr, replay, snap.playing));
      render::FrameInput input;
      input.camera = camera;
      input.write_poses = false;  // poses come from the simulation through the pose sink
      input.selected_body = w.selected_body();
      input.overlays = w.overlays_;
      if (snap.model_version == model_version_) input.parameters = snap.model.get();  // live grains
      input.shadows = w.render_settings_.shadows;
      input.wireframe = w.render_settings_.wireframe;
      input.transparent = w.render_settings_.transparent;
      input.surface_particles = w.render_settings_.surface_particles;
      input.geometry = w.render_settings_.geometry;
      if (capture_view) {
        capture_view->replay = nullptr;
        capture_view->replay_note.clear();
        if (replay_model_version_ != snap.model_version) {
          replay_scale_ = render::overlay_scale(*snap.model);
          replay_model_version_ = snap.model_version;
        }
        capture_view->force_scale = w.overlays_.force_scale > 0 ? w.overlays_.force_scale : replay_scale_.force_per_newton;
        capture_view->max_arrow = replay_scale_.max_arrow;
        if (capture_view->map_colors.empty())
          for (const glm::vec3& c : render::field_map_srgb(16)) capture_view->map_colors.push_back({c.r, c.g, c.b});
      }
      if (replay && snap.playing) {
        capture_view->replay_note = "running: pause to see the capture in the viewport";
      } else if (replay) {
        ui::build_capture_replay(*snap.model, opened->capture, opened->contacts, capture_view->iteration,
                                 capture_view->replay_quantity, replay_);
        capture_view->replay_note = fill_replay_overlay(*snap.model, opened->capture, opened->contacts, replay_, contacts_);
        capture_view->replay = &replay_;
        input.contacts = &contacts_;
        input.overlays.replay_marks = true;
        input.overlays.normal_forces = input.overlays.friction_forces = capture_view->replay_arrows;
      } else if (w.overlays_.any() && snap.stepped &&
          static_cast<int>(snap.state.q.size()) == snap.model->coord_count()) {
        render::copy_contacts(*snap.model, snap.state, snap.workspace, contacts_);
        input.contacts = &contacts_;
      }
      // The selected capture row's bodies and particles, outlined, and a selected particle (on a
      // soft surface its sphere is not drawn, so the outline is what shows the pick).
      highlighted_.clear();
      if (capture_view && opened && opened->capture.filled)
        ui::capture_row_nodes(opened->capture, capture_view->selected_row, highlighted_);
      if (w.selection_.kind == ItemKind::Particle && w.selection_.index >= 0 &&
          w.selection_.index < snap.model->particle_count)
        highlighted_.push_back(snap.model->body_count + w.selection_.index);
      input.highlighted_nodes = highlighted_;
      if (w.overlays_.element_field != render::ElementField::None &&
          static_cast<int>(snap.state.q.size()) == snap.model->coord_count()) {
        render::compute_element_field(*snap.model, snap.state, snap.stepped ? &snap.workspace : nullptr,
                                      w.overlays_.element_field, element_values_);
        input.element_values = element_values_;
        w.element_range_ = render::display_range(w.overlays_.element_field, element_values_);
      }
      fill_legend(w.legend_view_, w.overlays_.element_field, w.element_range_);
      input.frame_slot = w.currentFrame();
      scene_->update(input);
      scene_->record_shadow_pass(cmd);
    }
    const bool panels = draw_scene && panels_ && w.panels_visible_;
    if (panels) {
      panels_->prepare(cmd);
      const sim::SolverOptions solver = w.solver_source_ ? w.solver_source_() : snap.model->solver;
      const double dt = w.dt_source_ ? w.dt_source_() : double(snap.model->dt);
      if (w.teleop_) w.teleop_->fill_panel_view(snap, teleop_view_);
      w.fill_viewer_views(snap);
      const bool help_was_open = w.help_open_;
      ViewerPanels viewer{&w.history_view_, &w.view_view_, &w.shortcuts_, &w.help_open_};
      viewer.legend = &w.legend_view_;
      const std::string backend = w.runner().backend();
      viewer.backend = backend.c_str();
      const sim::DeviceLinearSolver* found = w.runner().available_device();
      const std::string device = found ? found->description() : std::string();
      viewer.device = found ? device.c_str() : nullptr;
      viewer.device_missing = w.runner().device_unavailable_reason().c_str();
      viewer.using_device = w.runner().using_device();
      if (w.contact_selected_) {
        // The same contact in this step's list (contacts are found again every step).
        int index = -1;
        if (snap.stepped) {
          const auto& list = snap.workspace.contacts.contacts;
          if (w.contact_index_ >= 0 && w.contact_index_ < int(list.size()) && list[std::size_t(w.contact_index_)].key == w.contact_key_)
            index = w.contact_index_;
          for (int i = 0; i < int(list.size()) && index < 0; ++i)
            if (list[std::size_t(i)].key == w.contact_key_) index = i;
        }
        w.contact_index_ = index;
        contact_readout_ = ui::contact_readout(*snap.model, snap.state, snap.workspace, index);
        viewer.contact = &contact_readout_;
      }
      if (w.friction_fill_) {
        w.friction_fill_(friction_view_, snap.stepped ? &snap.workspace : nullptr);
        viewer.friction = &friction_view_;
      }
      const PanelEdits edits = panels_->build(snap, solver, dt, float(w.width()), float(w.height()),
                                              float(w.devicePixelRatio()), w.teleop_ ? &teleop_view_ : nullptr, viewer);
      if (edits.friction.any() && w.friction_apply_) {
        const ui::FrictionPanelEdits friction = edits.friction;
        QTimer::singleShot(0, window_, [window = window_, friction] {
          if (window->friction_apply_) window->friction_apply_(friction);
        });
      }
      // Applied after the frame (edits reach the document and the runner, not this frame).
      ViewportWindow* window = window_;
      if (edits.solver) {
        const sim::SolverOptions options = *edits.solver;
        QTimer::singleShot(0, window, [window, options] { emit window->solver_edited(options); });
      }
      if (edits.dt) {
        const double value = *edits.dt;
        QTimer::singleShot(0, window, [window, value] { emit window->dt_edited(value); });
      }
      if (edits.use_device) w.runner().use_device(*edits.use_device);
      if (edits.joint >= 0) w.runner().set_joint_target(edits.joint, edits.joint_target);
      if (edits.contact_closed) QTimer::singleShot(0, window, [window] { window->select_contact(-1); });
      if (edits.select_body >= 0 || !edits.frame_nodes.empty()) {
        const ItemRef item{ItemKind::Body, edits.select_body};
        std::vector<int> nodes = edits.frame_nodes;
        QTimer::singleShot(0, window, [window, item, nodes] {
          if (item.index >= 0) window->set_selection(item);
          if (!nodes.empty()) window->frame_nodes(nodes);
          else window->frame_item(item);
        });
      }
      // The Solve capture panel: requests to the simulation thread (queued, never waiting on a step).
      if (edits.capture.triggers_changed) w.runner().set_capture_triggers(edits.capture.triggers);
      if (edits.capture.capture_next) w.runner().capture_next_step();
      if (edits.capture.open > 0) w.runner().open_capture(edits.capture.open);
      if (edits.capture.compare) w.runner().compare_capture(edits.capture.compare_key, edits.capture.compare_value);
      if (edits.capture.sweep)
        w.runner().sweep_capture(edits.capture.sweep_key, edits.capture.sweep_from, edits.capture.sweep_to,
                                 edits.capture.sweep_count);
      if (edits.capture.sweep_cancel) w.runner().cancel_sweep();
      if (edits.soft_group >= 0) w.runner().set_soft_pressure(edits.soft_group, edits.soft_pressure);
      if (edits.teleop.any() && w.teleop_) {
        const ui::TeleopPanelEdits teleop = edits.teleop;
        const ui::TeleopPanelView view = teleop_view_;
        QTimer::singleShot(0, window, [window, teleop, view] {
          if (window->teleop_) window->teleop_->apply(teleop, view);
        });
      }
      if (edits.sdf_slice) {
        w.overlays_.sdf_slice_axis = edits.sdf_slice->first;
        w.overlays_.sdf_slice_position = edits.sdf_slice->second;
        w.requestUpdate();
      }
      if (edits.history.any() || edits.view.any()) {
        const ui::HistoryPanelEdits history = edits.history;
        const ui::ViewPanelEdits view = edits.view;
        QTimer::singleShot(0, window, [window, history, view] { window->apply_viewer_edits(history, view); });
      }
      if (help_was_open && !w.help_open_) QTimer::singleShot(0, window, [window] { emit window->help_toggled(false); });
      if (edits.sdf_apply) {
        const SdfApply apply = *edits.sdf_apply;
        QTimer::singleShot(0, window, [window, apply] {
          emit window->sdf_apply_requested(apply.shape, apply.voxel_size, apply.band);
        });
      }
    }

    VkClearValue clear[3]{};
    clear[0].color = render::SceneRenderer::clear_color(w.colorFormat());
    clear[1].depthStencil = {1.0f, 0};
    clear[2].color = clear[0].color;
    VkRenderPassBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    begin.renderPass = w.defaultRenderPass();
    begin.framebuffer = w.currentFramebuffer();
    begin.renderArea.extent = extent;
    begin.clearValueCount = w.sampleCountFlagBits() > VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
    begin.pClearValues = clear;
    QVulkanDeviceFunctions* vk = w.vulkanInstance()->deviceFunctions(w.device());  // Qt builds without prototypes
    vk->vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    if (draw_scene) {
      scene_->record(cmd, extent);
      if (w.grab_.active() && lines_.ready()) {
        const glm::mat4 vp = camera.view_projection(aspect);
        const glm::vec3 target = to_glm(w.grab_.target);
        const glm::vec3 point = to_glm(grab_point(*snap.model, snap.state, w.grab_));
        const bool srgb = render::is_srgb_format(w.colorFormat());
        const glm::vec4 orange = srgb ? glm::vec4(1.0f, 0.35f, 0.02f, 1.0f) : glm::vec4(1.0f, 0.63f, 0.16f, 1.0f);
        lines_.draw_line(cmd, extent, vp, point, target, orange);
        const float s = 0.015f * float(w.camera_.distance);
        for (int axis = 0; axis < 3; ++axis) {
          glm::vec3 d(0.0f);
          d[axis] = s;
          lines_.draw_line(cmd, extent, vp, target - d, target + d, orange);
        }
      }
      if (w.teleop_ && lines_.ready()) draw_teleop(cmd, extent, camera.view_projection(aspect), snap);
      if (w.contact_selected_ && panels && contact_readout_.contact >= 0 && lines_.ready()) {
        // The contact shown in the Contact panel: a cross at its point and its normal.
        const glm::mat4 vp = camera.view_projection(aspect);
        const glm::vec3 p = to_glm(sim::Vec3(0.5 * (contact_readout_.point_a + contact_readout_.point_b)));
        const float s = 0.02f * float(w.camera_.distance);
        const glm::vec4 yellow(1.0f, 0.85f, 0.1f, 1.0f);
        lines_.draw_line(cmd, extent, vp, p, p + 4.0f * s * to_glm(contact_readout_.normal), yellow);
        for (int axis = 0; axis < 3; ++axis) {
          glm::vec3 d(0.0f);
          d[axis] = s;
          lines_.draw_line(cmd, extent, vp, p - d, p + d, yellow);
        }
      }
      if (panels) panels_->record(cmd);
    }
    vk->vkCmdEndRenderPass(cmd);
    ++w.frames_;
    w.frameReady();
    // Render frame rate over the last second (or more, at a few frames per second).
    ++w.fps_frames_;
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - w.fps_since_).count();
    if (since >= 1.0) {
      w.render_fps_ = double(w.fps_frames_) / since;
      w.fps_frames_ = 0;
      w.fps_since_ = now;
    }
    // Keep drawing while something moves or input waits for the panels; otherwise the main
    // window asks for frames on change.
    if (snap.playing || w.grab_.active() || w.drag_ != ViewportWindow::Drag::None || w.tracked_body_ >= 0 ||
        (panels && panels_->wants_frame()) || (w.recorder_ && w.recorder_->recording()))
      w.requestUpdate();
  }

 private:
  // The target gizmo (axes red, green, blue; the handle under the mouse yellow) and a grey line
  // from the driven point to the target (how far the robot lags behind).
  void draw_teleop(VkCommandBuffer cmd, VkExtent2D extent, const glm::mat4& vp, const Snapshot& snap) {
    ViewportWindow& w = *window_;
    sim::Vec3 position;
    sim::Quat orientation;
    bool rotations = false;
    if (!w.teleop_->gizmo_pose(position, orientation, rotations)) return;
    const GizmoView view{w.camera_, w.width(), w.height()};
    TargetGizmo::lines(view, position, rotations, gizmo_lines_);
    const bool srgb = render::is_srgb_format(w.colorFormat());
    auto colour = [srgb](float r, float g, float b) {
      // Linear values for sRGB targets (the hardware encodes), display values otherwise.
      auto lin = [srgb](float c) { return srgb ? std::pow(c, 2.2f) : c; };
      return glm::vec4(lin(r), lin(g), lin(b), 1.0f);
    };
    const glm::vec4 axes[3] = {colour(0.95f, 0.25f, 0.2f), colour(0.3f, 0.85f, 0.3f), colour(0.3f, 0.5f, 1.0f)};
    const glm::vec4 highlight = colour(1.0f, 0.9f, 0.1f);
    const GizmoHandle hot = w.teleop_->gizmo_highlight();
    for (const GizmoLine& l : gizmo_lines_)
      lines_.draw_line(cmd, extent, vp, to_glm(l.a), to_glm(l.b), l.handle == hot ? highlight : axes[gizmo_axis(l.handle)]);
    if (snap.teleop.active)
      lines_.draw_line(cmd, extent, vp, to_glm(snap.teleop.effector_position), to_glm(position), colour(0.8f, 0.8f, 0.8f));
  }

  void fail(const QString& message) {
    ready_ = false;
    if (window_->render_error_ == message) return;
    window_->render_error_ = message;
    emit window_->render_failed(message);
  }

  ViewportWindow* window_;
  render::RenderContext context_;
  std::unique_ptr<render::SceneRenderer> scene_;
  MarkerLines lines_;
  std::unique_ptr<DebugPanels> panels_;
  render::ContactOverlay contacts_;
  ui::CaptureReplay replay_;                 // the open capture's marks at the panel's iterate
  render::OverlayScale replay_scale_;        // the model's automatic arrow scale (the panel states it)
  std::uint64_t replay_model_version_ = 0;
  std::vector<int> highlighted_;             // the selected capture row's nodes and a selected particle
  ui::ContactReadout contact_readout_;
  std::vector<float> element_values_;  // the colour field's values for the frame being built
  ui::TeleopPanelView teleop_view_;
  ui::FrictionPanelView friction_view_;
  std::vector<GizmoLine> gizmo_lines_;
  bool ready_ = false;
  std::uint64_t model_version_ = 0;
};

ViewportWindow::ViewportWindow(SimRunner& runner, QVulkanInstance* vulkan)
    : runner_(runner), bridge_(std::make_shared<PoseBridge>()) {
  camera_.yaw = -2.2;
  camera_.pitch = 0.5;
  camera_.fov_y = 0.75;
  setVulkanInstance(vulkan);
  // 4x multisampling where the device has it (lavapipe does).
  if (supportedSampleCounts().contains(4)) setSampleCount(4);
  // The simulation thread writes poses straight into the renderer's buffer (when one is attached).
  std::weak_ptr<PoseBridge> weak = bridge_;
  runner_.set_pose_hook([weak](const sim::Model& model, const sim::State& state, std::uint64_t sequence) {
    if (auto bridge = weak.lock()) bridge->write(model, state, sequence);
  });
}

ViewportWindow::~ViewportWindow() {
  bridge_->detach();
  runner_.set_pose_hook({});
}

QVulkanWindowRenderer* ViewportWindow::createRenderer() { return new ViewportRenderer(this); }

int ViewportWindow::selected_body() const {
  if (selection_.kind == ItemKind::Body) return selection_.index;
  if (selection_.kind == ItemKind::Shape && selection_.index >= 0) return selection_.index;
  return -1;
}

void ViewportWindow::select_contact(int contact) {
  const Snapshot& s = runner_.current();
  const auto& list = s.workspace.contacts.contacts;
  contact_selected_ = s.stepped && contact >= 0 && contact < int(list.size());
  contact_index_ = contact_selected_ ? contact : -1;
  contact_key_ = contact_selected_ ? list[std::size_t(contact)].key : 0;
  requestUpdate();
}

int ViewportWindow::contact_at(double x, double y, double radius) const {
  const Snapshot& s = runner_.current();
  if (!s.model || !s.stepped || int(s.state.q.size()) != s.model->coord_count()) return -1;
  int best = -1;
  double best_d2 = radius * radius;
  const auto& list = s.workspace.contacts.contacts;
  for (int i = 0; i < int(list.size()); ++i) {
    const sim::Contact& c = list[std::size_t(i)];
    const sim::Vec3 p = 0.5 * (ui::contact_side_point(*s.model, s.state, c.a, c.normal) +
                               ui::contact_side_point(*s.model, s.state, c.b, -c.normal));
    double px = 0, py = 0;
    if (!camera_.project(p, width(), height(), px, py)) continue;
    const double d2 = (px - x) * (px - x) + (py - y) * (py - y);
    if (d2 <= best_d2) best = i, best_d2 = d2;
  }
  return best;
}

void ViewportWindow::set_teleop(TeleopDriver* driver) {
  teleop_ = driver;
  requestUpdate();
}

void ViewportWindow::set_selection(const ItemRef& item) {
  selection_ = item;
  if (teleop_) teleop_->set_selected_body(selected_body());  // M moves the hand above it
  requestUpdate();
}

void ViewportWindow::set_overlays(const render::Overlays& overlays) {
  overlays_ = overlays;
  requestUpdate();
}

void ViewportWindow::reset_camera() {
  const Snapshot& s = runner_.current();
  const double yaw = -2.2, pitch = 0.5;
  camera_.yaw = yaw;
  camera_.pitch = pitch;
  if (s.model && static_cast<int>(s.state.q.size()) == s.model->coord_count()) {
    const render::Bounds b = render::scene_bounds(*s.model, s.state.q);
    if (!b.empty()) {
      const glm::vec3 c = b.centre();
      camera_.frame(sim::Vec3(c.x, c.y, c.z), 0.5 * double(glm::length(b.size())));
    }
  }
  requestUpdate();
}

void ViewportWindow::frame_item(const ItemRef& item) {
  const Snapshot& s = runner_.current();
  if (!s.model || static_cast<int>(s.state.q.size()) != s.model->coord_count()) return;
  const sim::Model& m = *s.model;
  int body = -1;
  if (item.kind == ItemKind::Body || (item.kind == ItemKind::Shape && item.index >= 0)) body = item.index;
  if (body >= 0 && body < m.body_count) {
    camera_.frame(s.state.body_position(body), std::max<double>(m.body_bound_radius[static_cast<std::size_t>(body)], 0.05));
  } else if (item.kind == ItemKind::Particle && item.index >= 0 && item.index < m.particle_count) {
    const auto c = static_cast<std::size_t>(m.particle_coord(item.index));
    camera_.frame(sim::Vec3(s.state.q[c], s.state.q[c + 1], s.state.q[c + 2]),
                  std::max<double>(10 * m.particle_radius[static_cast<std::size_t>(item.index)], 0.1));
  } else {
    reset_camera();
    return;
  }
  requestUpdate();
}

const sim::State& ViewportWindow::shown_state(const Snapshot& s) const {
  ui::CapturePanelView* view = panels_ && panels_visible_ ? panels_->capture_view() : nullptr;
  const FailedStep* opened = s.failed_step.get();
  const bool replay = s.model && view && opened && opened->capture.filled && view->replay_shown;
  const sim::State* held = replay ? replay_pose_state(*s.model, &opened->capture, true, s.playing) : nullptr;
  return held ? *held : s.state;
}

void ViewportWindow::frame_nodes(std::span<const int> nodes) {
  const Snapshot& s = runner_.current();
  if (!s.model) return;
  const NodeSphere sphere = node_sphere(*s.model, shown_state(s), nodes);
  if (sphere.radius <= 0) return;
  camera_.frame(sphere.center, sphere.radius);
  requestUpdate();
}

void ViewportWindow::release_grab() {
  if (!grab_.active()) return;
  grab_ = Grab{};
  runner_.set_grab(grab_);
  requestUpdate();
}

void ViewportWindow::set_panels_visible(bool visible) {
  panels_visible_ = visible;
  requestUpdate();
}

bool ViewportWindow::panels_take_mouse(QMouseEvent* event) {
  if (!panels_ || !panels_->ready() || !panels_visible_) return false;
  ImGuiInputQueue& queue = panels_->input();
  const float x = float(event->position().x()), y = float(event->position().y());
  const Qt::KeyboardModifiers mods = event->modifiers();
  queue.modifiers(mods & Qt::ControlModifier, mods & Qt::ShiftModifier, mods & Qt::AltModifier);
  queue.mouse_position(x, y);
  requestUpdate();  // hover and clicks need a frame, paused or not
  // A drag the camera started stays the camera's; a press on a panel or an open popup (a combo's
  // list) is the panels' until every button is up. (Not ImGui's WantCaptureMouse: with queued
  // input it describes where the mouse was at the last frame, not where this press is.)
  if (drag_ != Drag::None) return false;
  const QEvent::Type type = event->type();
  const bool press = type == QEvent::MouseButtonPress || type == QEvent::MouseButtonDblClick;
  if (press && panels_->hit(x, y)) panel_buttons_ = true;
  if (!panel_buttons_) return panels_->hit(x, y);
  int button = -1;
  switch (event->button()) {
    case Qt::LeftButton: button = 0; break;
    case Qt::RightButton: button = 1; break;
    case Qt::MiddleButton: button = 2; break;
    default: break;
  }
  if (button >= 0 && press) queue.mouse_button(button, true);
  if (button >= 0 && type == QEvent::MouseButtonRelease) queue.mouse_button(button, false);
  if (event->buttons() == Qt::NoButton && type == QEvent::MouseButtonRelease) panel_buttons_ = false;
  return true;
}

bool ViewportWindow::panels_take_key(QKeyEvent* event, bool down) {
  if (!panels_ || !panels_->ready() || !panels_visible_) return false;
  int key = -1;
  switch (event->key()) {
    case Qt::Key_Tab: key = ImGuiKey_Tab; break;
    case Qt::Key_Left: key = ImGuiKey_LeftArrow; break;
    case Qt::Key_Right: key = ImGuiKey_RightArrow; break;
    case Qt::Key_Up: key = ImGuiKey_UpArrow; break;
    case Qt::Key_Down: key = ImGuiKey_DownArrow; break;
    case Qt::Key_Home: key = ImGuiKey_Home; break;
    case Qt::Key_End: key = ImGuiKey_End; break;
    case Qt::Key_Delete: key = ImGuiKey_Delete; break;
    case Qt::Key_Backspace: key = ImGuiKey_Backspace; break;
    case Qt::Key_Return: key = ImGuiKey_Enter; break;
    case Qt::Key_Enter: key = ImGuiKey_KeyPadEnter; break;
    case Qt::Key_Escape: key = ImGuiKey_Escape; break;
    case Qt::Key_A: key = ImGuiKey_A; break;
    case Qt::Key_C: key = ImGuiKey_C; break;
    case Qt::Key_V: key = ImGuiKey_V; break;
    case Qt::Key_X: key = ImGuiKey_X; break;
    case Qt::Key_Y: key = ImGuiKey_Y; break;
    case Qt::Key_Z: key = ImGuiKey_Z; break;
    default: break;
  }
  ImGuiInputQueue& queue = panels_->input();
  const Qt::KeyboardModifiers mods = event->modifiers();
  queue.modifiers(mods & Qt::ControlModifier, mods & Qt::ShiftModifier, mods & Qt::AltModifier);
  if (!panels_->wants_keyboard()) {
    if (key >= 0 && !down) queue.key(key, false);  // a key pressed into a field is released there
    return false;
  }
  if (key >= 0) queue.key(key, down);
  if (down)
    for (const QChar c : event->text())
      if (c.isPrint()) queue.character(c.unicode());
  requestUpdate();
  return true;
}

void ViewportWindow::mousePressEvent(QMouseEvent* event) {
  if (panels_take_mouse(event)) return;
  last_mouse_ = event->position();
  const bool ctrl = event->modifiers() & Qt::ControlModifier;
  const bool shift = event->modifiers() & Qt::ShiftModifier;
  if (event->button() == Qt::LeftButton && !ctrl && !shift && surface_tool_.active && surface_tool_.active()) {
    Ray ray;
    camera_.pixel_ray(last_mouse_.x(), last_mouse_.y(), width(), height(), ray.origin, ray.direction);
    if (surface_tool_.press(ray)) {
      drag_ = Drag::Paint;
      requestUpdate();
      return;
    }
  }
  if (event->button() == Qt::RightButton && ctrl) {
    // Rotational perturbation: an angular spring towards an orientation the drag turns.
    const Snapshot& s = runner_.current();
    drag_ = Drag::None;
    if (!s.model) return;
    Ray ray;
    camera_.pixel_ray(last_mouse_.x(), last_mouse_.y(), width(), height(), ray.origin, ray.direction);
    const PickHit hit = pick(*s.model, s.state, ray);
    if (hit.kind != PickHit::Body || !s.model->body_is_dynamic(hit.index)) return;
    grab_ = Grab{};
    grab_.kind = Grab::Body;
    grab_.index = hit.index;
    grab_.rotate = true;
    grab_.target_rotation = s.state.body_rotation(hit.index);
    grab_.target = s.state.body_position(hit.index);
    runner_.set_grab(grab_);
    drag_ = Drag::Rotate;
  } else if (event->button() == Qt::LeftButton && ctrl) {
    const Snapshot& s = runner_.current();
    drag_ = Drag::None;
    if (!s.model) return;
    Ray ray;
    camera_.pixel_ray(last_mouse_.x(), last_mouse_.y(), width(), height(), ray.origin, ray.direction);
    const PickHit hit = pick(*s.model, s.state, ray);
    if (hit.kind == PickHit::Body && s.model->body_is_dynamic(hit.index)) {
      grab_.kind = Grab::Body;
      grab_.index = hit.index;
      grab_.local_point = s.state.body_pose(hit.index).apply_inverse(hit.point);
    } else if (hit.kind == PickHit::Particle && s.model->particle_inv_mass[static_cast<std::size_t>(hit.index)] > 0) {
      grab_.kind = Grab::Particle;
      grab_.index = hit.index;
      grab_.local_point.setZero();
    } else {
      return;
    }
    grab_plane_point_ = hit.point;
    grab_.target = hit.point;
    runner_.set_grab(grab_);
    drag_ = Drag::Grab;
  } else if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && shift)) {
    drag_ = Drag::Pan;
  } else if (event->button() == Qt::LeftButton && teleop_ &&
             teleop_->gizmo_press(GizmoView{camera_, width(), height()}, last_mouse_.x(), last_mouse_.y())) {
    drag_ = Drag::Gizmo;
  } else if (event->button() == Qt::LeftButton) {
    drag_ = Drag::Orbit;
  }
  requestUpdate();
}

void ViewportWindow::mouseMoveEvent(QMouseEvent* event) {
  if (panels_take_mouse(event)) return;
  const QPointF p = event->position();
  const QPointF d = p - last_mouse_;
  last_mouse_ = p;
  switch (drag_) {
    case Drag::None:
      // Hovering over the gizmo highlights the handle a press would take.
      if (teleop_ && teleop_->gizmo_move(GizmoView{camera_, width(), height()}, p.x(), p.y())) break;
      return;
    case Drag::Gizmo: teleop_->gizmo_move(GizmoView{camera_, width(), height()}, p.x(), p.y()); break;
    case Drag::Orbit: camera_.orbit(d.x(), d.y(), height()); break;
    case Drag::Pan: camera_.pan(d.x(), d.y(), height()); break;
    case Drag::Paint: {
      Ray ray;
      camera_.pixel_ray(p.x(), p.y(), width(), height(), ray.origin, ray.direction);
      if (surface_tool_.move) surface_tool_.move(ray);
      break;
    }
    case Drag::Grab:
      grab_.target = camera_.point_on_view_plane(p.x(), p.y(), width(), height(), grab_plane_point_);
      runner_.set_grab(grab_);
      break;
    case Drag::Rotate: {
      // One viewport height of drag turns by π: left/right about the screen's up, up/down about its right.
      const double k = 3.14159265358979 / std::max(height(), 1);
      const sim::Quat yaw(Eigen::AngleAxis<sim::Real>(sim::Real(d.x() * k), camera_.up()));
      const sim::Quat pitch(Eigen::AngleAxis<sim::Real>(sim::Real(d.y() * k), camera_.right()));
      grab_.target_rotation = (yaw * pitch * grab_.target_rotation).normalized();
      runner_.set_grab(grab_);
      break;
    }
  }
  requestUpdate();
}

void ViewportWindow::mouseReleaseEvent(QMouseEvent* event) {
  if (panels_take_mouse(event)) return;
  if (drag_ == Drag::Grab || drag_ == Drag::Rotate) release_grab();
  if (drag_ == Drag::Gizmo && teleop_) teleop_->gizmo_release();
  if (drag_ == Drag::Paint && surface_tool_.release) surface_tool_.release();
  if (event->buttons() == Qt::NoButton) drag_ = Drag::None;
  requestUpdate();
}

void ViewportWindow::mouseDoubleClickEvent(QMouseEvent* event) {
  if (panels_take_mouse(event)) return;
  if (event->button() != Qt::LeftButton) return;
  const Snapshot& s = runner_.current();
  if (!s.model) return;
  // A contact point under the cursor opens its read-out (the Contact panel) before any body.
  if (const int contact = contact_at(event->position().x(), event->position().y()); contact >= 0) {
    select_contact(contact);
    return;
  }
  Ray ray;
  camera_.pixel_ray(event->position().x(), event->position().y(), width(), height(), ray.origin, ray.direction);
  const PickHit hit = pick(*s.model, shown_state(s), ray);  // what is drawn: a replay's start State
  ItemRef item;
  if (hit.kind == PickHit::Body) item = {ItemKind::Body, hit.index};
  else if (hit.kind == PickHit::Particle) item = {ItemKind::Particle, hit.index};
  picked_face_ = hit.kind == PickHit::Particle ? hit.face : -1;
  picked_render_mesh_ = hit.kind == PickHit::Particle ? hit.render_mesh : -1;
  picked_point_ = hit.point;
  set_selection(item);
  emit picked(item);
}

void ViewportWindow::wheelEvent(QWheelEvent* event) {
  const QPoint degrees = event->angleDelta() / 8;
  if (panels_ && panels_->ready() && panels_visible_ &&
      panels_->hit(float(event->position().x()), float(event->position().y()))) {
    panels_->input().mouse_wheel(float(degrees.y()) / 15.0f);
    requestUpdate();
    return;
  }
  if (!degrees.isNull()) camera_.zoom(degrees.y() / 15.0);
  requestUpdate();
}

void ViewportWindow::keyPressEvent(QKeyEvent* event) {
  if (panels_take_key(event, true)) return;
  if (teleop_ && teleop_->key(event->key(), true, event->isAutoRepeat())) {
    event->accept();
    requestUpdate();
    return;
  }
  switch (event->key()) {
    case Qt::Key_Space: emit command(QStringLiteral("play")); break;
    case Qt::Key_S: emit command(QStringLiteral("step")); break;
    case Qt::Key_R: emit command(QStringLiteral("reset")); break;
    case Qt::Key_F: emit command(QStringLiteral("frame")); break;
    case Qt::Key_T: emit command(QStringLiteral("teleop")); break;
    case Qt::Key_F1: emit command(QStringLiteral("help")); break;
    default: QVulkanWindow::keyPressEvent(event); return;
  }
  event->accept();
}

void ViewportWindow::keyReleaseEvent(QKeyEvent* event) {
  // Released keys reach the driver first, whoever takes them, so that none stays held.
  const bool teleop_key = teleop_ && teleop_->key(event->key(), false, event->isAutoRepeat());
  if (panels_take_key(event, false)) return;
  if (teleop_key) {
    event->accept();
    return;
  }
  QVulkanWindow::keyReleaseEvent(event);
}

void ViewportWindow::focusOutEvent(QFocusEvent* event) {
  if (teleop_) teleop_->release_keys();
  QVulkanWindow::focusOutEvent(event);
}

void ViewportWindow::set_render_settings(const RenderSettings& settings) {
  const bool changed = settings.wireframe != render_settings_.wireframe ||
                       settings.transparent != render_settings_.transparent || settings.shadows != render_settings_.shadows ||
                       settings.surface_particles != render_settings_.surface_particles ||
                       settings.geometry.visuals != render_settings_.geometry.visuals ||
                       settings.geometry.collision != render_settings_.geometry.collision;
  render_settings_ = settings;
  if (changed) emit render_settings_changed(settings);
  requestUpdate();
}

void ViewportWindow::set_help_open(bool open) {
  help_open_ = open;
  requestUpdate();
}

void ViewportWindow::track_body(int body) {
  const Snapshot& s = runner_.current();
  tracked_body_ = -1;
  if (body >= 0 && s.model && body < s.model->body_count && static_cast<int>(s.state.q.size()) == s.model->coord_count()) {
    tracked_body_ = body;
    track_offset_ = camera_.target - s.state.body_position(body);
  }
  requestUpdate();
}

void ViewportWindow::snap_view(ui::SnapView view) {
  const Snapshot& s = runner_.current();
  constexpr double kHalfPi = 1.5707963267948966;
  switch (view) {
    case ui::SnapView::None: return;
    case ui::SnapView::Top: camera_.yaw = -kHalfPi; camera_.pitch = kHalfPi - 1e-3; break;    // looking down, x right
    case ui::SnapView::Side: camera_.yaw = -kHalfPi; camera_.pitch = 0; break;                // along +y, x right
    case ui::SnapView::Front: camera_.yaw = 0; camera_.pitch = 0; break;                      // along -x, y right
    case ui::SnapView::Gripper: {
      // Level with the driven point, from the side and close: the fingertips' height over what
      // is below them reads directly.
      if (!s.teleop.active) return;
      camera_.pitch = 0.05;
      camera_.target = s.teleop.effector_position;
      camera_.distance = 0.45;
      if (tracked_body_ >= 0) track_offset_ = camera_.target - s.state.body_position(tracked_body_);
      requestUpdate();
      return;
    }
  }
  if (s.model && static_cast<int>(s.state.q.size()) == s.model->coord_count()) {
    const render::Bounds b = render::scene_bounds(*s.model, s.state.q);
    if (!b.empty()) {
      const glm::vec3 c = b.centre();
      camera_.frame(sim::Vec3(c.x, c.y, c.z), 0.5 * double(glm::length(b.size())));
    }
  }
  if (tracked_body_ >= 0 && s.model && tracked_body_ < s.model->body_count)
    track_offset_ = camera_.target - s.state.body_position(tracked_body_);
  requestUpdate();
}

void ViewportWindow::fill_viewer_views(const Snapshot& s) {
  HistoryStatus h = s.history;
  history_view_.size = h.size;
  history_view_.capacity = h.capacity;
  history_view_.cursor = h.cursor;
  history_view_.first_time = h.first_time;
  history_view_.last_time = h.last_time;
  history_view_.bytes = h.bytes;
  history_view_.budget = h.budget;
  ui::ViewPanelView& v = view_view_;
  v.render_fps = float(render_fps_);
  v.wireframe = render_settings_.wireframe;
  v.transparent = render_settings_.transparent;
  v.shadows = render_settings_.shadows;
  v.surface_particles = render_settings_.surface_particles;
  v.visual_geometry = render_settings_.geometry.visuals;
  v.collision_geometry = render_settings_.geometry.collision;
  v.has_visuals = s.model && s.model->visual_count > 0;
  v.has_surfaces = s.model && !s.model->particle_triangles.empty();
  v.msaa_choices.clear();
  for (int c : supportedSampleCounts()) v.msaa_choices.push_back(c);
  v.msaa_active = sampleCountFlagBits();
  v.tracked_body = tracked_body_;
  if (s.model && v.bodies.size() != static_cast<std::size_t>(s.model->body_count)) v.bodies = s.model->body_name;
  else if (s.model && !v.bodies.empty() && v.bodies.front() != s.model->body_name.front()) v.bodies = s.model->body_name;
  v.has_gripper = s.teleop.active;
  v.mp4_available = !VideoRecorder::ffmpeg().isEmpty();
  if (recorder_) {
    v.recording = recorder_->recording();
    v.encoding = recorder_->encoding();
    v.frames_written = recorder_->frames_written();
    v.frames_planned = recorder_->frames_planned();
    v.encode_progress = float(recorder_->encode_progress());
    v.record_status = recorder_->status().toStdString();
  }
}

void ViewportWindow::apply_viewer_edits(const ui::HistoryPanelEdits& h, const ui::ViewPanelEdits& v) {
  if (h.seek) runner_.seek_history(*h.seek);
  if (h.step != 0) runner_.history_step(h.step);
  if (h.budget) runner_.set_history_budget(*h.budget);
  if (h.save_keyframe) emit keyframe_save_requested(QString::fromStdString(*h.save_keyframe));
  if (h.restore_keyframe >= 0) emit keyframe_restore_requested(h.restore_keyframe);
  if (h.delete_keyframe >= 0) emit keyframe_delete_requested(h.delete_keyframe);
  RenderSettings r = render_settings_;
  if (v.wireframe) r.wireframe = *v.wireframe;
  if (v.transparent) r.transparent = *v.transparent;
  if (v.shadows) r.shadows = *v.shadows;
  if (v.surface_particles) r.surface_particles = *v.surface_particles;
  if (v.visual_geometry) r.geometry.visuals = *v.visual_geometry;
  if (v.collision_geometry) r.geometry.collision = *v.collision_geometry;
  set_render_settings(r);
  if (v.msaa) {
    view_view_.msaa = *v.msaa;
    emit msaa_requested(*v.msaa);
  }
  if (v.track_body) track_body(*v.track_body);
  if (v.snap != ui::SnapView::None) snap_view(v.snap);
  if (v.mp4) view_view_.mp4 = *v.mp4;
  if (v.start_recording) emit record_requested(true, view_view_.record_seconds, view_view_.mp4);
  if (v.stop_recording) emit record_requested(false, 0, false);
  requestUpdate();
}

QImage ViewportWindow::screenshot() {
  if (!supportsGrab()) return {};
  const QImage image = grab();
  switch (colorFormat()) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_B8G8R8_UNORM:
    case VK_FORMAT_B8G8R8_SRGB:
      return image.rgbSwapped();
    default:
      return image;
  }
}

}  // namespace coulomb::gui
