// Robot description import: URDF and MJCF -> a SceneSpec fragment (materials, bodies, shapes,
// joints) plus what a SceneSpec cannot hold (visual geometry, mimic joints, actuators, sites)
// and warnings; append_robot() places a fragment in a scene.
//
// Bad input gives an Error "file:line: <element>: message"; what is valid but not supported
// (unknown elements and attributes, planar joints, extra MJCF joints, ...) is skipped with a
// warning in the same form; a mesh file that cannot be found or read becomes a warning and a
// small box. Nothing aborts.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/result.hpp"
#include "sim/sdf.hpp"  // TriangleMesh
#include "sim/spec.hpp"

namespace sim {

struct ImportOptions {
  // Folders searched for package://NAME/...: a folder named NAME itself, or one that holds a
  // folder NAME. Searched before the file's own folder and its ancestors, then ROS_PACKAGE_PATH.
  std::vector<std::string> package_paths;
  // Links on fixed joints (URDF fixed, MJCF bodies without joints) become part of their parent's
  // body: shapes and mass move over, no joint is made. Off: one body per link and Fixed joints.
  bool merge_fixed_links = true;
  bool load_visual_meshes = true;  // read visual meshes into ImportResult::meshes
  Real density = Real(1000);       // [kg/m^3] for links without <inertial> (URDF), MJCF geoms
  // Mesh collision: a mesh is its convex hull, or, when its hull is more than
  // `decompose_above` times its volume (closed meshes only), up to `max_convex_parts` hulls
  // each within `part_concavity` of its part's volume (collision/convex_decomposition.hpp).
  bool decompose_meshes = true;
  Real decompose_above = Real(1.25);
  Real part_concavity = Real(0.1);
  int max_convex_parts = 12;
  // Hulls with more corners are reduced to the corners extreme along this many directions (and
  // the six axes), keeping narrowphase costs bounded; 0: keep every corner.
  int max_hull_vertices = 128;
  std::string name_prefix;  // prepended to body, joint and material names
  // URDF has no actuators: the drive every movable (non-mimic) joint gets. None leaves the
  // joints passive (a joint with <dynamics damping> then gets a velocity drive to 0 with that
  // damping). Position/Velocity: stiffness kp and damping kd (+ dynamics damping), effort as
  // max_force.
  DriveMode urdf_drive = DriveMode::None;
  Real urdf_drive_stiffness = 0;
  Real urdf_drive_damping = 0;
};

enum class RobotJointKind { Fixed, Revolute, Continuous, Prismatic, Ball, Floating, Planar };

// One link (URDF <link>, MJCF <body>; for MJCF the world body comes first), in document order.
struct RobotLink {
  std::string name;
  int body = -1;          // index into ImportResult::scene.bodies; -1: the world
  Pose frame_in_body;     // the link frame in its body's frame (identity unless merged)
  Real mass = 0;          // [kg]: authored, or from the collision geometry (mass_from_geometry)
  bool mass_from_geometry = false;
  SourceLocation source;
};

// One joint (URDF <joint>, MJCF <joint>/<freejoint>), in document order.
struct RobotJoint {
  std::string name;
  RobotJointKind kind = RobotJointKind::Fixed;
  std::string parent_link, child_link;  // parent "" for the world
  int joint = -1;         // index into ImportResult::scene.joints; -1: none (merged, floating, planar)
  bool merged = false;    // fixed joint made no joint: child merged into the parent's body, or
                          // (parent the world) made a fixed body
  Real lower = 0, upper = 0;  // limits [rad] or [m] (kind Revolute/Prismatic with limits)
  bool limited = false;
  Real effort = -1;       // URDF <limit effort>, MJCF actuatorfrcrange; < 0: not given [N m] or [N]
  Real velocity = -1;     // URDF <limit velocity>; < 0: not given [rad/s] or [m/s]
  Real damping = 0;       // URDF <dynamics damping>, MJCF damping [N m s/rad] or [N s/m]
  Real friction = 0;      // URDF <dynamics friction>, MJCF frictionloss (not simulated)
  bool mimic = false;     // URDF <mimic>: q = multiplier * q(mimic_joint) + offset (not enforced)
  std::string mimic_joint;
  Real multiplier = 1;
  Real offset = 0;
  SourceLocation source;
};

// Visual geometry (not simulated): what a renderer draws for a link. append_robot() turns the
// shown ones into VisualSpecs of their bodies (BodySpec::visuals, SceneSpec::world_visuals).
struct RobotVisual {
  using Geometry = VisualGeometry;
  Geometry geometry = Geometry::Box;
  int link = -1;          // index into ImportResult::links
  int body = -1;          // index into ImportResult::scene.bodies (-1: world)
  Pose local;             // in the body frame
  Vec3 half_extents = Vec3::Zero();  // box; ellipsoid radii [m]
  Real radius = 0, half_length = 0;  // sphere, cylinder, capsule (axis z) [m]
  std::string mesh_file;             // resolved path; "" when not found
  Vec3 mesh_scale = Vec3::Ones();
  int mesh = -1;          // index into ImportResult::meshes (scaled); -1: not loaded
  std::array<float, 4> rgba{0.7f, 0.7f, 0.7f, 1.0f};  // URDF <material><color>, MJCF rgba / material rgba
  int group = 0;          // MJCF geom group: MuJoCo shows groups 0-2 by default, so 3-5 are not drawn
  bool collides = false;  // MJCF: the geom is a collision shape as well (a world one is drawn as that)
  SourceLocation source;
};
// Whether append_robot() draws a visual: opaque enough to see (alpha > 0) and in a group MuJoCo
// shows by default; a world geom that also collides is drawn as its collision shape instead.
bool shown_visual(const RobotVisual& v);

// MJCF <site>: a named frame on a body (IK targets, sensors).
struct RobotSite {
  std::string name;
  int body = -1;  // -1: the world
  Pose local;
  SourceLocation source;
};

// MJCF actuator on a joint. Position and Velocity ones become the joint's drive (MuJoCo's
// force gear·kp·(ctrl − gear·q) is a drive of stiffness gear²·kp; velocity likewise with kv and
// damping; forcerange·gear is max_force); a Motor (direct torque) is recorded here only.
struct RobotActuator {
  enum class Kind { Motor, Position, Velocity };
  Kind kind = Kind::Motor;
  std::string name;
  std::string joint;
  int joint_index = -1;   // index into ImportResult::scene.joints; -1: its joint was not made
  Real gear = 1;
  Real kp = 0, kv = 0;
  bool ctrl_limited = false;
  Real ctrl_lower = 0, ctrl_upper = 0;
  bool force_limited = false;
  Real force_lower = 0, force_upper = 0;
  SourceLocation source;
};

struct ImportResult {
  std::string name;  // <robot name>, <mujoco model>
  // Materials, bodies (poses in the robot's frame: the root link's at the origin for URDF, the
  // MJCF world frame), shapes, joints, world shapes (MJCF worldbody geoms); dt and gravity when
  // the file sets them (MJCF <option>, has_timestep / has_gravity).
  SceneSpec scene;
  bool has_timestep = false;
  bool has_gravity = false;
  int root_body = -1;  // the body fixed by append_robot(fixed_base = true); -1: none
  std::vector<RobotLink> links;
  std::vector<RobotJoint> joints;
  std::vector<RobotVisual> visuals;
  std::vector<TriangleMesh> meshes;
  std::vector<RobotSite> sites;
  std::vector<RobotActuator> actuators;
  // Body pairs (indices into scene.bodies, lower first) that never collide: MJCF <exclude> and
  // parent/child bodies (MuJoCo filters those by default). Kept by a scene's <robot> element
  // (RobotIncludeSpec::no_collision_pairs); append_robot() does not apply them.
  std::vector<std::array<int, 2>> no_collision_body_pairs;
  std::vector<std::string> warnings;  // "file:line: <element>: message"
};

// URDF file -> fragment. Links become bodies (merged over fixed joints by default), joints
// revolute/continuous/prismatic/fixed; floating and planar (warned) child links are free bodies.
Result<ImportResult> import_urdf(const std::string& path, const ImportOptions& options = {});
// The same from text in memory; `file_name` names it in messages and anchors relative paths.
Result<ImportResult> parse_urdf(const std::string& xml_text, const std::string& file_name,
                                const ImportOptions& options = {});

// MJCF (MuJoCo) file -> fragment: the common subset (worldbody, bodies, geoms, joints, inertial,
// sites, defaults and classes, compiler angle/eulerseq/meshdir, option timestep/gravity, mesh
// assets, motor/position/velocity actuators).
Result<ImportResult> import_mjcf(const std::string& path, const ImportOptions& options = {});
Result<ImportResult> parse_mjcf(const std::string& xml_text, const std::string& file_name,
                                const ImportOptions& options = {});

// Appends a fragment to `scene`: bodies and world-attached joint frames and world shapes moved by
// `base`, the shown visuals (shown_visual) onto their bodies or the world, indices offset, materials matched by name (the scene's win) or appended; with
// fixed_base the root body is made fixed. dt and gravity are taken over when the fragment has
// them (has_timestep / has_gravity). Fails, changing nothing, when a body or joint name is
// already in the scene (use ImportOptions::name_prefix).
Result<bool> append_robot(SceneSpec& scene, const ImportResult& robot, const Pose& base, bool fixed_base);

}  // namespace sim
