// Plain views for the kernels: pointer + count structs over the arrays of the Model, a State (or
// the solver's iterate) and the per-step arrays, so a kernel reads the same memory on the CPU
// (made from the std::vector-owning structs by core/kernel_views.hpp) and on the device (made
// from device copies of the same arrays). Fixed-size Eigen types only; nothing here owns memory.
//
// Generalized layout (sim/model.hpp, paper eqs. 86-90): bodies first, then particles;
//   q: per body [x y z qw qx qy qz] of its centre-of-mass frame, per particle [x y z];
//   u: per body [v ω] (ω in the world frame), per particle [v].
#pragma once

#include "kernels/kernel_macros.hpp"
#include "sim/math.hpp"
#include "sim/model_kinds.hpp"

namespace sim {

// Offsets into the generalized vectors (Model::body_coord / particle_dof, for kernels).
SIM_HD inline int body_coord_offset(int body) { return 7 * body; }
SIM_HD inline int body_dof_offset(int body) { return 6 * body; }
SIM_HD inline int particle_coord_offset(int body_count, int particle) { return 7 * body_count + 3 * particle; }
SIM_HD inline int particle_dof_offset(int body_count, int particle) { return 6 * body_count + 3 * particle; }
// A node is a body (6 dofs) or, after the bodies, a particle (3 dofs).
SIM_HD inline int node_dof_offset(int body_count, int node) {
  return node < body_count ? body_dof_offset(node) : particle_dof_offset(body_count, node - body_count);
}

// The Model's rigid-body arrays (body_count).
struct BodyView {
  const Real* inv_mass;     // 1/m [1/kg], 0 for fixed bodies
  const Vec3* inertia;      // principal moments in the com frame [kg m²]
  const Vec3* inv_inertia;  // their inverses, 0 for fixed bodies [1/(kg m²)]
  int count;

  SIM_HD bool is_dynamic(int b) const { return inv_mass[b] > 0; }
};

// The Model's particle arrays (particle_count).
struct ParticleView {
  const Real* inv_mass;  // [1/kg], 0: fixed in space
  int count;
};

// Generalized positions and velocities, read only: State::q / State::u, or the solver's q⁻ and
// iterate u (layout above).
struct StateView {
  const Real* q;  // (7 body_count + 3 particle_count)
  const Real* u;  // (6 body_count + 3 particle_count)
  int body_count;
  int particle_count;

  SIM_HD Vec3 body_position(int b) const {
    const Real* c = q + body_coord_offset(b);
    return Vec3(c[0], c[1], c[2]);
  }
  SIM_HD Quat body_rotation(int b) const {
    const Real* c = q + body_coord_offset(b);
    return Quat(c[3], c[4], c[5], c[6]);
  }
  SIM_HD Vec3 body_velocity(int b) const {
    const Real* v = u + body_dof_offset(b);
    return Vec3(v[0], v[1], v[2]);
  }
  SIM_HD Vec3 body_angular_velocity(int b) const {
    const Real* v = u + body_dof_offset(b);
    return Vec3(v[3], v[4], v[5]);
  }
  SIM_HD Vec3 particle_position(int p) const {
    const Real* c = q + particle_coord_offset(body_count, p);
    return Vec3(c[0], c[1], c[2]);
  }
  SIM_HD Vec3 particle_velocity(int p) const {
    const Real* v = u + particle_dof_offset(body_count, p);
    return Vec3(v[0], v[1], v[2]);
  }
};

// The Model's joint arrays the joint, drive and limit rows read (joint_count; body -1: the world).
struct JointView {
  const JointType* type;
  const int* body_a;
  const int* body_b;
  const Pose* frame_a;  // joint frames in the bodies' com frames (body a = -1: in the world)
  const Pose* frame_b;
  const Vec3* axis;     // unit axis in joint frame a
  const Real* lower;    // limits of the joint coordinate [rad or m]
  const Real* upper;
  int count;
};

// The Model's particle distance constraints (distance_count).
struct DistanceView {
  const int* particle_a;
  const int* particle_b;
  const Real* rest;  // L [m]
  int count;
};

// The Model's shape arrays the contact rows read: round cores (spheres, capsules) of the shapes
// that produced a contact (shape_count).
struct ShapeView {
  const ShapeType* type;
  const int* body;          // owning body or -1
  const Pose* local;        // shape frame in the body's com frame
  const Real* radius;       // [m]
  const Real* half_length;  // capsule half segment [m]
  int count;
};

// The Model's cloth faces (Model::particle_triangles): three particle indices per face.
struct ParticleFaceView {
  const int* corners;  // (3 count)
  int count;
};

// A configuration (core/kinematics.hpp Configuration): com poses and particle positions at q.
struct ConfigurationView {
  const Pose* body_pose;          // (body_count)
  const Vec3* particle_position;  // (particle_count) [m]
};

// External loads of one step (Control): null where the control has none for every entity.
struct LoadView {
  Vec3 gravity;                 // [m/s²]
  const Vec6* body_wrench;      // force and torque at the com, world (body_count) [N, N m] or null
  const Vec3* particle_force;   // (particle_count) [N] or null
  bool implicit_gyroscopic;     // SolverOptions::implicit_gyroscopic (body_kernels.hpp implicit_gyroscopic_step)
};

// The mass matrix of one step at q⁻ (eq. 90): world inertia R I Rᵀ and its inverse per body
// (SolverScratch::body_inertia_world, InverseMass::body_inv_inertia).
struct BodyInertiaView {
  Mat3* inertia_world;      // (body_count) [kg m²]
  Mat3* inv_inertia_world;  // (body_count) [1/(kg m²)]
};

// H⁻¹ of one step per node (solver/schur_system.hpp InverseMass): bodies' m⁻¹ and world I⁻¹ at
// q⁻, particles' 1/(m + geometric-stiffness shift) per dof. Nodes are bodies, then particles.
struct InverseMassView {
  const Real* body_inv_mass;      // (body_count)
  const Mat3* body_inv_inertia;   // world frame (body_count)
  const Real* particle_inv_mass;  // per dof (3 particle_count)
  int body_count;
};

// The multipliers of the contact rows in a row set (RowSet::row_lambda): contact c's normal row
// is first_normal + c, its friction rows first_friction + 2c and + 2c + 1.
struct ContactLambdaView {
  const Real* row_lambda;
  int first_normal;
  int first_friction;
  int count;  // contacts
};

}  // namespace sim
