// Model: the compiled, immutable description of a scene. Struct of arrays with dense int ids.
// Generalized coordinates (paper eqs. 86-90): every rigid body owns 6 velocity dofs (v, ω world
// frame) and 7 position coordinates (x, quaternion w x y z); every particle owns 3 and 3.
// Bodies come first in the generalized vectors, then particles.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/math.hpp"
#include "sim/mesh_surface.hpp"
#include "sim/solver_options.hpp"
#include "sim/spec.hpp"

namespace sim {

struct Model {
  // ---- scene ----------------------------------------------------------------------------
  Vec3 gravity = Vec3(0, 0, Real(-9.81));   // [m/s^2]
  Real dt = Real(1.0 / 120.0);              // [s]
  SolverOptions solver;

  // ---- rigid bodies (body_count) -----------------------------------------------------------
  int body_count = 0;
  std::vector<std::string> body_name;       // (body_count)
  std::vector<Real> body_inv_mass;          // 1/m [1/kg], 0 for fixed bodies (body_count)
  std::vector<Vec3> body_inertia;           // principal moments, body frame [kg m^2] (body_count)
  std::vector<Vec3> body_inv_inertia;       // inverse principal moments, 0 for fixed (body_count)
  std::vector<Pose> body_initial_pose;      // pose of the centre-of-mass frame at t=0 (body_count)
  std::vector<Pose> body_frame_in_com;      // authored body frame in the com frame (body_count)
  std::vector<Vec3> body_initial_velocity;  // [m/s] (body_count)
  std::vector<Vec3> body_initial_angular_velocity;  // world [rad/s] (body_count)
  std::vector<Real> body_bound_radius;      // radius of a sphere around the com holding all shapes

  // ---- particles (particle_count) ---------------------------------------------------------
  int particle_count = 0;
  std::vector<Real> particle_inv_mass;      // [1/kg], 0: fixed in space (particle_count)
  SIM_PARTICLE_FIELDS(SIM_DECLARE_MODEL_FIELD)  // particle_radius: collision radius [m] (particle_count)
  std::vector<int> particle_material;       // (particle_count)
  std::vector<Vec3> particle_initial_position;  // (particle_count)
  std::vector<Vec3> particle_initial_velocity;  // (particle_count)

  // ---- materials (material_count) ---------------------------------------------------------
  int material_count = 0;
  std::vector<std::string> material_name;
  SIM_MATERIAL_FIELDS(SIM_DECLARE_MODEL_FIELD)  // material_friction: μ (material_count)
  // Anisotropic friction (thesis ch. 3): the ellipse's axes when grains are aligned (eq. 34), equal
  // to μ for isotropic materials, and the material's structure field (index, -1: none).
  std::vector<Real> material_friction_major;  // (material_count)
  std::vector<Real> material_friction_minor;  // (material_count)
  std::vector<int> material_structure_field;  // (material_count)
  std::vector<StructureField> structure_fields;  // materials' and bodies' fields (sim/structure_field.hpp)
  std::vector<int> body_structure_field;      // body's own field overriding its shapes' materials', -1 none (body_count)

  // ---- shapes (shape_count); body -1 means attached to the world ---------------------------
  int shape_count = 0;
  std::vector<ShapeType> shape_type;        // (shape_count)
  std::vector<int> shape_body;              // owning body or -1 (shape_count)
  std::vector<Pose> shape_local;            // shape frame in the body's com frame (shape_count)
  std::vector<Real> shape_radius;           // sphere/capsule/cylinder radius [m]
  std::vector<Real> shape_half_length;      // capsule half segment length [m]
  std::vector<Vec3> shape_half_extents;     // box half extents, ellipsoid semi-axes [m]
  std::vector<int> shape_hull;              // index into hull arrays for ConvexMesh, Cylinder, Ellipsoid, else -1
  std::vector<int> shape_material;          // (shape_count)
  std::vector<Real> shape_thickness;        // d of eq. 9 [m]
  std::vector<std::uint32_t> shape_contype;      // collision filter bits (ShapeSpec::contype)
  std::vector<std::uint32_t> shape_conaffinity;  // (ShapeSpec::conaffinity)
  std::vector<Real> shape_bound_radius;     // bounding sphere radius about the shape origin [m]

  // ---- convex hulls (hull_count) ------------------------------------------------------------
  // A hull is a convex polyhedron: vertices, planar faces (CCW seen from outside) and edges.
  struct Hull {
    std::vector<Vec3> vertices;             // shape frame [m]
    std::vector<int> face_first;            // (face_count + 1) offsets into face_vertices
    std::vector<int> face_vertices;         // vertex indices, counter-clockwise seen from outside
    std::vector<Vec3> face_normal;          // outward unit normals (face_count)
    std::vector<Real> face_offset;          // n·x = offset on the face (face_count)
    std::vector<int> edge_vertices;         // pairs of vertex indices (2 * edge_count)
    int face_count() const { return static_cast<int>(face_normal.size()); }
    int edge_count() const { return static_cast<int>(edge_vertices.size() / 2); }
  };
  std::vector<Hull> hulls;

  // ---- triangle meshes collided through signed distance fields (thesis ch. 6) ---------------
  std::vector<int> shape_mesh;              // index into meshes for triangle-mesh shapes, else -1 (shape_count)
  std::vector<std::shared_ptr<const SdfMesh>> meshes;  // mesh, topology and baked grid (mesh_count)
  // Triangle meshes with UVs: their surface coordinates (texture grains, sim/mesh_surface.hpp).
  std::vector<int> shape_surface;           // index into surfaces, -1 without UVs (shape_count)
  std::vector<std::shared_ptr<const MeshSurface>> surfaces;
  std::vector<std::array<int, 3>> particle_triangles;  // cloth faces (particle indices) against SDFs
  // Particle ranges {first, count} whose surfaces collide with themselves (self contact,
  // collision/particle_surfaces.hpp): the spec's ranges and the self_collision soft bodies'.
  std::vector<std::array<int, 2>> self_collision_particles;
  // The cloth's edges (lower << 32 | higher particle, sorted) and, aligned, the lowest-index
  // triangle holding each: an edge contact is kept once, by that triangle.
  std::vector<std::uint64_t> particle_edge_key;
  std::vector<int> particle_edge_owner;
  SdfContactOptions sdf;                    // how SDF contacts are generated

  // ---- visual shapes (visual_count): drawn, never simulated (no contacts, no mass) ----------
  // A body with visuals is drawn with them in place of its collision shapes (VisualSpec).
  int visual_count = 0;
  std::vector<VisualGeometry> visual_geometry;  // (visual_count)
  std::vector<int> visual_body;             // owning body or -1 (world)
  std::vector<Pose> visual_local;           // visual frame in the body's com frame (world for -1)
  std::vector<Real> visual_radius, visual_half_length;  // sphere, cylinder, capsule [m]
  std::vector<Vec3> visual_half_extents;    // box, ellipsoid, plane [m]
  std::vector<std::shared_ptr<const TriangleMesh>> visual_mesh;  // Mesh (shared with the spec)
  std::vector<std::array<float, 4>> visual_rgba;  // sRGB colour, opacity
  std::vector<char> body_has_visuals;       // (body_count)
  // Soft bodies' embedded render surfaces (sim/soft_render_mesh.hpp, shared with the spec):
  // drawn in place of their bodies' tet boundaries, never simulated.
  std::vector<std::shared_ptr<const SoftRenderMesh>> soft_render_meshes;

  // ---- particle distance constraints (distance_count) ---------------------------------------
  int distance_count = 0;
  std::vector<int> distance_particle_a, distance_particle_b;  // (distance_count)
  std::vector<Real> distance_rest;          // [m]
  std::vector<Real> distance_compliance;    // [m/N]

  // ---- FEM tetrahedra of soft bodies (tet_count; constraint/tet_rows.hpp, paper §9.2) --------
  int tet_count = 0;
  std::vector<int> tet_particle;            // 4 per tet, positively oriented at rest (4 tet_count)
  std::vector<Mat3> tet_rest_inverse;       // D_m⁻¹ (rest edges x_k − x_0 as columns, inverted)
  std::vector<Real> tet_volume;             // rest volume [m³]
  std::vector<Real> tet_mu, tet_lambda;     // the material model's own μ, λ [Pa] (soft_body_lame)
  std::vector<Real> tet_damping;            // stiffness-proportional damping β [s]
  std::vector<SoftModel> tet_model;
  std::vector<SoftCompliance> tet_compliance;
  std::vector<int> tet_group;               // active-pressure group or -1 (Control::soft_pressure)
  int soft_group_count = 0;
  std::vector<std::string> soft_group_name;     // (soft_group_count)
  std::vector<Real> soft_group_pressure;        // initial control [Pa] (soft_group_count)

  // ---- particle attachments (attachment_count; constraint/attachment_rows.hpp) ---------------
  int attachment_count = 0;
  std::vector<int> attachment_particle, attachment_body;  // body -1: the world
  std::vector<Vec3> attachment_local;       // point in the body's com frame (world for -1) [m]
  std::vector<Real> attachment_compliance;  // [m/N]

  // ---- shells: membrane triangles, hinges and bending rows (constraint/shell_rows.hpp) --------
  int membrane_count = 0;
  std::vector<int> membrane_particle;       // 3 per triangle (3 membrane_count)
  std::vector<Eigen::Matrix<Real, 2, 2>> membrane_rest_inverse;  // D_m⁻¹ in the rest triangle's frame
  std::vector<Real> membrane_area;          // rest area A [m²]
  std::vector<Real> membrane_mu, membrane_lambda;  // plane-stress μ t, λ* t = (Eν/(1−ν²)) t [N/m]
  std::vector<Real> membrane_damping;       // β [s]
  int hinge_count = 0;                      // interior edges of shells with bending
  std::vector<int> hinge_particle;          // 4 per hinge: edge x0 x1, opposite corners x2 x3
  std::vector<Real> hinge_rest_angle;       // θ̄ [rad]
  // Bending rows (kernels/bending_row_kernel.hpp): per triangle with interior edges, the
  // eigen-rows of its mid-edge shape-operator energy, m = Σ_j w_j (θ_j − θ̄_j) over its hinges.
  int bending_count = 0;
  std::vector<int> bending_hinge;           // kBendingHinges per row, -1 where unused
  std::vector<Real> bending_weight;         // kBendingHinges per row: w_j [1]
  std::vector<int> bending_particle;        // kBendingParticles per row (its hinges' corners), -1 unused
  std::vector<Real> bending_stiffness;      // k [N m/rad²]
  std::vector<Real> bending_damping;        // β [s]

  // ---- joints (joint_count); body -1 means the world ----------------------------------------
  int joint_count = 0;
  std::vector<std::string> joint_name;
  std::vector<JointType> joint_type;
  std::vector<int> joint_body_a, joint_body_b;
  std::vector<Pose> joint_frame_a, joint_frame_b;   // joint frames in the bodies' com frames
  std::vector<Vec3> joint_axis;             // unit axis in joint frame a (= frame b at rest)
  std::vector<char> joint_limited;
  std::vector<Real> joint_lower, joint_upper;
  std::vector<DriveMode> joint_drive;
  // joint_linear_compliance, joint_angular_compliance, joint_armature, joint_stiffness,
  // joint_damping, joint_max_force, joint_initial_target, joint_initial_target_velocity
  // (joint_count): the table's joint fields (sim/spec_fields.hpp).
  SIM_JOINT_FIELDS(SIM_DECLARE_MODEL_FIELD)
  std::vector<char> joint_target_limited;   // the drive input's control range (JointSpec::target_limited)
  std::vector<Real> joint_target_lower, joint_target_upper;

  // Body pairs (lower, higher index) that never collide, besides those joined by a joint: the
  // bodies of a robot included with self_collision="false" (RobotIncludeSpec), and those of
  // initial_overlap_pairs.
  std::vector<std::array<int, 2>> no_collision_pairs;
  // Body pairs of a robot included with self_collision="true" whose shapes overlap at the
  // initial pose (compile/initial_overlap_filter.hpp), with their deepest penetration [m]: they
  // are filtered (also listed in no_collision_pairs) and reported when the scene loads.
  struct FilteredPair {
    int body_a = -1, body_b = -1;
    Real depth = 0;
  };
  std::vector<FilteredPair> initial_overlap_pairs;

  // ---- sizes -------------------------------------------------------------------------------
  int dof_count() const { return 6 * body_count + 3 * particle_count; }
  int coord_count() const { return 7 * body_count + 3 * particle_count; }
  int body_dof(int body) const { return 6 * body; }
  int particle_dof(int particle) const { return 6 * body_count + 3 * particle; }
  int body_coord(int body) const { return 7 * body; }
  int particle_coord(int particle) const { return 7 * body_count + 3 * particle; }
  bool body_is_dynamic(int body) const { return body >= 0 && body_inv_mass[body] > 0; }
};

}  // namespace sim
