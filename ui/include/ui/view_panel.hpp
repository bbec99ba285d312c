// The View panel: render frame rate, display switches (wireframe, transparency, shadows, visual
// and collision geometry), the
// multisampling quality for slow machines, camera views that snap (top, side, front, the gripper's
// close-up) and tracking of a body, and video recording of the viewport with its progress.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ui {

enum class SnapView { None, Top, Side, Front, Gripper };

struct ViewPanelView {
  float render_fps = 0;                // frames drawn per wall second, recent
  bool wireframe = false, transparent = false, shadows = true;
  // Geometry (render::GeometryView): robots' visual shapes in place of their collision shapes,
  // and the collision shapes as an overlay; has_visuals: the scene has any visual shapes.
  bool visual_geometry = true, collision_geometry = false;
  bool has_visuals = false;
  // Soft bodies and cloth are drawn as surfaces; this also shows their particles' spheres.
  bool surface_particles = false;
  bool has_surfaces = false;           // the scene has particle triangles
  std::vector<int> msaa_choices;       // sample counts the device offers
  int msaa = 4;                        // chosen (applies when the viewport is next created)
  int msaa_active = 4;                 // in use now
  std::vector<std::string> bodies;     // names, for tracking
  int tracked_body = -1;               // -1: none
  bool has_gripper = false;            // a teleoperated end effector to look at
  // Recording (video_recorder.hpp).
  bool recording = false, encoding = false;
  int frames_written = 0, frames_planned = 0;  // planned 0: until stopped
  float encode_progress = 0;           // [0, 1] while the MP4 is encoded
  bool mp4_available = false;          // ffmpeg found
  bool mp4 = false;                    // also encode an MP4 when the recording stops
  int record_seconds = 10;             // of wall-clock video; 0: until stopped
  std::string record_status;           // the last result ("wrote 120 frames to ...") or error
};

struct ViewPanelEdits {
  std::optional<bool> wireframe, transparent, shadows, mp4, visual_geometry, collision_geometry, surface_particles;
  std::optional<int> msaa;
  std::optional<int> track_body;       // -1: stop tracking
  SnapView snap = SnapView::None;
  bool start_recording = false, stop_recording = false;
  bool any() const {
    return wireframe || transparent || shadows || mp4 || visual_geometry || collision_geometry || surface_particles || msaa ||
           track_body || snap != SnapView::None ||
           start_recording || stop_recording;
  }
};

ViewPanelEdits view_panel(ViewPanelView& view);

}  // namespace ui
