// Small scene builders shared by the solver tests: SceneSpecs made in code, so each test states
// its physical set-up next to its oracle.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "sim/compile.hpp"
#include "sim/sdf.hpp"
#include "sim/spec.hpp"
#include "sim/state.hpp"
#include "sim/step.hpp"

namespace test {

inline sim::ShapeSpec box_shape(const sim::Vec3& half, int material = -1) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Box;
  s.half_extents = half;
  s.material = material;
  return s;
}

inline sim::ShapeSpec sphere_shape(sim::Real radius, int material = -1) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Sphere;
  s.radius = radius;
  s.material = material;
  return s;
}

inline sim::ShapeSpec ground_plane(int material = -1) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::Plane;
  s.material = material;
  return s;
}

// A triangle-mesh shape (collided through its baked SDF, thesis ch. 6) with grid spacing `voxel`
// (0: the compiler's default, 1/64 of the mesh's largest extent).
inline sim::ShapeSpec mesh_shape(const sim::TriangleMesh& mesh, sim::Real voxel = 0, int material = -1) {
  sim::ShapeSpec s;
  s.type = sim::ShapeType::ConvexMesh;
  s.vertices = mesh.vertices;
  s.triangles = mesh.triangles;
  s.sdf_voxel_size = voxel;
  s.material = material;
  return s;
}

// Two 1 kg particles at a and b joined by one distance row (rest length < 0: their distance).
inline sim::SceneSpec particle_pair(sim::Real dt, const sim::Vec3& a, const sim::Vec3& b, sim::Real rest_length = -1) {
  sim::SceneSpec spec;
  spec.dt = dt;
  for (const sim::Vec3& x : {a, b}) {
    sim::ParticleSpec p;
    p.position = x;
    spec.particles.push_back(p);
  }
  sim::DistanceSpec d;
  d.particle_a = 0;
  d.particle_b = 1;
  d.rest_length = rest_length;
  spec.distances.push_back(d);
  return spec;
}

// A particle of radius 1 cm resting on the ground plane z = 0 with weight m g = `weight` [N]
// (g = 9.81), sliding at `velocity`, of material `material`; one contact, λ_n = weight.
inline void add_particle_on_ground(sim::SceneSpec& spec, sim::Real weight, const sim::Vec3& velocity, int material) {
  sim::ParticleSpec p;
  p.mass = weight / sim::Real(9.81);
  p.radius = 0.01;
  p.position = sim::Vec3(0, 0, 0.01);
  p.velocity = velocity;
  p.material = material;
  spec.particles.push_back(p);
}

inline int add_material(sim::SceneSpec& spec, const std::string& name, sim::Real mu) {
  sim::MaterialSpec m;
  m.name = name;
  m.friction = mu;
  spec.materials.push_back(m);
  return static_cast<int>(spec.materials.size()) - 1;
}

inline int add_body(sim::SceneSpec& spec, const std::string& name, const sim::Vec3& pos, sim::Real mass,
                    const sim::ShapeSpec& shape) {
  sim::BodySpec b;
  b.name = name;
  b.pose.pos = pos;
  b.mass = mass;
  b.shapes.push_back(shape);
  spec.bodies.push_back(b);
  return static_cast<int>(spec.bodies.size()) - 1;
}

// A pendulum: a body of mass m and `shape` hanging at distance L below `pivot` on a world hinge
// about y, released at angle theta0 from the vertical (rotated with its arm). Returns the body.
inline int add_hinged_pendulum(sim::SceneSpec& spec, const sim::Vec3& pivot, sim::Real L, sim::Real theta0,
                               sim::Real m, const sim::ShapeSpec& shape) {
  const int bob = add_body(spec, "bob", pivot - L * sim::Vec3(std::sin(theta0), 0, std::cos(theta0)), m, shape);
  spec.bodies[bob].pose.rot = sim::Quat(Eigen::AngleAxis<sim::Real>(theta0, sim::Vec3::UnitY()));
  sim::JointSpec j;
  j.type = sim::JointType::Revolute;
  j.body_a = -1;
  j.body_b = bob;
  j.frame_a.pos = pivot;
  j.frame_b.pos = sim::Vec3(0, 0, L);
  j.axis = sim::Vec3::UnitY();
  spec.joints.push_back(j);
  return bob;
}

// An n x n grid of particles in the plane z = corner.z from `corner`, `spacing` apart, of
// `total_mass` together: rigid edges (compliance 0), one diagonal per cell of compliance
// `diagonal_compliance` (both diagonals with `cross_diagonals`), and two cloth faces per cell.
inline void add_particle_grid(sim::SceneSpec& spec, const sim::Vec3& corner, int n, sim::Real spacing,
                              sim::Real total_mass, sim::Real radius, int material, sim::Real diagonal_compliance,
                              bool cross_diagonals) {
  const int first = static_cast<int>(spec.particles.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      sim::ParticleSpec p;
      p.position = corner + sim::Vec3(i * spacing, j * spacing, 0);
      p.mass = total_mass / (n * n);
      p.radius = radius;
      p.material = material;
      spec.particles.push_back(p);
    }
  auto id = [&](int i, int j) { return first + j * n + i; };
  auto link = [&](int a, int b, sim::Real compliance) {
    sim::DistanceSpec d;
    d.particle_a = a;
    d.particle_b = b;
    d.compliance = compliance;
    spec.distances.push_back(d);
  };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i + 1 < n) link(id(i, j), id(i + 1, j), 0);
      if (j + 1 < n) link(id(i, j), id(i, j + 1), 0);
      if (i + 1 < n && j + 1 < n) {
        link(id(i, j), id(i + 1, j + 1), diagonal_compliance);
        if (cross_diagonals) link(id(i + 1, j), id(i, j + 1), diagonal_compliance);
        spec.particle_triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
        spec.particle_triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
      }
    }
}

// A coarse particle sheet of our own (7 x 7 particles, 6 cm apart, 0.1 kg, rigid edges and
// compliant diagonals, two cloth faces per cell) held 3 cm over a thick-walled SDF bowl (radius
// 12 cm, wall 14 mm, height 7 cm) smaller than itself, off-centre, on a felt ground (μ 0.6), dt
// 10 ms: it drapes over the bowl's round rim, under the middle of faces. `face_contacts`: the
// faces' barycentric contacts against the field (SdfSpec::particle_faces), else particles only.
inline sim::SceneSpec particle_sheet_over_bowl(bool face_contacts) {
  const sim::Real bowl_radius = 0.12, wall = 0.014, bowl_height = 0.07, spacing = 0.06;
  const int n = 7;
  sim::SceneSpec spec;
  spec.dt = 0.01;
  spec.sdf.particle_faces = face_contacts;
  spec.solver.linear_iterations = 60;
  const int felt = test::add_material(spec, "felt", 0.6);
  spec.world_shapes.push_back(test::ground_plane(felt));
  spec.world_shapes.push_back(test::mesh_shape(sim::make_bowl_mesh(bowl_radius, wall, bowl_height, 32, 8), 0.002, felt));
  // Off-centre, so that no particle sits on the rim's circle by symmetry.
  const sim::Vec3 corner(-spacing * (n - 1) / 2 + 0.013, -spacing * (n - 1) / 2 + 0.021, bowl_height + 0.03);
  add_particle_grid(spec, corner, n, spacing, 0.1, 0.002, felt, 1e-3, false);
  return spec;
}

inline sim::Model compile(const sim::SceneSpec& spec) {
  auto m = sim::compile_model(spec);
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  return std::move(m.value());
}

// Runs `steps` steps and requires every step to succeed.
inline void run_steps(const sim::Model& model, sim::State& state, const sim::Control& control,
                      sim::Workspace& ws, int steps) {
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    INFO("step " << i << ": " << r.message);
    REQUIRE(r.ok());
  }
}

}  // namespace test
