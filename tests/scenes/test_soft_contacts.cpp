// Soft-body contacts (issue 14 item 4): point–triangle proximity between soft bodies and of a
// body with itself (collision/particle_triangle_contacts.hpp), soft faces against analytic rigid
// shapes (collision/particle_faces_sdf.cpp), friction on soft bodies. Physical oracles:
//   - a soft cube dropped on another rests stacked: no particle of one inside the other's tets,
//     and the contacts between them carry the top cube's weight (Σ λ_n = m g); at rest the step
//     allocates nothing;
//   - a soft U-shaped bar whose upper arm sags onto its lower arm does not pass through itself
//     with self collision (no particle inside a tet it is not a corner of), and does without;
//   - a rigid sphere, or a box coming down on an edge, on a coarse slab whose particles are 40 cm
//     apart stays out of the slab's top face (face contacts against the shape's own distance), and
//     sinks through it without;
//   - a rope (free particles) laid across a one-cell soft cube rests on its top face between the
//     cube's corners at the two radii, its weight carried by the point–triangle contacts (and the links'
//     contacts with the face's diagonal edge), and falls through the face without either;
//   - a two-particle rope link laid across the cube with its ends beyond it rests level on the
//     cube's top edges at the two radii, its weight carried by the link–edge contacts (its segment
//     a capsule against the edges), and falls past the cube without them;
//   - two one-cell soft cubes meeting edge on edge stay apart where their edges cross (the signed
//     distance between the edges' lines stays at the radii) with the edge–edge contacts, and pass
//     through each other without them;
//   - a soft block on an incline sticks below tan θ = μ and slides above it with the closed-form
//     acceleration g (sin θ − μ cos θ);
//   - the cost of contact generation on a 10k-tet body, with and without self contact (printed).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "collision/collide.hpp"
#include "collision/particle_edge_contacts.hpp"
#include "collision/particle_triangle_contacts.hpp"
#include "sim/scene_io.hpp"
#include "sim/soft_body.hpp"
#include "sim/step.hpp"
#include "support/crossed_cubes.hpp"
#include "support/point_triangle_distance.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kG = 9.81;

sim::SoftMaterialSpec material(Real e, Real nu, Real damping = 0.01) {
  sim::SoftMaterialSpec m;
  m.youngs_modulus = e;
  m.poisson_ratio = nu;
  m.density = 1000;
  m.damping = damping;
  return m;
}

// A scene at dt = 1/120 s (80 linear iterations) with a ground plane of a material of friction
// μ; returns the material.
int ground_scene(sim::SceneSpec& spec, const char* name, Real mu) {
  spec.dt = 1.0 / 120;
  spec.solver.linear_iterations = 80;
  const int mat = test::add_material(spec, name, mu);
  spec.world_shapes.push_back(test::ground_plane(mat));
  return mat;
}

int add_mesh(sim::SceneSpec& spec, const sim::TetMesh& mesh, const sim::SoftMaterialSpec& m, const sim::Pose& pose,
             int friction_material, Real radius, const char* name) {
  sim::SoftBodyPlacement place;
  place.pose = pose;
  place.material = friction_material;
  place.particle_radius = radius;
  std::string error;
  const int first = sim::add_soft_body(spec, mesh, m, place, name, error);
  INFO(error);
  REQUIRE(first >= 0);
  return first;
}

Vec3 position(const sim::Model& m, const sim::State& s, int p) {
  const Real* q = s.q.data() + m.particle_coord(p);
  return Vec3(q[0], q[1], q[2]);
}

Vec3 velocity(const sim::Model& m, const sim::State& s, int p) {
  const Real* u = s.u.data() + m.particle_dof(p);
  return Vec3(u[0], u[1], u[2]);
}

// Barycentric point-in-tet: the smallest of x's four barycentric coordinates in tet t (positive:
// strictly inside).
Real inside_tet(const sim::Model& m, const sim::State& s, int t, const Vec3& x) {
  Vec3 c[4];
  for (int k = 0; k < 4; ++k) c[k] = position(m, s, m.tet_particle[4 * t + k]);
  sim::Mat3 d;
  d << c[1] - c[0], c[2] - c[0], c[3] - c[0];
  const Vec3 b = d.inverse() * (x - c[0]);
  return std::min({Real(1) - b.sum(), b.x(), b.y(), b.z()});
}

// How deep particles of [first, last) lie inside tets of particles [tet_first, tet_last) that do
// not have them as a corner: the distance to the nearest boundary triangle of those tets' body,
// for particles inside one (0 if none is inside).
Real deepest_inside(const sim::Model& m, const sim::State& s, int first, int last, int tet_first, int tet_last,
                    int* inside_count = nullptr) {
  Real deepest = 0;
  int inside = 0;
  for (int p = first; p < last; ++p) {
    const Vec3 x = position(m, s, p);
    for (int t = 0; t < m.tet_count; ++t) {
      const int* k = &m.tet_particle[4 * t];
      if (k[0] < tet_first || k[0] >= tet_last || k[0] == p || k[1] == p || k[2] == p || k[3] == p) continue;
      if (!(inside_tet(m, s, t, x) > Real(1e-9))) continue;
      ++inside;
      Real depth = 1e30;
      for (const auto& f : m.particle_triangles)
        if (f[0] >= tet_first && f[0] < tet_last)
          depth = std::min(depth, test::point_triangle_distance(x, position(m, s, f[0]), position(m, s, f[1]),
                                                                position(m, s, f[2])));
      deepest = std::max(deepest, depth);
      break;
    }
  }
  if (inside_count) *inside_count = inside;
  return deepest;
}

Real mass_of(const sim::Model& m, int first, int last) {
  Real total = 0;
  for (int p = first; p < last; ++p) total += m.particle_inv_mass[p] > 0 ? 1 / m.particle_inv_mass[p] : 0;
  return total;
}

// One step that must succeed or at worst stop short of the Newton tolerance; true when converged.
bool advance(const sim::Model& m, sim::State& s, const sim::Control& control, sim::Workspace& ws, int i) {
  const sim::StepReport r = sim::step(m, s, control, ws);
  INFO("step " << i << ": " << r.message);
  REQUIRE(r.ok());  // kStepNotConverged is a warning bit (its value is kStepNonFinite as a flag)
  return r.ok();
}

// A particle of a contact side (a face's first corner), -1 for a shape or the world.
int side_particle(const sim::Model& m, const sim::ContactSide& side) {
  if (side.kind == sim::ContactSide::Particle) return side.index;
  if (side.kind == sim::ContactSide::ParticleFace) return m.particle_triangles[side.index][0];
  return -1;
}

}  // namespace

TEST_CASE("a soft cube dropped on another comes to rest stacked, its weight carried by the contacts",
          "[scene][fem][softcontact]") {
  sim::SceneSpec spec;
  const int rubber = ground_scene(spec, "rubber", 0.8);
  const Real radius = 0.004;
  sim::Pose low, high;
  low.pos = Vec3(0, 0, 0.1 + radius);
  high.pos = Vec3(0.013, -0.021, 0.2 + 0.06 + radius * 2 + 0.04);
  high.rot = sim::Quat(Eigen::AngleAxis<Real>(0.3, Vec3::UnitZ()));
  const int bottom = add_mesh(spec, sim::box_tet_mesh(Vec3(0.2, 0.2, 0.2), 3, 3, 3), material(1e5, 0.3), low, rubber,
                              radius, "bottom");
  const int top = add_mesh(spec, sim::box_tet_mesh(Vec3(0.12, 0.12, 0.12), 2, 2, 2), material(1e5, 0.3), high, rubber,
                           radius, "top");
  const sim::Model m = test::compile(spec);
  const int end = m.particle_count;
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  const int steps = 300, averaged = 60;
  Real carried = 0, speed = 0;
  int unconverged = 0;
  for (int i = 0; i < steps; ++i) {
    unconverged += advance(m, s, control, ws, i) ? 0 : 1;
    if (i < steps - averaged) continue;
    // Contacts between the two bodies: a top particle on a bottom face, a bottom particle on a top
    // face, or a top edge on a bottom edge (λ_n n acts on side a, −λ_n n on side b).
    for (int c = 0; c < ws.contacts.size(); ++c) {
      const sim::Contact& k = ws.contacts.contacts[c];
      const int pa = side_particle(m, k.a), pb = side_particle(m, k.b);
      if (pa < 0 || pb < 0) continue;
      const bool a_top = pa >= top, b_top = pb >= top;
      if (a_top != b_top) carried += ws.contact_normal_force[c] * k.normal.z() * (a_top ? 1 : -1);
    }
  }
  carried /= averaged;
  for (int p = 0; p < end; ++p) speed = std::max(speed, velocity(m, s, p).norm());
  const Real weight = mass_of(m, top, end) * kG;
  int inside = 0;
  const Real depth_top = deepest_inside(m, s, top, end, bottom, top, &inside);
  const Real depth_bottom = deepest_inside(m, s, bottom, top, top, end);
  Real top_low = 1e30, bottom_high = -1e30;
  for (int p = top; p < end; ++p) top_low = std::min(top_low, position(m, s, p).z());
  for (int p = bottom; p < top; ++p) bottom_high = std::max(bottom_high, position(m, s, p).z());
  std::printf("soft stack: weight %.4f N, carried %.4f N (%.2f%%), top's lowest particle %.4f m over the bottom's highest "
              "%.4f m, top particles inside the bottom %d (deepest %.2g m), fastest %.3g m/s, %d unconverged steps\n",
              weight, carried, 100 * (carried / weight - 1), top_low, bottom_high, inside, depth_top, speed, unconverged);
  CHECK(depth_top == 0);
  CHECK(depth_bottom == 0);
#ifdef __GLIBC__
  // At rest the contact set is steady: the proximity stage (hash, chunks, surfaces) allocates
  // nothing more.
  const auto before = mallinfo2();
  for (int i = 0; i < 30; ++i) sim::step(m, s, control, ws);
  const auto after = mallinfo2();
  CHECK(after.uordblks == before.uordblks);
  CHECK(after.hblkhd == before.hblkhd);
#endif
  CHECK(top_low > bottom_high - 0.01);  // stacked, not side by side
  CHECK(carried == Approx(weight).epsilon(0.03));
  CHECK(speed < 0.05);
}

namespace {

// A bar of thickness T, width W folded into a U (rest shape): a lower arm of length `arm` on the
// ground, a half-circle bend of mid radius (T + gap)/2, an upper arm over the lower one with
// `gap` between their inner surfaces. The bend map is orientation preserving (Jacobian r/R > 0).
sim::TetMesh folded_bar(Real arm, Real width, Real thick, Real gap, int nx, int ny, int nz) {
  const Real mid = (thick + gap) / 2, bend = M_PI * mid, length = 2 * arm + bend;
  sim::TetMesh mesh = sim::box_tet_mesh(Vec3(length, width, thick), nx, ny, nz);
  const Real cz = thick + gap / 2;
  for (Vec3& p : mesh.points) {
    const Real s = p.x() + length / 2, z = p.z() + thick / 2, r = cz - z;
    if (s <= arm) {
      p = Vec3(s, p.y(), z);
    } else if (s <= arm + bend) {
      const Real theta = (s - arm) / mid;
      p = Vec3(arm + r * std::sin(theta), p.y(), cz - r * std::cos(theta));
    } else {
      p = Vec3(arm - (s - arm - bend), p.y(), cz + r);
    }
  }
  mesh.surface.clear();  // recomputed by add_soft_body from the folded points
  return mesh;
}

struct FoldResult {
  int inside = 0;        // particles inside a tet they are not a corner of
  Real deepest = 0;      // the deepest of them below the body's surface [m]
  Real sag = 0;          // how far the upper arm's tip came down [m]
  int self_contacts = 0; // at the end: point–triangle contacts pressing (λ_n > 0)
};

// `through_xml`: self collision switched by the soft body's self_collision attribute, the scene
// written by the writer and read back (<softbody tets=... self_collision="true">), rather than
// by the collision scratch's particle ranges.
FoldResult fold(bool self_collision, bool through_xml = false) {
  sim::SceneSpec spec;
  const int felt = ground_scene(spec, "felt", 0.6);
  sim::Pose pose;
  pose.pos = Vec3(0, 0, 0.003);
  const Real arm = 0.3, thick = 0.03, gap = 0.015;
  const int first = add_mesh(spec, folded_bar(arm, 0.06, thick, gap, 40, 2, 2), material(2500, 0.3, 0.02), pose, felt,
                             0.003, "bar");
  const int count = static_cast<int>(spec.particles.size()) - first;
  if (through_xml) {
    spec.soft_bodies.back().self_collision = self_collision;
    const std::string text = sim::write_scene_xml(spec);
    CHECK((text.find("self_collision=\"true\"") != std::string::npos) == self_collision);
    auto back = sim::parse_scene_xml(text, "folded_bar.xml");
    INFO((back.ok() ? "" : back.error()));
    REQUIRE(back.ok());
    spec = std::move(*back);
  }
  const sim::Model m = test::compile(spec);
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  ws.collision = std::make_unique<sim::detail::CollisionScratch>();
  if (self_collision && !through_xml) ws.collision->self_collision.push_back({first, count});
  // The tip of the upper arm: the particle of largest rest height nearest x = 0.
  int tip = 0;
  for (int p = 0; p < m.particle_count; ++p) {
    const Vec3 x = position(m, s, p), t = position(m, s, tip);
    if (x.x() < t.x() - 1e-9 || (std::abs(x.x() - t.x()) <= 1e-9 && x.z() > t.z())) tip = p;
  }
  const Real tip_z = position(m, s, tip).z();
  FoldResult out;
  for (int i = 0; i < 180; ++i) advance(m, s, control, ws, i);
  out.deepest = deepest_inside(m, s, 0, m.particle_count, 0, m.particle_count, &out.inside);
  out.sag = tip_z - position(m, s, tip).z();
  for (int c = 0; c < ws.contacts.size(); ++c)
    out.self_contacts += ws.contacts.contacts[c].b.kind == sim::ContactSide::ParticleFace && ws.contact_normal_force[c] > 0;
  return out;
}

}  // namespace

namespace {

// Two one-cell soft cubes (0.1 m, 1 kg, E 1 MPa) meeting edge on edge in zero gravity, the upper
// one coming down at 0.5 m/s from 1 cm above (tests/support/crossed_cubes.hpp), for 0.25 s.
struct EdgeImpact {
  Real closest = 1e30;   // the least signed distance between the two edges' lines [m]
  Real momentum = 0;     // the largest |Σ m v − m v₀| over the run [kg m/s]
  Real rebound = 0;      // the vee's mean vertical velocity at the end [m/s]
  int edge_contacts = 0; // steps with an edge–edge contact
};

EdgeImpact edge_impact(bool edge_edge) {
  const Real radius = 0.002;
  const Vec3 v0(0, 0, -0.5);
  test::CrossedCubes setup = test::crossed_cubes(0.1, 0.01, radius, material(1e6, 0.3, 0.02), v0);
  setup.spec.solver.linear_iterations = 80;
  const sim::Model m = test::compile(setup.spec);
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  ws.collision = std::make_unique<sim::detail::CollisionScratch>();
  ws.collision->edge_edge = edge_edge;
  const Real total0 = (mass_of(m, setup.vee_first, m.particle_count) * v0).z();
  EdgeImpact out;
  for (int i = 0; i < 30; ++i) {
    advance(m, s, control, ws, i);
    out.closest = std::min(out.closest, test::signed_line_distance(position(m, s, setup.vee_edge[0]), position(m, s, setup.vee_edge[1]),
                                                                   position(m, s, setup.ridge[0]), position(m, s, setup.ridge[1]),
                                                                   Vec3::UnitZ()));
    Vec3 p = Vec3::Zero();
    for (int k = 0; k < m.particle_count; ++k) p += velocity(m, s, k) / m.particle_inv_mass[k];
    out.momentum = std::max(out.momentum, (p - Vec3(0, 0, total0)).norm());
    bool edge = false;
    for (const sim::Contact& c : ws.contacts.contacts)
      edge = edge || (c.a.kind == sim::ContactSide::ParticleFace && c.b.kind == sim::ContactSide::ParticleFace);
    out.edge_contacts += edge ? 1 : 0;
  }
  for (int k = setup.vee_first; k < m.particle_count; ++k) out.rebound += velocity(m, s, k).z();
  out.rebound /= m.particle_count - setup.vee_first;
  return out;
}

}  // namespace

// Without edge–edge contacts nothing stops the edges until a corner reaches a face 5 cm further on.
TEST_CASE("two coarse soft cubes meeting edge on edge stay apart where their edges cross", "[scene][fem][softcontact]") {
  const EdgeImpact with = edge_impact(true);
  const EdgeImpact without = edge_impact(false);
  std::printf("edge on edge at 0.5 m/s: with edge-edge contacts the edges' lines came within %.4f m (radii 0.004 m), "
              "%d steps in contact, momentum error %.2g kg m/s, the upper cube ends at %.3f m/s; without: %.4f m\n",
              with.closest, with.edge_contacts, with.momentum, with.rebound, without.closest);
  CHECK(with.closest > 0.004 - 0.001);  // held at the radii, less a millimetre
  CHECK(with.edge_contacts >= 3);
  CHECK(with.momentum < 1e-4);          // internal forces (Σ w = 1 on either side); to the solve's tolerance
  CHECK(with.rebound > -0.3);           // stopped (inelastic: the cubes share the momentum, −0.25 m/s)
  CHECK(without.closest < -0.02);       // passed through each other
}

TEST_CASE("self_collision=\"true\" in the scene XML keeps the folded bar out of itself, without it it sinks in",
          "[scene][fem][softcontact][io]") {
  const FoldResult with = fold(true, true);
  const FoldResult without = fold(false, true);
  std::printf("folded bar through the XML: self_collision=\"true\" %d particles inside (%d self contacts); absent: %d "
              "inside (deepest %.2g m)\n", with.inside, with.self_contacts, without.inside, without.deepest);
  CHECK(with.inside == 0);
  CHECK(with.self_contacts >= 5);
  CHECK(without.inside > 0);
  // Sunk in: the upper arm's tip came down past the 15 mm gap by more than a third of the 30 mm
  // arm. (The deepest particle's distance to the surface is not a measure here: the particles
  // that sink in are surface particles, 0 from their own faces.)
  CHECK(without.sag > 0.015 + 0.01);
}

TEST_CASE("a soft bar folded onto itself does not pass through itself with self collision", "[scene][fem][softcontact]") {
  const FoldResult with = fold(true);
  const FoldResult without = fold(false);
  std::printf("folded bar: with self collision %d particles inside the body (deepest %.2g m), tip sag %.4f m, %d self "
              "contacts; without: %d inside (deepest %.2g m), sag %.4f m\n",
              with.inside, with.deepest, with.sag, with.self_contacts, without.inside, without.deepest, without.sag);
  CHECK(with.inside == 0);
  CHECK(with.self_contacts >= 5);
  CHECK(with.sag > 0.005);       // the upper arm came down onto the lower one (gap 15 mm less 6 mm of radii)
  CHECK(without.inside > 0);     // the same bar without self collision sinks into itself
  CHECK(without.sag > 0.015 + 0.01);  // past the 15 mm gap by more than a third of the arm
}

namespace {

// A 2 kg rigid shape dropped onto the middle of a coarse soft slab (one cell: particles only at
// its corners, 40 cm apart) whose bottom is pinned: a sphere (radius 5 cm), or a box turned 45°
// about x so that an edge comes down. Returns how deep the slab's surface went into the shape over
// the run: the largest −φ of the shape's exact signed distance over points sampled densely on the
// slab's triangles [m] (negative: the closest approach stayed outside).
Real rigid_on_slab(bool face_contacts, bool box) {
  sim::SceneSpec spec;
  spec.sdf.particle_faces = face_contacts;
  const int rubber = ground_scene(spec, "rubber", 0.8);
  sim::Pose pose;
  pose.pos = Vec3(0, 0, 0.05);
  const int first = add_mesh(spec, sim::box_tet_mesh(Vec3(0.4, 0.4, 0.1), 1, 1, 1), material(1e5, 0.3), pose, rubber,
                             0.003, "slab");
  for (std::size_t p = first; p < spec.particles.size(); ++p)
    if (spec.particles[p].position.z() < 0.01) spec.particles[p].mass = 0;
  const Real r = 0.05;
  const Vec3 half(0.08, 0.04, 0.04);
  const sim::Quat turn(Eigen::AngleAxis<Real>(M_PI / 4, Vec3::UnitX()));
  const Real reach = box ? half.y() * std::sqrt(Real(2)) : r;  // centre to lowest point
  const int body = test::add_body(spec, "rigid", Vec3(0.031, -0.024, 0.1 + reach + 0.01), 2.0,
                                  box ? test::box_shape(half, rubber) : test::sphere_shape(r, rubber));
  if (box) spec.bodies[body].pose.rot = turn;
  const sim::Model m = test::compile(spec);
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  auto phi = [&](const Vec3& x) {
    const Real* q = s.q.data() + m.body_coord(body);
    const Vec3 c(q[0], q[1], q[2]);
    if (!box) return (x - c).norm() - r;
    const sim::Quat rot(q[3], q[4], q[5], q[6]);
    const Vec3 d = (rot.conjugate() * (x - c)).cwiseAbs() - half;
    return d.cwiseMax(0).norm() + std::min(d.maxCoeff(), Real(0));
  };
  Real deepest = -1e30;
  for (int i = 0; i < 120; ++i) {
    advance(m, s, control, ws, i);
    for (const auto& f : m.particle_triangles) {
      const Vec3 a = position(m, s, f[0]), b = position(m, s, f[1]), c = position(m, s, f[2]);
      const int n = 40;
      for (int u = 0; u <= n; ++u)
        for (int v = 0; u + v <= n; ++v) deepest = std::max(deepest, -phi(a + (b - a) * (Real(u) / n) + (c - a) * (Real(v) / n)));
    }
  }
  return deepest;
}

}  // namespace

TEST_CASE("a rigid sphere or box edge on a coarse soft slab stays out of the face between its particles",
          "[scene][fem][softcontact]") {
  for (bool box : {false, true}) {
    const Real with = rigid_on_slab(true, box);
    const Real without = rigid_on_slab(false, box);
    std::printf("%s on a one-cell slab (particles 40 cm apart): deepest point of the slab's surface in it %.4g m with "
                "face contacts, %.4g m without\n",
                box ? "box edge" : "sphere", with, without);
    CHECK(with < 0.001);
    CHECK(without > 0.02);
  }
}

namespace {

// A rope of free particles (radius 1 cm, 20 g each, rigid distance rows between neighbours) laid
// along `along` through (0.01, 0.02) at its middle, 3 cm above the top face of a one-cell soft cube
// (30 cm, particles of radius 4 mm at its corners only), `count` particles `spacing` apart, falling
// under gravity for 1 s; with or without the free particles as points against the triangles and
// their links against the edges (CollisionScratch::free_particle_points, segments).
struct RopeOnCube {
  Real gap_error = 0;    // largest |distance of a rope particle over the cube's footprint to its surface − radii|
  Real lowest = 0;       // the lowest rope particle's height over the cube's top face (its corners' mean height) [m]
  Real highest = 0;      // and the highest's [m]
  Real carried = 0;      // the rope's contacts with faces and edges: vertical force over the last 30 steps [N]
  Real weight = 0;       // the rope's weight [N]
};

RopeOnCube rope_on_cube(int count, Real spacing, const Vec3& along, bool contacts_on) {
  sim::SceneSpec spec;
  const int mat = ground_scene(spec, "rubber", 0.8);
  const Real size = 0.3, cube_radius = 0.004, rope_radius = 0.01;
  sim::Pose pose;
  pose.pos = Vec3(0, 0, size / 2 + cube_radius);
  const int cube = add_mesh(spec, sim::box_tet_mesh(Vec3::Constant(size), 1, 1, 1), material(1e6, 0.3), pose, mat,
                            cube_radius, "cube");
  const int rope = static_cast<int>(spec.particles.size());
  for (int k = 0; k < count; ++k) {
    sim::ParticleSpec p;
    p.position = Vec3(0.01, 0.02, size + cube_radius + rope_radius + 0.03) + (k - (count - 1) / Real(2)) * spacing * along;
    p.radius = rope_radius;
    p.mass = 0.02;
    p.material = mat;
    spec.particles.push_back(p);
    if (k == 0) continue;
    sim::DistanceSpec d;
    d.particle_a = rope + k - 1;
    d.particle_b = rope + k;
    spec.distances.push_back(d);
  }
  const sim::Model m = test::compile(spec);
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  ws.collision = std::make_unique<sim::detail::CollisionScratch>();
  ws.collision->free_particle_points = contacts_on;
  ws.collision->segments = contacts_on;
  RopeOnCube out;
  const int steps = 120, averaged = 30;
  for (int i = 0; i < steps; ++i) {
    advance(m, s, control, ws, i);
    if (i < steps - averaged) continue;
    for (int c = 0; c < ws.contacts.size(); ++c) {  // the force on the rope's side: +n on side a, −n on side b
      const sim::Contact& k = ws.contacts.contacts[c];
      if (k.a.kind == sim::ContactSide::Particle && k.a.index >= rope && k.b.kind == sim::ContactSide::ParticleFace)
        out.carried += ws.contact_normal_force[c] * k.normal.z() / averaged;
      if (k.b.kind == sim::ContactSide::ParticleSegment) out.carried -= ws.contact_normal_force[c] * k.normal.z() / averaged;
    }
  }
  out.weight = mass_of(m, rope, m.particle_count) * kG;
  Real top = 0;
  int top_count = 0;
  for (int p = cube; p < rope; ++p)
    if (position(m, s, p).z() > size / 2) top += position(m, s, p).z(), ++top_count;
  top /= top_count;
  out.lowest = 1e30;
  out.highest = -1e30;
  for (int p = rope; p < m.particle_count; ++p) {
    const Vec3 x = position(m, s, p);
    out.lowest = std::min(out.lowest, x.z() - top);
    out.highest = std::max(out.highest, x.z() - top);
    if (std::max(std::abs(x.x()), std::abs(x.y())) > size / 2) continue;  // beyond the cube
    Real distance = 1e30;
    for (const auto& f : m.particle_triangles)
      distance = std::min(distance, test::point_triangle_distance(x, position(m, s, f[0]), position(m, s, f[1]),
                                                                  position(m, s, f[2])));
    out.gap_error = std::max(out.gap_error, std::abs(distance - (rope_radius + cube_radius)));
  }
  return out;
}

}  // namespace

// Particles do not collide with particles, so nothing but the cube's faces can hold a rope whose
// particles all lie between the cube's corners: six particles 3 cm apart across the face's
// diagonal.
TEST_CASE("a rope laid across a coarse soft cube rests on its face between the cube's particles", "[scene][fem][softcontact]") {
  const Vec3 along = Vec3(1, 0.4, 0).normalized();
  const RopeOnCube with = rope_on_cube(6, 0.03, along, true);
  const RopeOnCube without = rope_on_cube(6, 0.03, along, false);
  std::printf("rope on a one-cell cube: with free particles against the faces the rope lies %.4f m over the top face "
              "(radii 0.014 m; gap error %.2g m), carried %.4f N of %.4f N (%.2f%%); without: %.4f m\n",
              with.lowest, with.gap_error, with.carried, with.weight, 100 * (with.carried / with.weight - 1), without.lowest);
  CHECK(with.gap_error < 0.0005);  // resting on the face at the two radii
  CHECK(with.lowest > 0.014 - 0.001);
  CHECK(with.carried == Approx(with.weight).epsilon(0.02));
  CHECK(without.lowest < -0.2);  // fell through the face to the ground, inside the cube
}

// A rope's particles on either side of a soft body: only its link, as a capsule against the
// body's edges, can hold it up. Two particles 50 cm apart, their link across the 30 cm cube.
TEST_CASE("a rope link laid across a coarse soft cube rests on its edges, its ends beyond the cube", "[scene][fem][softcontact]") {
  const Vec3 along = Vec3(1, 0.3, 0).normalized();
  const RopeOnCube with = rope_on_cube(2, 0.5, along, true);
  const RopeOnCube without = rope_on_cube(2, 0.5, along, false);
  std::printf("rope link across a one-cell cube: with segments against the edges its ends lie %.4f..%.4f m over the top "
              "face (radii 0.014 m), carried %.4f N of %.4f N (%.2f%%); without: %.4f m\n",
              with.lowest, with.highest, with.carried, with.weight, 100 * (with.carried / with.weight - 1), without.lowest);
  CHECK(with.lowest == Approx(0.014).margin(0.001));  // level, on the top edges at the two radii
  CHECK(with.highest == Approx(0.014).margin(0.001));
  CHECK(with.carried == Approx(with.weight).epsilon(0.02));
  CHECK(without.lowest < -0.25);  // fell past the cube to the ground
}

namespace {

// A 1 kg soft block (10 cm, stiff, undamped: with the tets' stiffness-proportional damping at
// β = 5 ms the sliding block decelerates, a = 0.62 instead of 1.61 m/s², though its contact
// forces are exactly m g cos θ and μ m g cos θ; reported, fem/ is not this file's subject) resting
// on a plane tilted by θ, μ = 0.5 on both; returns the
// acceleration of its centre of mass along the slope (down positive), measured from the mean
// velocity over [0.4, 0.5] s and [1.1, 1.2] s, and its displacement over the run.
struct Slope {
  Real acceleration = 0, displacement = 0;
};

Slope block_on_incline(Real theta) {
  sim::SceneSpec spec;
  spec.dt = 1.0 / 120;
  spec.solver.linear_iterations = 80;
  const Real mu = 0.5;
  const int mat = test::add_material(spec, "mat", mu);
  sim::ShapeSpec plane = test::ground_plane(mat);
  const sim::Quat tilt(Eigen::AngleAxis<Real>(theta, Vec3::UnitY()));
  plane.local.rot = tilt;
  spec.world_shapes.push_back(plane);
  const Real radius = 0.003;
  sim::Pose pose;
  pose.rot = tilt;
  pose.pos = tilt * Vec3(0, 0, 0.05 + radius);
  add_mesh(spec, sim::box_tet_mesh(Vec3(0.1, 0.1, 0.1), 2, 2, 2), material(1e6, 0.3, 0), pose, mat, radius, "block");
  const sim::Model m = test::compile(spec);
  sim::State s = sim::make_initial_state(m);
  const sim::Control control = sim::make_initial_control(m);
  sim::Workspace ws;
  const Vec3 down = tilt * Vec3(1, 0, 0);  // rotating about +y by θ tilts +x downwards
  auto com = [&](bool vel) {
    Vec3 sum = Vec3::Zero();
    Real mass = 0;
    for (int p = 0; p < m.particle_count; ++p) {
      const Real w = 1 / m.particle_inv_mass[p];
      sum += w * (vel ? velocity(m, s, p) : position(m, s, p));
      mass += w;
    }
    return Vec3(sum / mass);
  };
  const Vec3 start = com(false);
  Real v1 = 0, v2 = 0;
  for (int i = 1; i <= 144; ++i) {
    advance(m, s, control, ws, i);
    if (i > 48 && i <= 60) v1 += com(true).dot(down) / 12;
    if (i > 132 && i <= 144) v2 += com(true).dot(down) / 12;
  }
  Slope out;
  out.acceleration = (v2 - v1) / (84 * spec.dt);
  out.displacement = (com(false) - start).dot(down);
  return out;
}

}  // namespace

TEST_CASE("a soft block on an incline sticks below tan θ = μ and slides with g (sin θ − μ cos θ) above",
          "[scene][fem][friction][softcontact]") {
  const Real stick = std::atan(0.4), slide = std::atan(0.7);
  const Slope held = block_on_incline(stick);
  const Slope slid = block_on_incline(slide);
  const Real expected = kG * (std::sin(slide) - 0.5 * std::cos(slide));
  std::printf("soft block on an incline (mu 0.5): tan 0.4 moved %.3g m (a %.3g m/s^2); tan 0.7 a %.4f m/s^2 against "
              "%.4f (%.2f%%)\n",
              held.displacement, held.acceleration, slid.acceleration, expected, 100 * (slid.acceleration / expected - 1));
  CHECK(std::abs(held.displacement) < 1e-3);
  CHECK(slid.acceleration == Approx(expected).epsilon(0.03));
}

TEST_CASE("bench: contact generation on a 10k-tet soft body with and without self contact", "[bench][softcontact]") {
  for (bool self : {false, true}) {
    sim::SceneSpec spec;
    const int rubber = ground_scene(spec, "rubber", 0.8);
    sim::Pose pose;
    pose.pos = Vec3(0, 0, 0.5);
    const int first = add_mesh(spec, sim::box_tet_mesh(Vec3(0.6, 0.6, 0.6), 12, 12, 12), material(1e5, 0.3), pose, rubber,
                               0.004, "block");
    const int count = static_cast<int>(spec.particles.size()) - first;
    const sim::Model m = test::compile(spec);
    const sim::State s = sim::make_initial_state(m);
    sim::detail::CollisionScratch scratch;
    if (self) scratch.self_collision.push_back({first, count});
    sim::ContactBuffer out;
    sim::generate_contacts(m, s, spec.dt, 0.01, scratch, out);  // warm-up
    const int reps = 20;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) sim::generate_contacts(m, s, spec.dt, 0.01, scratch, out);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
    // The point–triangle stage alone (the objects placed by the last call).
    sim::ContactBuffer proximity;
    const auto t1 = std::chrono::steady_clock::now();
    const std::clock_t c1 = std::clock();
    for (int i = 0; i < reps; ++i) {
      proximity.clear();
      sim::detail::append_particle_triangle_contacts(m, spec.dt, 0.01, scratch, proximity);
    }
    const double stage = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count() / reps;
    const double stage_cpu = 1000.0 * double(std::clock() - c1) / CLOCKS_PER_SEC / reps;  // serial below 2048 particles
    // The edge–edge stage alone (its surfaces brought up to date by the calls above).
    const std::clock_t c2 = std::clock();
    for (int i = 0; i < reps; ++i) {
      proximity.clear();
      sim::detail::append_edge_edge_contacts(m, spec.dt, 0.01, scratch, proximity);
    }
    const double edge_cpu = 1000.0 * double(std::clock() - c2) / CLOCKS_PER_SEC / reps;
    std::printf("bench: %d tets, %zu surface triangles, %zu edges, %d particles: contact generation %.3f ms per step %s "
                "self contact, of which point-triangle proximity %.3f ms (%.3f ms CPU), edge-edge %.3f ms CPU; %d "
                "contacts\n",
                m.tet_count, m.particle_triangles.size(), m.particle_edge_key.size(), m.particle_count, ms,
                self ? "with" : "without", stage, stage_cpu, edge_cpu, out.size());
    CHECK(out.size() == 0);  // a body in the air, at rest: nothing touches
  }
}
