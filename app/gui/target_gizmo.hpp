// The 6-DoF target gizmo drawn at the teleoperation target: three arrows (translation along the
// world x, y, z axes) and three rings (rotation about them), a constant size on screen. A handle
// is picked by the cursor's distance in pixels to its projected lines; dragging it moves the
// target:
//   arrow (axis a): the cursor ray meets the plane through the target that contains a and faces
//     the camera (normal: the view direction without its a component); the target moves by the
//     change of that hit point's coordinate along a.
//   ring (axis a): the cursor ray meets the plane through the target normal to a; the target turns
//     about a by the signed angle between the first and the current hit (measured from the centre).
// No Qt here: the viewport feeds it pixels and draws its lines (marker_lines.hpp).
#pragma once

#include <vector>

#include "gui/orbit_camera.hpp"
#include "sim/math.hpp"

namespace coulomb::gui {

enum class GizmoHandle { None, MoveX, MoveY, MoveZ, RotateX, RotateY, RotateZ };

// The world axis (0, 1, 2) of a handle, −1 for None.
int gizmo_axis(GizmoHandle handle);
bool gizmo_rotates(GizmoHandle handle);

struct GizmoLine {
  sim::Vec3 a = sim::Vec3::Zero(), b = sim::Vec3::Zero();
  GizmoHandle handle = GizmoHandle::None;
};

// Where the gizmo is seen from: the camera and the viewport size in logical pixels.
struct GizmoView {
  OrbitCamera camera;
  int width = 1, height = 1;
};

class TargetGizmo {
 public:
  static constexpr double kArrowPixels = 90;     // arrow length on screen
  static constexpr double kRingFraction = 0.7;   // ring radius / arrow length
  static constexpr int kRingSegments = 48;

  // Arrow length in metres at `centre`, so that it spans kArrowPixels.
  static double world_size(const GizmoView& view, const sim::Vec3& centre);
  // The segments of every handle (arrows with heads; rings only when `rotations`).
  static void lines(const GizmoView& view, const sim::Vec3& centre, bool rotations, std::vector<GizmoLine>& out);
  // The handle nearest to pixel (x, y) within `tolerance` pixels, else None.
  static GizmoHandle pick(const GizmoView& view, const sim::Vec3& centre, bool rotations, double x, double y,
                          double tolerance = 8);

  // Starts dragging `handle` from pixel (x, y) with the target at (position, orientation); false
  // when the handle is None or seen edge-on (its plane does not meet the cursor ray).
  bool begin_drag(GizmoHandle handle, const GizmoView& view, const sim::Vec3& position, const sim::Quat& orientation,
                  double x, double y);
  // The target for the cursor at (x, y); false (outputs untouched) when the ray misses the plane.
  bool drag(double x, double y, sim::Vec3& position, sim::Quat& orientation) const;
  void end_drag() { handle_ = GizmoHandle::None; }
  GizmoHandle active() const { return handle_; }

 private:
  bool plane_hit(double x, double y, sim::Vec3& hit) const;

  GizmoHandle handle_ = GizmoHandle::None;
  GizmoView view_;
  sim::Vec3 start_position_ = sim::Vec3::Zero();
  sim::Quat start_orientation_ = sim::Quat::Identity();
  sim::Vec3 axis_ = sim::Vec3::UnitX();
  sim::Vec3 plane_normal_ = sim::Vec3::UnitZ();
  sim::Vec3 start_hit_ = sim::Vec3::Zero();
};

}  // namespace coulomb::gui
