// What one frame draws besides the model: camera, poses, selection, overlay switches and the
// contacts (points, normals, forces) copied out of the solver's Workspace.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>
#include <span>
#include <vector>

#include "render/element_field.hpp"
#include "render/orbit_camera.hpp"
#include "sim/model.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"

namespace render {

struct Overlays {
  bool contact_points = false;   // yellow crosses at the contact points
  bool contact_normals = false;  // cyan, from the point along the normal (b towards a)
  bool normal_forces = false;    // red arrows λ_n n, on side a
  bool friction_forces = false;  // green arrows λ_f1 d1 + λ_f2 d2, on side a
  bool friction_cones = false;   // orange: each loaded contact's friction ellipse (semi-axes μ_t λ_n
                                 // along tangent1, μ_b λ_n along tangent2: thesis ch. 3) in the
                                 // contact plane, with the current friction force as a line inside
                                 // (4x the force scale: a contact carries a part of a weight)
  bool joint_frames = false;     // both joint frames (short RGB axes), the joint axis (magenta),
                                 // and a white line between the two frame origins
  bool body_frames = false;      // centre-of-mass frames (RGB = xyz)
  bool bounding_boxes = false;   // world axis-aligned boxes of each body's shapes (grey)
  bool grain_glyphs = false;     // texture grains: short segments along the grain on textured meshes
  // A captured solve replayed (issue 15, app/gui/capture_replay_overlay.hpp): a marker per
  // contact and joint of the capture (ContactOverlay::mark_point, mark_color), coloured by the
  // quantity the Solve capture panel chose at the iterate it shows.
  bool replay_marks = false;
  // SDF overlays (render/sdf_overlay.hpp), drawn on top of the scene: a slice of the selected
  // mesh body's distance field (axis-aligned in its shape frame, at a fraction of the field's
  // bounds), and the SDF contacts as markers coloured by local-optimisation evaluations.
  bool sdf_slice = false;
  bool sdf_samples = false;
  int sdf_slice_axis = 2;            // 0 x, 1 y, 2 z
  float sdf_slice_position = 0.5f;   // [0, 1] across the field's bounds along that axis
  // Force arrow length per newton [m/N]; 0: automatic, the weight of the median dynamic body is
  // drawn as long as its bounding radius. Arrows are clamped at 2.5x that length.
  float force_scale = 0.0f;
  // Colours every body and particle by a scalar (viridis, grey where it does not apply) in place
  // of their own colours; the values come in FrameInput::element_values.
  ElementField element_field = ElementField::None;
  bool any() const {
    return contact_points || contact_normals || normal_forces || friction_forces || friction_cones || joint_frames || body_frames ||
           bounding_boxes || sdf_slice || sdf_samples || replay_marks;  // grain_glyphs: drawn without the contact copy
  }
};

// Sizes derived once per model so overlays read well at the scene's scale.
struct OverlayScale {
  float marker = 0.05f;        // contact cross half size, normal length / 2 [m]
  float axis = 0.1f;           // body frame axis length (scaled by each body's radius) [m]
  float force_per_newton = 0.01f;  // automatic force arrow scale [m/N]
  float max_arrow = 1.0f;      // arrows are clamped to this length [m]
};
OverlayScale overlay_scale(const sim::Model& model);

// Contacts as the overlays draw them, copied from a Workspace after sim::step (one entry per
// contact in every array).
struct ContactOverlay {
  std::vector<glm::vec3> point;           // world: midpoint of the two sides' points [m]
  std::vector<glm::vec3> normal;          // unit, from side b towards side a
  std::vector<glm::vec3> normal_force;    // λ_n n, the force on side a [N]
  std::vector<glm::vec3> friction_force;  // λ_f1 d1 + λ_f2 d2 on side a [N]
  std::vector<glm::vec3> friction_axis_t;  // the friction ellipse's semi-axes μ_t λ_n d1, μ_b λ_n d2 [N]
  std::vector<glm::vec3> friction_axis_b;  //   (zero without a normal force)
  std::vector<sim::SdfFeature> sdf_feature;    // Contact::sdf_feature (None: not an SDF contact)
  std::vector<std::uint16_t> sdf_iterations;   // Contact::sdf_iterations
  // Coloured markers (Overlays::replay_marks): world points and linear RGB colours, as many as
  // the caller sets (contacts and joints of a replayed capture); independent of the arrays above.
  std::vector<glm::vec3> mark_point;
  std::vector<glm::vec3> mark_color;
  // Per mark (optional, as many as mark_point): a force drawn from the mark as an arrow like the
  // normal forces (Overlays::normal_forces, the same scale and colour): a replayed joint's
  // constraint force on its body b [N]; zero: none.
  std::vector<glm::vec3> mark_force;
  void clear() {
    point.clear(), normal.clear(), normal_force.clear(), friction_force.clear();
    friction_axis_t.clear(), friction_axis_b.clear();
    sdf_feature.clear(), sdf_iterations.clear();
    mark_point.clear(), mark_color.clear(), mark_force.clear();
  }
  int size() const { return static_cast<int>(point.size()); }
};

// Body-side points are stored in the com frame at the step's start; they are placed with
// `state` (the state after the step), so they stay on the bodies that carry them.
void copy_contacts(const sim::Model& model, const sim::State& state, const sim::Workspace& workspace,
                   ContactOverlay& out);
// The same for any contact list and forces (a captured step's contacts placed with its start
// State, its multipliers at one Newton iterate): `normal_force` λ_n and `friction_force`
// (λ_f1, λ_f2) per contact [N]; shorter than `contacts`: no forces (zero arrows).
void copy_contacts(const sim::Model& model, const sim::State& state, std::span<const sim::Contact> contacts,
                   std::span<const sim::Real> normal_force, std::span<const sim::Vec2> friction_force,
                   ContactOverlay& out);

// Linear RGB the ground fades into; clear the render pass with it (sRGB-encoded for a UNORM
// target: see SceneRenderer::clear_color()).
inline constexpr glm::vec3 kDefaultBackground{0.50f, 0.60f, 0.72f};

// Which geometry is drawn (MuJoCo's geom groups, reduced to the two that robot files carry):
// the visual shapes of bodies that have them (URDF <visual>, MJCF shown geoms) in place of their
// collision shapes, and the collision shapes as an overlay (solid, with the visuals see-through
// over them). Bodies without visuals always show their collision shapes.
struct GeometryView {
  bool visuals = true;
  bool collision = false;
};

struct FrameInput {
  OrbitCamera camera;
  // Generalized positions in State::q layout (per-body poses, then particle positions). When set
  // and write_poses is true they are written into the pose buffer and published for this frame;
  // the overlays and the shadow bounds read them. Empty: the frame draws whatever the simulation
  // last published into SceneRenderer::pose_sink() (overlays then read that slot).
  std::span<const sim::Real> q;
  bool write_poses = true;
  int selected_body = -1;            // highlighted body, -1: none
  // Nodes outlined besides it (a Solve capture row's bodies and particles: bodies
  // 0..body_count-1, then particles): a magenta box around each body's shapes, one around each
  // particle.
  std::span<const int> highlighted_nodes;
  Overlays overlays;
  const ContactOverlay* contacts = nullptr;  // for the contact overlays; may be null
  // The running model when it has the structure of the one set_model() received but newer
  // parameters (a painted texture grain): the grain glyphs read its fields. Null: set_model's.
  const sim::Model* parameters = nullptr;
  // For Overlays::element_field: one value per body, then per particle (compute_element_field);
  // ignored unless it has that many. `element_range`: the colour map's ends; lo >= hi: the
  // values' own range.
  std::span<const float> element_values;
  FieldRange element_range;
  bool shadows = true;
  bool wireframe = false;    // the shapes' triangle edges only (where the device can draw lines so)
  bool transparent = false;  // the shapes see-through (35 % opacity)
  // Soft bodies and cloth are drawn as their surfaces (Model::particle_triangles, smooth, both
  // sides lit); the spheres of the particles on those surfaces are drawn too only when set.
  bool surface_particles = false;
  GeometryView geometry;
  glm::vec3 background = kDefaultBackground;
  // Frame-in-flight slot, 0 .. frames_in_flight-1; -1: the renderer counts frames itself. A
  // window passes its own index (QVulkanWindow::currentFrame()).
  int frame_slot = -1;
};

}  // namespace render
