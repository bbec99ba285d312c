// SDF contact scenes (thesis ch. 6, Fig. 38): elongated boxes crossed edge on edge, a cloth
// dropped on a sharp cone, a sphere held by a non-convex bowl, a mesh box on the ground. Each
// checks penetration against an independent closed-form distance, and the first two also run
// with vertex (point) sampling only, which the thesis shows failing.
#include <catch2/catch.hpp>

#include "support/point_triangle_distance.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sdf/analytic_sdf.hpp"
#include "sim/sdf.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kPi = std::numbers::pi_v<Real>;

// ---- crossed boxes --------------------------------------------------------------------------

// Box A (fixed) long along x, turned 45° about x so an edge is on top; box B long along y, turned
// 45° about y so an edge is at the bottom, resting crossed on A. Only the edges touch, at one
// point: no vertex of either box is near the other. Returns the deepest penetration of B into A
// over the run [m] (exact box distance sampled along B's edges) and B's final drop.
struct CrossedResult {
  Real penetration = 0;
  Real drop = 0;
};

CrossedResult crossed_boxes(const sim::SdfContactOptions& options, int steps) {
  const Vec3 half_a(0.3, 0.04, 0.04), half_b(0.04, 0.3, 0.04);
  const Real edge = 0.04 * std::sqrt(Real(2));  // centre to edge after the 45° turn
  sim::SceneSpec spec;
  spec.sdf = options;
  sim::BodySpec a;
  a.name = "a";
  a.fixed = true;
  a.pose.pos = Vec3(0, 0, 0.5);
  a.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(kPi / 4, Vec3::UnitX()));
  a.shapes.push_back(test::mesh_shape(sim::make_box_mesh(half_a), 0.0025));
  sim::BodySpec b;
  b.name = "b";
  b.mass = 1;
  b.pose.pos = Vec3(0, 0, 0.5 + 2 * edge + 0.001);
  b.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(kPi / 4, Vec3::UnitY()));
  b.shapes.push_back(test::mesh_shape(sim::make_box_mesh(half_b), 0.0025));
  spec.bodies = {a, b};
  const sim::Model model = test::compile(spec);
  REQUIRE(model.meshes.size() == 2u);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  const sim::detail::BoxSdf exact{half_a};
  const sim::Pose pose_a = state.body_pose(0) * model.body_frame_in_com[0].inverse();
  const Real z0 = state.body_position(1).z();
  CrossedResult out;
  const auto& box_b = sim::make_box_mesh(half_b);
  for (int i = 0; i < steps; ++i) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    REQUIRE(r.ok());
    // B's surface: its 12 box edges sampled densely (the deepest point of a box in a box lies on
    // an edge or a vertex).
    const sim::Pose pose_b = state.body_pose(1) * model.body_frame_in_com[1].inverse();
    for (int e0 = 0; e0 < 8; ++e0)
      for (int bit = 1; bit < 8; bit <<= 1) {
        const int e1 = e0 | bit;
        if (e1 == e0) continue;
        for (int k = 0; k <= 200; ++k) {
          const Vec3 p = pose_b.apply(box_b.vertices[e0] + (box_b.vertices[e1] - box_b.vertices[e0]) * (Real(k) / 200));
          out.penetration = std::max(out.penetration, -exact.eval(pose_a.apply_inverse(p), nullptr));
        }
      }
  }
  out.drop = z0 - state.body_position(1).z();
  return out;
}

// ---- cloth on a cone ------------------------------------------------------------------------

// Exact signed distance to the solid cone (base disc at z = 0, radius R, apex at z = H): the 2D
// distance in the (r, z) half-plane to the base and side segments, negative inside.
Real cone_distance(const Vec3& p, Real radius, Real height) {
  const sim::Vec2 q(std::hypot(p.x(), p.y()), p.z());
  auto segment = [&](const sim::Vec2& a, const sim::Vec2& b) {
    const sim::Vec2 d = b - a;
    const Real t = std::clamp((q - a).dot(d) / d.squaredNorm(), Real(0), Real(1));
    return (q - a - t * d).norm();
  };
  const Real d = std::min(segment({0, 0}, {radius, 0}), segment({radius, 0}, {0, height}));
  const bool inside = q.y() >= 0 && q.y() <= height && q.x() <= radius * (1 - q.y() / height);
  return inside ? -d : d;
}

struct ClothResult {
  Real face_penetration = 0;      // deepest point of any cloth face inside the cone [m]
  Real apex_face_penetration = 0; // the same over the cone's top 3 cm (where the apex meets faces) [m]
  Real particle_penetration = 0;  // deepest particle (its centre) inside the cone [m]
  int contacts = 0;
};

ClothResult cloth_on_cone(const sim::SdfContactOptions& options, int steps) {
  const Real radius = 0.1, height = 0.25;
  const int n = 15;
  const Real spacing = 0.03;
  sim::SceneSpec spec;
  spec.sdf = options;
  spec.solver.linear_iterations = 60;
  sim::MaterialSpec fabric;
  fabric.name = "fabric";
  fabric.friction = 0.5;
  spec.materials.push_back(fabric);
  spec.world_shapes.push_back(test::ground_plane(0));
  spec.world_shapes.push_back(test::mesh_shape(sim::make_cone_mesh(radius, height, 48), 0.002, 0));
  // The apex sits inside a cell (off every particle and edge), 2 cm under the sheet.
  const Vec3 corner(-spacing * (n - 1) / 2 + 0.007, -spacing * (n - 1) / 2 + 0.011, height + 0.02);
  test::add_particle_grid(spec, corner, n, spacing, 0.2, 0.003, 0, 1e-4, true);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  ClothResult out;
  auto x = [&](int p) {
    const int c = model.particle_coord(p);
    return Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
  };
  for (int s = 0; s < steps; ++s) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    INFO("step " << s << ": " << r.message);
    REQUIRE(r.ok());
    out.contacts = ws.contacts.size();
    for (int p = 0; p < model.particle_count; ++p)
      out.particle_penetration = std::max(out.particle_penetration, -cone_distance(x(p), radius, height));
    // Dense samples over every face (the thesis's measure: min of φ over each face).
    for (const auto& t : model.particle_triangles) {
      const Vec3 a = x(t[0]), b = x(t[1]), c = x(t[2]);
      const int m = 24;
      for (int i = 0; i <= m; ++i)
        for (int j = 0; i + j <= m; ++j) {
          const Vec3 p = a + (b - a) * (Real(i) / m) + (c - a) * (Real(j) / m);
          const Real depth = -cone_distance(p, radius, height);
          out.face_penetration = std::max(out.face_penetration, depth);
          if (p.z() > height - 0.03) out.apex_face_penetration = std::max(out.apex_face_penetration, depth);
        }
    }
  }
  return out;
}


}  // namespace

TEST_CASE("crossed elongated boxes rest edge on edge, vertex sampling alone falls through", "[scene][sdf]") {
  sim::SdfContactOptions full;  // vertices + golden-section edges + PGD faces
  const CrossedResult with_edges = crossed_boxes(full, 60);
  INFO("edges: penetration " << with_edges.penetration << " m, drop " << with_edges.drop << " m");
  CHECK(with_edges.penetration < 0.002);
  CHECK(std::abs(with_edges.drop) < 0.005);

  sim::SdfContactOptions vertices_only;
  vertices_only.edges = false;
  vertices_only.faces = sim::SdfFaceMethod::None;
  const CrossedResult sampled = crossed_boxes(vertices_only, 60);
  INFO("vertices only: penetration " << sampled.penetration << " m, drop " << sampled.drop << " m");
  CHECK(sampled.penetration > 0.03);
  CHECK(sampled.drop > 0.5);
}

TEST_CASE("a cloth dropped on a sharp cone does not let the apex through its faces", "[scene][sdf]") {
  // Face contacts are one barycentric row per face (constraint/particle_face_contact.hpp): the
  // apex holds the face point above it. Where the draped edges whip onto the cone's lower side
  // (3 m/s at step 32, the Newton cap of 16 reached) faces and particles dip in transiently by a
  // few mm (measured 4.2 mm faces / 3.1 mm particles with PGD, 9.9 mm faces with Frank-Wolfe):
  // bounded here, and the apex claim is measured over the cone's top 3 cm.
  sim::SdfContactOptions faces;  // PGD face optimisation of the cloth triangles
  const ClothResult with_faces = cloth_on_cone(faces, 60);
  INFO("faces (PGD): apex face penetration " << with_faces.apex_face_penetration << " m, anywhere "
                                              << with_faces.face_penetration << " m, particles "
                                              << with_faces.particle_penetration << " m, " << with_faces.contacts
                                              << " contacts");
  CHECK(with_faces.apex_face_penetration < 0.002);
  CHECK(with_faces.face_penetration < 0.008);
  CHECK(with_faces.particle_penetration < 0.005);

  sim::SdfContactOptions fw = faces;
  fw.faces = sim::SdfFaceMethod::FrankWolfe;
  const ClothResult frank_wolfe = cloth_on_cone(fw, 60);
  INFO("faces (Frank-Wolfe): apex face penetration " << frank_wolfe.apex_face_penetration << " m, anywhere "
                                                      << frank_wolfe.face_penetration << " m");
  CHECK(frank_wolfe.apex_face_penetration < 0.003);
  CHECK(frank_wolfe.face_penetration < 0.015);

  sim::SdfContactOptions points = faces;
  points.particle_faces = false;  // particles (vertices) against the cone only
  const ClothResult sampled = cloth_on_cone(points, 60);
  INFO("particles only: apex face penetration " << sampled.apex_face_penetration << " m, particles "
                                                << sampled.particle_penetration << " m");
  CHECK(sampled.apex_face_penetration > 0.005);  // measured 8.7 mm: the apex through a face
  CHECK(sampled.particle_penetration < 0.001);  // the particles themselves never go in
}

TEST_CASE("a non-convex bowl holds a small sphere sliding inside it", "[scene][sdf]") {
  // Frictionless: the ball slides round the bowl and energy can only go down (with friction a
  // rolling sphere currently gains energy on any surface, the plane included: a solver issue
  // outside the SDF path, reported separately).
  const Real bowl_radius = 0.12, wall = 0.012, bowl_height = 0.08, r = 0.02;
  sim::SceneSpec spec;
  const int ice = test::add_material(spec, "ice", 0);
  spec.world_shapes.push_back(test::ground_plane(ice));
  spec.world_shapes.push_back(test::mesh_shape(sim::make_bowl_mesh(bowl_radius, wall, bowl_height, 32, 8), 0, ice));
  sim::BodySpec ball;
  ball.name = "ball";
  ball.pose.pos = Vec3(0.03, 0, 0.12);
  ball.linear_velocity = Vec3(0.4, 0.2, 0);
  ball.shapes.push_back(test::sphere_shape(r, ice));
  ball.mass = 0.05;
  spec.bodies.push_back(ball);
  const sim::Model model = test::compile(spec);
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  // The ball's centre must stay at least r from every triangle of the bowl (exact point-triangle
  // distance), inside the inner radius and above the inner bottom.
  const sim::TriangleMesh& bowl = model.meshes.at(0)->mesh;
  auto distance_to_bowl = [&](const Vec3& p) {
    Real best = 1e30;
    for (const auto& t : bowl.triangles)
      best = std::min(best, test::point_triangle_distance(p, bowl.vertices[t[0]], bowl.vertices[t[1]], bowl.vertices[t[2]]));
    return best;
  };
  Real worst = 1, max_radius = 0, min_z = 1, energy_after_landing = 0, max_energy = 0;
  for (int i = 0; i < 240; ++i) {
    REQUIRE(sim::step(model, state, control, ws).ok());
    const Vec3 c = state.body_position(0);
    worst = std::min(worst, distance_to_bowl(c) - r);
    max_radius = std::max(max_radius, std::hypot(c.x(), c.y()));
    min_z = std::min(min_z, c.z());
    const Real energy = Real(0.5) * state.body_velocity(0).squaredNorm() + Real(9.81) * c.z();  // per kg
    if (i == 20) energy_after_landing = energy;
    if (i > 20) max_energy = std::max(max_energy, energy);
  }
  const Vec3 c = state.body_position(0);
  INFO("deepest " << -worst << " m, widest " << max_radius << " m, lowest " << min_z << " m, end " << c.transpose()
                  << ", energy " << energy_after_landing << " then at most " << max_energy << " J/kg");
  CHECK(max_energy < 1.01 * energy_after_landing);
  CHECK(worst > -0.002);                           // never into the wall
  CHECK(max_radius < bowl_radius - wall - r + 0.002);  // never out over the rim
  CHECK(min_z > wall + r - 0.002);                 // never through the bottom
  CHECK(c.z() < bowl_height);                      // still in the bowl at the end
}

TEST_CASE("a mesh box falls onto the ground and rests at its half height", "[scene][sdf]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::ground_plane());
  sim::BodySpec box;
  box.name = "box";
  box.pose.pos = Vec3(0, 0, 0.3);
  box.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(0.15, Vec3(1, 1, 0).normalized()));
  box.shapes.push_back(test::mesh_shape(sim::make_box_mesh(Vec3(0.1, 0.08, 0.05)), 0));
  box.mass = 1;
  spec.bodies.push_back(box);
  const sim::Model model = test::compile(spec);
  CHECK(model.body_inv_mass[0] == Approx(1));
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  test::run_steps(model, state, control, ws, 240);
  const sim::Pose p = state.body_pose(0) * model.body_frame_in_com[0].inverse();
  INFO("rests at " << p.pos.transpose() << ", " << ws.contacts.size() << " contacts");
  CHECK(p.pos.z() == Approx(0.05).margin(0.002));
  CHECK(state.body_velocity(0).norm() < 0.01);
}
