// Spec: the editable authoring tree of a scene (names, SI units, defaults). Parsed from scene
// files, edited by the editor, compiled into an immutable Model by compile_model().
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/math.hpp"
#include "sim/model_kinds.hpp"
#include "sim/sdf.hpp"
#include "sim/solver_options.hpp"
#include "sim/spec_fields.hpp"
#include "sim/structure_field.hpp"

namespace sim {

// Where an element came from, for error messages ("scene.xml:12: <box>").
struct SourceLocation {
  std::string file;
  int line = 0;
};

struct MaterialSpec {
  std::string name;
  // friction (Coulomb μ, combined per pair as the geometric mean) and the anisotropic friction
  // (thesis ch. 3, matchstick model): friction_major/minor, the cone's axes along and across the
  // grain when both surfaces' grains are aligned (eq. 34; digest §2.3); < 0: = friction. They act
  // only where a structure field gives a grain (this material's, a body's, or the other surface's).
  SIM_MATERIAL_FIELDS(SIM_DECLARE_SPEC_FIELD)
  SIM_MATERIAL_DERIVED_FIELDS(SIM_DECLARE_DERIVED_SPEC_FIELD)
  StructureFieldSpec structure;  // the grain of this material's surfaces (kind None: no field)
  SourceLocation source;
  Real major() const { return friction_major >= 0 ? friction_major : friction; }
  Real minor() const { return friction_minor >= 0 ? friction_minor : friction; }
};

// Cylinder: `radius`, `half_length` along local z. Ellipsoid: semi-axes `half_extents` along
// local x, y, z. Both collide exactly against planes (closed-form support points: an ellipsoid
// touches at one point, a cylinder at up to four rim points per cap) and through a convex hull of
// points on their surface against other shapes; their mass properties are exact.
// ShapeType: sim/model_kinds.hpp.
// Shapes that also carry a convex hull in the Model (Model::shape_hull).
inline bool has_hull(ShapeType t) {
  return t == ShapeType::ConvexMesh || t == ShapeType::Cylinder || t == ShapeType::Ellipsoid;
}

struct ShapeSpec {
  ShapeType type = ShapeType::Sphere;
  Pose local;               // shape frame in the body frame
  Real radius = Real(0.5);  // sphere, capsule, cylinder [m]
  Real half_length = Real(0.5);  // capsule: half length of the segment along local z; cylinder: half height [m]
  Vec3 half_extents = Vec3(Real(0.5), Real(0.5), Real(0.5));  // box; ellipsoid semi-axes [m]
  std::vector<Vec3> vertices;    // convex mesh: points whose hull is the shape (shape frame) [m]
  // Triangle mesh (thesis ch. 6): with triangles, the shape is the (possibly non-convex) mesh
  // over `vertices`, collided through its baked signed distance field (sim/sdf.hpp); `type` must be
  // ConvexMesh, whose hull gives the broadphase bounds (and what a renderer without meshes draws).
  std::vector<std::array<int, 3>> triangles;  // vertex indices, counter-clockwise from outside
  std::vector<Vec2> uvs;    // triangle mesh: texture coordinates of each triangle's corners (3 per triangle), or none
  Real sdf_voxel_size = 0;  // SDF grid spacing [m]; 0: 1/64 of the mesh's largest extent
  Real sdf_band = 3;        // SDF exterior band [voxels]; widened to cover the contact margin
  int material = -1;        // index into SceneSpec::materials, -1: default material
  Real thickness = 0;       // d of eq. 9: the gap this shape keeps [m]
  // Collision filter bitmasks (MuJoCo's contype/conaffinity): shapes a and b can touch when
  // (contype_a & conaffinity_b) | (contype_b & conaffinity_a) is non-zero. Particles are 1/1.
  std::uint32_t contype = 1;
  std::uint32_t conaffinity = 1;
  Real density = Real(1000);  // for mass properties when the body gives no mass [kg/m^3]
  SourceLocation source;
};
// A plane shape is the half-space local z <= 0 (normal +z of the shape frame); world only.

// Render-only geometry (URDF <visual>, MJCF geoms shown by default): drawn in place of its body's
// collision shapes, never simulated (no contacts, no mass, not in the state).
enum class VisualGeometry { Box, Sphere, Cylinder, Capsule, Ellipsoid, Plane, Mesh };
struct VisualSpec {
  VisualGeometry geometry = VisualGeometry::Box;
  Pose local;                          // in the body frame (world frame for world visuals)
  Vec3 half_extents = Vec3::Zero();    // box half extents, ellipsoid semi-axes, plane half size [m]
  Real radius = 0, half_length = 0;    // sphere, cylinder, capsule (axis local z) [m]
  std::shared_ptr<const TriangleMesh> mesh;  // Mesh: scaled, in the visual's frame
  std::array<float, 4> rgba{0.7f, 0.7f, 0.7f, 1.0f};  // sRGB colour, opacity
  SourceLocation source;
};

struct BodySpec {
  std::string name;
  Pose pose;                     // pose of the body frame in the world
  Vec3 linear_velocity = Vec3::Zero();   // [m/s]
  Vec3 angular_velocity = Vec3::Zero();  // world frame [rad/s]
  bool fixed = false;            // infinite mass, never moves
  SIM_BODY_DERIVED_FIELDS(SIM_DECLARE_DERIVED_SPEC_FIELD)  // mass [kg]; -1: from the shapes' densities
  Vec3 inertia = Vec3(-1, -1, -1);  // principal moments in the body frame [kg m^2]; < 0: computed
  Quat inertia_frame = Quat::Identity();  // axes of `inertia` in the body frame (URDF/MJCF full tensors)
  Vec3 com = Vec3::Zero();       // centre of mass in the body frame (used when mass is given)
  std::vector<ShapeSpec> shapes;
  StructureFieldSpec structure;  // grain of all its shapes in the body frame; None: their materials'
  std::vector<VisualSpec> visuals;  // drawn in place of `shapes` when any (robot imports)
  SourceLocation source;
};

struct ParticleSpec {
  Vec3 position = Vec3::Zero();  // [m]
  Vec3 velocity = Vec3::Zero();  // [m/s]
  SIM_PARTICLE_FIELDS(SIM_DECLARE_SPEC_FIELD)                  // radius [m]: collision radius
  SIM_PARTICLE_DERIVED_FIELDS(SIM_DECLARE_DERIVED_SPEC_FIELD)  // mass [kg]; 0: fixed in space
  int material = -1;
  SourceLocation source;
};

// A distance constraint between two particles (rope, cloth): |x_a - x_b| = rest.
struct DistanceSpec {
  int particle_a = -1;
  int particle_b = -1;
  Real rest_length = -1;  // < 0: the initial distance
  Real compliance = 0;    // e = 1/k [m/N]
  SourceLocation source;
};

// The material of an FEM soft body (paper §9.2; sim/soft_body.hpp builds one from a TetMesh).
struct SoftMaterialSpec {
  SoftModel model = SoftModel::NeoHookean;
  SoftCompliance compliance = SoftCompliance::Full;  // the rows' compliance block (tet_row_kernel.hpp)
  Real youngs_modulus = 1e5;  // E [Pa]
  Real poisson_ratio = 0.45;  // ν, in [0, 0.5)
  Real lame_lambda = -1;      // λ, μ [Pa]: when both are >= 0 they are used instead of E, ν
  Real lame_mu = -1;
  Real density = 1000;        // [kg/m³]: lumped into the particles' masses by add_soft_body
  Real damping = 0;           // stiffness-proportional damping β [s]
};

// A soft body: tetrahedra over the scene's particles (its particles are ordinary ParticleSpecs).
struct SoftRenderMesh;  // sim/soft_render_mesh.hpp

struct SoftBodySpec {
  std::string name;
  SoftMaterialSpec material;
  std::vector<std::array<int, 4>> tets;  // particle indices, positively oriented
  // Active-stress group of each tet (index into SceneSpec::soft_groups, -1 none); empty: none.
  std::vector<int> tet_group;
  bool self_collision = false;  // its surface particles collide with its own surface triangles
  // An embedded high-resolution surface drawn in place of the tet boundary (render_mesh=); null: none.
  std::shared_ptr<const SoftRenderMesh> render_mesh;
  SourceLocation source;
};

// An active-pressure group of soft-body tets (issue 14 item 5, PneuNet inflation): the tets of
// every soft body that name it are driven by one pressure, Control::soft_pressure[group]
// (constraint/tet_rows.hpp: a shift of the hydrostatic row's target). `pressure` is the initial
// control [Pa]; > 0 expands the tets.
struct SoftGroupSpec {
  std::string name;
  Real pressure = 0;
  SourceLocation source;
};

// A particle pinned to a point of a body (3 bilateral rows, constraint/attachment_rows.hpp):
// soft fingers on a palm, a soft body held by a moving body. body -1: the world.
struct ParticleAttachmentSpec {
  int particle = -1;
  int body = -1;
  Vec3 local_point = Vec3::Zero();  // in the body's authored frame (world for -1) [m]
  Real compliance = 0;              // [m/N]
  SourceLocation source;
};

// A shell (membrane cloth or a surface mesh): triangles over the scene's particles with in-plane
// membrane rows and dihedral bending rows over their interior edges (sim/shell.hpp,
// constraint/shell_rows.hpp; paper §9.1's compliance form on triangles).
struct ShellMaterialSpec {
  Real youngs_modulus = 1e6;  // E [Pa]
  Real poisson_ratio = 0.3;   // ν, in [0, 0.5): plane stress
  Real thickness = 1e-3;      // t [m]
  Real bending = -1;          // plate bending stiffness D [N m]; < 0: E t³/(12(1 − ν²)); 0: no bending rows
  Real density = 1000;        // [kg/m³]: ρ t A/3 lumped into each corner by add_shell
  Real damping = 0;           // stiffness-proportional damping β [s]
};

struct ShellSpec {
  std::string name;
  ShellMaterialSpec material;
  std::vector<std::array<int, 3>> triangles;  // particle indices; hinges are the interior edges
  SourceLocation source;
};

// JointType, DriveMode: sim/model_kinds.hpp.

struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  int body_a = -1;               // parent body index, -1: the world
  int body_b = -1;               // child body index
  Pose frame_a;                  // joint frame in body a's frame (world frame if body_a = -1)
  Pose frame_b;                  // joint frame in body b's frame
  Vec3 axis = Vec3::UnitZ();     // revolute/prismatic axis in the joint frame
  bool limited = false;
  Real lower = 0, upper = 0;     // [rad] or [m]
  // Implicit PD drive on the joint coordinate: force = -kp (θ - target) - kd (θ̇ - target_velocity)
  DriveMode drive = DriveMode::None;
  // linear_compliance, angular_compliance, armature, and the drive's stiffness (kp), damping (kd),
  // max_force (< 0: unlimited), target, target_velocity: units and ranges in sim/spec_fields.hpp.
  SIM_JOINT_FIELDS(SIM_DECLARE_SPEC_FIELD)
  // Control range (MJCF actuator ctrlrange / gear, URDF <limit velocity> of a velocity drive): the
  // drive's input, the position target (Position) or the velocity target (Velocity), is clamped
  // into [target_lower, target_upper] every step, whatever writes Control. Outside the field
  // table, like the limits: one range with its flag.
  bool target_limited = false;
  Real target_lower = 0, target_upper = 0;
  SourceLocation source;
};

// A robot description (URDF or MJCF) referenced by a scene's <robot file="..."/> element
// (docs/scene-format.md). The import's materials, world shapes, bodies and joints are ordinary
// entries of the SceneSpec (edited, compiled and simulated like any other); this record keeps
// which contiguous ranges they occupy and how they were made, so the scene writer writes the
// <robot> element back instead of the expansion, and the edits since as <body>/<joint> overrides
// against `imported_bodies` / `imported_joints`.
struct RobotIncludeSpec {
  std::string file;           // as written in the scene: relative to the scene file, or absolute
  std::string path;           // resolved path that was read
  std::string format;         // "urdf" or "mjcf"
  Pose base;                  // the robot's frame in the world
  bool fixed_base = true;     // the root body is fixed
  bool self_collision = true; // false: the robot's bodies never collide with each other
                              // (Model::no_collision_pairs); jointed pairs never do anyway
  std::string prefix;         // prepended to body, joint and material names
  Real density = Real(1000);  // [kg/m^3] for links without inertial data
  std::string material;       // scene material for the robot's shapes that have none; "" none
  // URDF joints' drive (URDF has no actuators): mode, kp, kd (the joint's <dynamics damping> adds
  // to kd; its <limit effort> is the max force).
  DriveMode drive = DriveMode::None;
  Real stiffness = 0;
  Real damping = 0;
  // What the import produced: [first, first + count) of each list of the SceneSpec.
  int first_material = 0, material_count = 0;
  int first_world_shape = 0, world_shape_count = 0;
  int first_body = 0, body_count = 0;
  int first_joint = 0, joint_count = 0;
  // Initial joint coordinates set by <joint name position> overrides, in document order: the
  // joint's child subtree is turned (slid) to the coordinate [rad] or [m].
  std::vector<std::pair<std::string, Real>> joint_positions;
  // Bodies (without shapes; posed after joint_positions) and joints as imported and placed,
  // before the other overrides.
  std::vector<BodySpec> imported_bodies;
  std::vector<JointSpec> imported_joints;
  // The file's own timestep and gravity (MJCF <option>): the scene's win, a robot opened as a
  // scene (robot_scene) takes them.
  bool has_timestep = false, has_gravity = false;
  // Body pairs of the robot that never collide (MJCF <exclude>, parent/child), as offsets from
  // first_body (Model::no_collision_pairs).
  std::vector<std::array<int, 2>> no_collision_pairs;
  Real file_dt = 0;
  Vec3 file_gravity = Vec3::Zero();
  std::vector<std::string> warnings;  // the importer's ("file:line: <element>: message")
  double load_seconds = 0;            // wall time of the import (reading, meshes, hulls)
  SourceLocation source;
};

// A named simulation state stored with the scene (<keyframe>, MuJoCo's keyframes): the
// generalized coordinates and velocities in State layout (sim/state.hpp) of the compiled model, the
// drive targets and the solver's warm start (State::warm_start), so restoring it continues the
// simulation bit for bit as the run it was saved from would have. The vectors must match the
// model's coord_count / dof_count / joint_count (keyframe_state() checks); an edit that changes
// the model's structure invalidates the keyframes saved before it (restoring then says why).
struct KeyframeSpec {
  std::string name;
  Real time = 0;                          // [s]
  std::vector<Real> q;                    // State::q
  std::vector<Real> u;                    // State::u
  std::vector<Real> joint_position;       // State::joint_position, unwrapped (empty: from q)
  std::vector<Real> joint_target;         // Control::joint_target (empty: the model's initial targets)
  std::vector<Real> soft_pressure;        // Control::soft_pressure [Pa] (empty: the model's initial pressures)
  // State::warm_start (all empty: a cold start): contact keys (ascending), (λ_n, λ_f1, λ_f2) per
  // key, and the multipliers of the rows before the contacts.
  std::vector<std::uint64_t> warm_contact_key;
  std::vector<Real> warm_contact_lambda;
  std::vector<Real> warm_row_lambda;
  SourceLocation source;
};

struct SceneSpec {
  std::string name;
  std::string source_file;
  Vec3 gravity = Vec3(0, 0, Real(-9.81));  // z is up [m/s^2]
  Real dt = Real(1.0 / 120.0);             // [s]
  SolverOptions solver;
  std::vector<MaterialSpec> materials;
  std::vector<ShapeSpec> world_shapes;     // static geometry attached to the world
  std::vector<VisualSpec> world_visuals;   // render-only geometry fixed in the world (MJCF visual-only geoms)
  std::vector<BodySpec> bodies;
  std::vector<ParticleSpec> particles;
  std::vector<DistanceSpec> distances;
  std::vector<std::array<int, 3>> particle_triangles;  // cloth faces (particle indices) against SDFs
  // Particle ranges {first, count} whose surfaces collide with themselves besides the soft bodies
  // flagged self_collision (<cloth self_collision="true">, <self_collision first count>).
  std::vector<std::array<int, 2>> self_collision_particles;
  std::vector<SoftBodySpec> soft_bodies;   // FEM tetrahedra over `particles`
  std::vector<SoftGroupSpec> soft_groups;  // active-pressure groups of tets (Control::soft_pressure)
  std::vector<ParticleAttachmentSpec> attachments;  // particles pinned to body points
  std::vector<ShellSpec> shells;           // membrane and bending triangles over `particles`
  SdfContactOptions sdf;                   // SDF contact generation (vertices, edges, faces)
  std::vector<JointSpec> joints;
  std::vector<RobotIncludeSpec> robots;    // <robot> elements, in document order
  std::vector<KeyframeSpec> keyframes;     // <keyframe> elements, in document order
  // Every other file the loaders read for this scene, as resolved paths: meshes, tet meshes,
  // textures, robot descriptions and their meshes (the scene and its includes are the elements'
  // source files). Derived on load, never written; outputs must not overwrite any of them.
  std::vector<std::string> resource_files;
};

// Adds `path` to spec.resource_files once.
void add_resource_file(SceneSpec& spec, const std::string& path);

// The robot include whose bodies (joints) contain index `body` (`joint`); -1: none.
int robot_of_body(const SceneSpec& spec, int body);
int robot_of_joint(const SceneSpec& spec, int joint);
// Removes body `body`, the joints that use it and re-indexes the rest, keeping the robot
// includes' ranges consistent. Refuses (an error message; nothing changed) a body that a
// <robot> element produced: remove the element instead.
std::string erase_body(SceneSpec& spec, int body);

}  // namespace sim
