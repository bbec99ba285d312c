#include "ui/view_panel.hpp"

#include <imgui.h>

#include <string>

namespace ui {

ViewPanelEdits view_panel(ViewPanelView& v) {
  ViewPanelEdits edits;
  if (!ImGui::Begin("View")) {
    ImGui::End();
    return edits;
  }
  ImGui::Text("render %.1f fps (%.0f ms/frame)", v.render_fps, v.render_fps > 0 ? 1000.0f / v.render_fps : 0.0f);
  if (ImGui::Checkbox("Wireframe", &v.wireframe)) edits.wireframe = v.wireframe;
  ImGui::SameLine();
  if (ImGui::Checkbox("Transparent", &v.transparent)) edits.transparent = v.transparent;
  ImGui::SameLine();
  if (ImGui::Checkbox("Shadows", &v.shadows)) edits.shadows = v.shadows;
  if (v.has_visuals) {
    if (ImGui::Checkbox("Visual geometry", &v.visual_geometry)) edits.visual_geometry = v.visual_geometry;
    ImGui::SameLine();
    if (ImGui::Checkbox("Collision geometry", &v.collision_geometry)) edits.collision_geometry = v.collision_geometry;
  } else {
    ImGui::TextDisabled("No visual shapes: collision geometry shown");
  }
  if (v.has_surfaces && ImGui::Checkbox("Particles on soft and cloth surfaces", &v.surface_particles))
    edits.surface_particles = v.surface_particles;
  if (!v.msaa_choices.empty()) {
    std::string preview = std::to_string(v.msaa) + "x MSAA";
    ImGui::SetNextItemWidth(120);
    if (ImGui::BeginCombo("anti-aliasing", preview.c_str())) {
      for (int s : v.msaa_choices) {
        const std::string name = s == 1 ? std::string("off") : std::to_string(s) + "x MSAA";
        if (ImGui::Selectable(name.c_str(), s == v.msaa)) edits.msaa = s;
      }
      ImGui::EndCombo();
    }
    if (v.msaa != v.msaa_active) {
      ImGui::SameLine();
      ImGui::TextDisabled("(at next start)");
    }
  }

  ImGui::Separator();
  ImGui::TextUnformatted("Camera");
  if (ImGui::Button("Top")) edits.snap = SnapView::Top;
  ImGui::SameLine();
  if (ImGui::Button("Side")) edits.snap = SnapView::Side;
  ImGui::SameLine();
  if (ImGui::Button("Front")) edits.snap = SnapView::Front;
  ImGui::SameLine();
  if (v.has_gripper) {
    if (ImGui::Button("Gripper")) edits.snap = SnapView::Gripper;
  } else {
    ImGui::TextDisabled("Gripper: teleoperation on (T)");
  }
  const char* tracked = v.tracked_body >= 0 && v.tracked_body < static_cast<int>(v.bodies.size())
                            ? v.bodies[static_cast<std::size_t>(v.tracked_body)].c_str()
                            : "(none)";
  ImGui::SetNextItemWidth(180);
  if (ImGui::BeginCombo("follow body", tracked)) {
    if (ImGui::Selectable("(none)", v.tracked_body < 0)) edits.track_body = -1;
    for (int b = 0; b < static_cast<int>(v.bodies.size()); ++b) {
      ImGui::PushID(b);
      if (ImGui::Selectable(v.bodies[static_cast<std::size_t>(b)].c_str(), b == v.tracked_body)) edits.track_body = b;
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }

  ImGui::Separator();
  ImGui::TextUnformatted("Video (PNG frames of the viewport)");
  if (v.recording) {
    if (ImGui::Button("Stop recording")) edits.stop_recording = true;
    ImGui::SameLine();
    if (v.frames_planned > 0) {
      const std::string overlay = std::to_string(v.frames_written) + " / " + std::to_string(v.frames_planned);
      ImGui::ProgressBar(float(v.frames_written) / float(v.frames_planned), ImVec2(-1, 0), overlay.c_str());
    } else {
      ImGui::Text("%d frames", v.frames_written);
    }
  } else if (v.encoding) {
    ImGui::ProgressBar(v.encode_progress, ImVec2(-1, 0), "encoding MP4");
  } else {
    if (ImGui::Button("Record")) edits.start_recording = true;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::InputInt("s (0: until stopped)", &v.record_seconds);
    if (v.record_seconds < 0) v.record_seconds = 0;
    if (v.mp4_available) {
      if (ImGui::Checkbox("also MP4 (ffmpeg)", &v.mp4)) edits.mp4 = v.mp4;
    } else {
      ImGui::TextDisabled("MP4: install ffmpeg (apt-get install ffmpeg)");
    }
  }
  if (!v.record_status.empty()) ImGui::TextWrapped("%s", v.record_status.c_str());
  ImGui::End();
  return edits;
}

}  // namespace ui
