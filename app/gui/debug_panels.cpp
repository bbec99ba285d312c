#include "gui/debug_panels.hpp"

#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_vulkan.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gui/sdf_baker_controller.hpp"
#include "gui/snapshot.hpp"
#include "sim/contact_forces.hpp"
#include "sim/inverse_kinematics.hpp"
#include "ui/capture_panel.hpp"
#include "ui/contact_force_panel.hpp"
#include "ui/convergence_panel.hpp"
#include "ui/joint_panel.hpp"
#include "ui/solver_panel.hpp"
#include "ui/stats_panel.hpp"

namespace coulomb::gui {

struct DebugPanels::State {
  ui::ConvergenceView convergence;
  ui::SolverPanelView solver;
  ui::JointPanelView joints;
  std::uint64_t joints_model_version = 0;
  std::vector<sim::Real> seen_soft_pressure;  // the runner's pressures the Joints sliders show
  std::unique_ptr<ui::ForceHistory> forces;       // watched bodies: the teleoperated gripper's
  std::vector<int> force_bodies;                  // fingers, else names containing "finger"
  std::uint64_t forces_model_version = 0;
  std::uint64_t forces_teleop_session = 0;
  std::uint64_t last_sequence = 0;
  std::chrono::steady_clock::time_point last_frame = std::chrono::steady_clock::now();
  SdfBakerController sdf_baker;                   // the SDF baker panel and its bake job
  ui::CapturePanelView capture;                   // the Solve capture panel (triggers, kept solves, the open one)
  std::uint64_t capture_seen = 0;                 // FailedStep::id shown
};

DebugPanels::DebugPanels() : state_(std::make_unique<State>()) {}

DebugPanels::~DebugPanels() { release(); }

ui::CapturePanelView* DebugPanels::capture_view() { return &state_->capture; }

ImGuiIO& DebugPanels::io() {
  ImGui::SetCurrentContext(context_);
  return ImGui::GetIO();
}

sim::Result<bool> DebugPanels::init(const render::RenderContext& context, VkRenderPass render_pass,
                                    VkSampleCountFlagBits samples, int image_count) {
  release();
  device_ = context.device;
  image_count_ = std::max(image_count, 2);
  context_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // window layout is not persisted in the working directory
  // Keys are reported by ImGuiKey value (the viewport translates Qt keys): KeyMap is the identity.
  for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
  ImGui::StyleColorsDark();
  ImGui::GetStyle().Alpha = 0.92f;

  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}};
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = 16;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = sizes;
  if (vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_) != VK_SUCCESS) {
    release();
    return sim::Error{"ImGui panels: cannot create a descriptor pool"};
  }
  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context.instance;
  info.PhysicalDevice = context.physical_device;
  info.Device = context.device;
  info.QueueFamily = context.queue_family;
  info.Queue = context.queue;
  info.DescriptorPool = pool_;
  info.Subpass = 0;
  info.MinImageCount = static_cast<std::uint32_t>(image_count_);
  info.ImageCount = static_cast<std::uint32_t>(image_count_);
  info.MSAASamples = samples;
  if (!ImGui_ImplVulkan_Init(&info, render_pass)) {
    release();
    return sim::Error{"ImGui panels: the Vulkan backend did not initialise"};
  }
  backend_ = true;
  font_state_ = 0;
  ready_ = true;
  return true;
}

void DebugPanels::release() {
  if (context_) {
    ImGui::SetCurrentContext(context_);
    if (backend_) {
      if (font_state_ > 0) ImGui_ImplVulkan_DestroyFontUploadObjects();
      ImGui_ImplVulkan_Shutdown();
    }
    ImGui::DestroyContext(context_);
  }
  if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
  context_ = nullptr;
  pool_ = VK_NULL_HANDLE;
  device_ = VK_NULL_HANDLE;
  backend_ = false;
  ready_ = false;
  font_state_ = 0;
}

void DebugPanels::prepare(VkCommandBuffer cmd) {
  if (!ready_) return;
  ImGui::SetCurrentContext(context_);
  if (font_state_ == 0) {
    // Recorded into this frame's command buffer: the copy precedes the panels' draw in it.
    ImGui_ImplVulkan_CreateFontsTexture(cmd);
    font_state_ = 1;
  } else if (font_state_ > 0 && ++font_state_ > image_count_ + 1) {
    // Every frame that could still read the staging buffer has completed.
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    font_state_ = -1;
  }
}

PanelEdits DebugPanels::build(const Snapshot& s, const sim::SolverOptions& solver, double dt, float width,
                              float height, float scale, ui::TeleopPanelView* teleop, const ViewerPanels& viewer) {
  PanelEdits edits;
  if (!ready_) return edits;
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  State& st = *state_;
  const auto now = std::chrono::steady_clock::now();
  io.DeltaTime = std::max(1e-4f, std::chrono::duration<float>(now - st.last_frame).count());
  st.last_frame = now;
  io.DisplaySize = ImVec2(std::max(width, 1.0f), std::max(height, 1.0f));
  io.DisplayFramebufferScale = ImVec2(scale, scale);

  // Histories take each published step once.
  if (s.sequence != st.last_sequence && s.stepped) {
    if (st.forces && s.model) {
      std::vector<float> values;
      for (int b : st.force_bodies) values.push_back(static_cast<float>(sim::body_contact_force(s.workspace, b).normal));
      st.forces->push(values);
    }
  }
  st.last_sequence = s.sequence;
  if (s.model && s.model_version != st.joints_model_version) {
    st.joints = ui::make_joint_panel_view(*s.model);
    st.joints_model_version = s.model_version;
    st.seen_soft_pressure.clear();
  }
  // Pressures moved elsewhere (the Teleop panel's keys and sliders) show on the Joints sliders.
  if (s.soft_pressure != st.seen_soft_pressure && s.soft_pressure.size() == st.joints.pressure_kpa.size()) {
    for (std::size_t g = 0; g < s.soft_pressure.size(); ++g) st.joints.pressure_kpa[g] = static_cast<float>(s.soft_pressure[g] / 1000);
    st.seen_soft_pressure = s.soft_pressure;
  }
  if (s.model && (s.model_version != st.forces_model_version || s.teleop.session != st.forces_teleop_session)) {
    st.force_bodies.clear();
    std::vector<std::string> names;
    const bool fingers = s.teleop.active && !s.teleop.finger_bodies.empty();
    for (int b = 0; b < s.model->body_count; ++b) {
      const std::string& name = s.model->body_name[static_cast<std::size_t>(b)];
      const bool watched = fingers ? std::find(s.teleop.finger_bodies.begin(), s.teleop.finger_bodies.end(), b) !=
                                         s.teleop.finger_bodies.end()
                                   : name.find("finger") != std::string::npos;
      if (watched) {
        st.force_bodies.push_back(b);
        names.push_back(name);
      }
    }
    st.forces = names.empty() ? nullptr : std::make_unique<ui::ForceHistory>(names);
    st.forces_model_version = s.model_version;
    st.forces_teleop_session = s.teleop.session;
  }

  // Queued input (imgui_input_queue.hpp): what is left goes to the next frame.
  const bool had_input = !input_.empty();
  input_.apply(io);
  if (had_input) settle_frames_ = 2;
  else if (settle_frames_ > 0) --settle_frames_;

  ImGui_ImplVulkan_NewFrame();
  ImGui::NewFrame();
  const float margin = 8.0f;
  const float column = 340.0f;
  const float top = margin, bottom = std::max(margin, height - margin);
  rects_.clear();

  const bool joints_shown =
      (!st.joints.joints.empty() || !st.joints.groups.empty()) && s.model &&
      static_cast<int>(s.state.q.size()) == s.model->coord_count();
  const bool teleop_shown = teleop && teleop->available;  // scenes without a robot get no Teleop panel
  // Left column: Stats, Solver, History, Contact forces, Friction. Right: View, Convergence, Joints, Teleop, SDF baker.
  const FailedStep* failed = s.failed_step.get();
  PanelColumn left(margin, top, bottom, column,
                   2 + (s.model ? 1 : 0) + (viewer.contact ? 1 : 0) + (viewer.history ? 1 : 0) + (st.forces ? 1 : 0) + (viewer.friction ? 1 : 0), rects_);
  PanelColumn right(std::max(margin, width - column - margin), top, bottom, column,
                    1 + (viewer.view ? 1 : 0) + (joints_shown ? 1 : 0) + (teleop_shown ? 1 : 0) + (s.model ? 1 : 0),
                    rects_);

  left.place(200, false);
  ui::StatsView stats;
  if (s.model) {
    stats.bodies = s.model->body_count;
    stats.particles = s.model->particle_count;
    stats.joints = s.model->joint_count;
    stats.dofs = s.model->dof_count();
  }
  stats.report = s.report;
  stats.sim_time = s.state.time;
  stats.real_time_factor = s.real_time_factor;
  stats.backend = viewer.backend;
  stats.retried_steps = static_cast<long long>(s.retried_steps);
  stats.last_retry = s.last_retry.c_str();
  ui::stats_panel(stats);
  left.placed("Stats");

  if (s.model) {
    // The Solve capture panel: the triggers and kept solves, and the capture open (a failure or a
    // kept solve). A new one opens the panel on its iterate of interest (where a failure went
    // wrong, else the last), its worst row selected and that row's body highlighted.
    ui::CapturePanelView& cv = st.capture;
    if (failed && failed->id != st.capture_seen) {
      st.capture_seen = failed->id;
      cv.open = true;
      cv.iteration = std::max(failed->diagnosis.iteration, 0);
      cv.selected_row = failed->diagnosis.worst_row;
      if (!failed->diagnosis.bodies.empty() && cv.selected_row >= 0) {
        ui::capture_row_nodes(failed->capture, cv.selected_row, edits.frame_nodes);
        for (int node : edits.frame_nodes)
          if (node < failed->capture.body_count && edits.select_body < 0) edits.select_body = node;
      }
    }
    cv.capture = failed ? &failed->capture : nullptr;
    cv.diagnosis = failed ? &failed->diagnosis : nullptr;
    cv.model = s.model.get();
    cv.contacts = failed ? std::span<const sim::Contact>(failed->contacts) : std::span<const sim::Contact>();
    cv.ring = &s.captures;
    cv.opened_id = failed ? failed->ring_id : 0;
    cv.failed = failed && !failed->report.ok();
    cv.comparison = failed && s.comparison && s.comparison->capture_id == failed->id ? s.comparison.get() : nullptr;
    char headline[200];
    if (!failed) {
      headline[0] = 0;
    } else if (failed->trigger == CaptureTrigger::Failure) {
      std::snprintf(headline, sizeof headline, "The step at t = %.4g s failed%s; rolled back to it and solved it again%s.",
                    failed->time, failed->id > 1 ? (" (capture " + std::to_string(failed->id) + ")").c_str() : "",
                    failed->reproduced ? " (same failure)" : ", which did NOT fail the same way");
    } else {
      std::snprintf(headline, sizeof headline, "Kept solve %llu: the step at t = %.4g s (%s trigger).",
                    static_cast<unsigned long long>(failed->ring_id), failed->time, trigger_name(failed->trigger));
    }
    cv.headline = headline;
    left.place(480, true);  // the scrubber, the replay legend and the rows table
    edits.capture = ui::capture_panel(cv);
    if (edits.capture.select_body >= 0) edits.select_body = edits.capture.select_body;
    if (!edits.capture.frame_nodes.empty()) edits.frame_nodes = edits.capture.frame_nodes;
    left.placed("Solve capture");
  }

  left.place(300, true);
  st.solver.options = solver;
  st.solver.dt = static_cast<float>(dt);
  st.solver.device = viewer.device;
  st.solver.device_missing = viewer.device_missing;
  st.solver.use_device = viewer.using_device;
  if (ui::solver_panel(st.solver)) {
    if (st.solver.use_device != viewer.using_device) edits.use_device = st.solver.use_device;
    else if (st.solver.dt != static_cast<float>(dt)) edits.dt = st.solver.dt;
    else edits.solver = st.solver.options;
  }
  left.placed("Solver");

  if (viewer.contact) {
    left.place(430, false);  // the numbers and the friction cone's figure below them
    edits.contact_closed = !ui::contact_panel(*viewer.contact);
    left.placed("Contact");
  }
  if (viewer.history) {
    left.place(260, true);
    edits.history = ui::history_panel(*viewer.history);
    left.placed("History");
  }
  if (st.forces) {
    left.place(200, true);
    ui::contact_force_panel(*st.forces);
    left.placed("Contact forces");
  }
  if (viewer.friction) {
    left.place(230, true);
    edits.friction = ui::friction_panel(*viewer.friction);
    left.placed("Friction");
  }

  if (viewer.view) {
    right.place(300, true);
    edits.view = ui::view_panel(*viewer.view);
    right.placed("View");
  }
  right.place(460, true);
  st.convergence.trace = s.stepped ? &s.workspace.trace : nullptr;
  st.convergence.history = &s.steps;
  st.convergence.traces = &s.traces;
  // The timeline is the history scrubber's track: the shown state is marked, a click seeks.
  const HistoryStatus& hs = s.history;
  const double span = hs.last_time - hs.first_time;
  st.convergence.cursor_time = hs.cursor >= 0 && hs.size > 1
                                   ? hs.first_time + span * double(hs.cursor) / double(hs.size - 1)
                                   : NAN;
  const ui::ConvergenceEdits ce = ui::convergence_panel(st.convergence);
  if (ce.seek_time && hs.size > 0) {
    const double f = span > 0 ? (*ce.seek_time - hs.first_time) / span : 1.0;
    edits.history.seek = std::clamp(std::lround(f * double(hs.size - 1)), 0L, long(hs.size) - 1);
  }
  right.placed("Convergence");

  if (joints_shown) {
    for (std::size_t i = 0; i < st.joints.joints.size(); ++i) {
      const std::vector<sim::Real> p = sim::chain_positions(*s.model, s.state, {st.joints.joints[i]});
      st.joints.position[i] = p.empty() ? 0.0f : static_cast<float>(p.front());
    }
    right.place(220, true);
    const int changed = ui::joint_panel(st.joints);
    if (changed >= 0) {
      edits.joint = st.joints.joints[static_cast<std::size_t>(changed)];
      edits.joint_target = st.joints.target[static_cast<std::size_t>(changed)];
    }
    if (st.joints.pressure_changed >= 0) {
      edits.soft_group = st.joints.pressure_changed;
      edits.soft_pressure = 1000.0 * st.joints.pressure_kpa[static_cast<std::size_t>(st.joints.pressure_changed)];
    }
    right.placed("Joints");
  }
  if (teleop_shown) {
    right.place(260, true);
    teleop->finger_forces = st.forces.get();
    edits.teleop = ui::teleop_panel(*teleop);
    right.placed("Teleop");
    ui::teleop_hint_bar(*teleop);  // bottom centre, takes no input
  }
  if (s.model) {
    right.place(330, true);
    const SdfBakerEdits sdf = st.sdf_baker.frame(s);
    edits.sdf_apply = sdf.apply;
    edits.sdf_slice = sdf.slice;
    right.placed("SDF baker");
  }
  if (viewer.legend) ui::color_legend(*viewer.legend);  // top centre, takes no input
  if (viewer.shortcuts && viewer.help_open && *viewer.help_open) {
    ui::help_overlay(*viewer.shortcuts, viewer.help_open);
    if (const ImGuiWindow* w = ImGui::FindWindowByName("Help: shortcuts (F1 closes)"))
      rects_.push_back(PanelRect{"Help", w->Pos.x, w->Pos.y, w->Size.x, w->Size.y, false});
  }
  ImGui::Render();
  // Popups (a combo's list) reach outside their panel: they take clicks too.
  for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->Active && !w->Hidden && (w->Flags & ImGuiWindowFlags_Popup))
      rects_.push_back(PanelRect{w->Name, w->Pos.x, w->Pos.y, w->Size.x, w->Size.y, false});
  return edits;
}

void DebugPanels::record(VkCommandBuffer cmd) {
  if (!ready_ || font_state_ == 0) return;
  ImGui::SetCurrentContext(context_);
  ImDrawData* data = ImGui::GetDrawData();
  if (data && data->CmdListsCount > 0) ImGui_ImplVulkan_RenderDrawData(data, cmd);
}

bool DebugPanels::wants_mouse() const {
  if (!ready_) return false;
  ImGui::SetCurrentContext(context_);
  return ImGui::GetIO().WantCaptureMouse;
}

bool DebugPanels::hit(float x, float y) const {
  for (const PanelRect& r : rects_)
    if (r.contains(x, y)) return true;
  return false;
}

const PanelRect* DebugPanels::panel(const std::string& name) const {
  for (const PanelRect& r : rects_)
    if (r.name == name) return &r;
  return nullptr;
}

bool DebugPanels::wants_keyboard() const {
  if (!ready_) return false;
  ImGui::SetCurrentContext(context_);
  return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace coulomb::gui
