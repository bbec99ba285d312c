// SDF contact generation (collision/narrowphase_sdf.cpp, particle_faces_sdf.cpp) through
// generate_contacts(): gaps and normals against closed forms, edge-edge contacts that vertex
// sampling misses, cloth face contacts over a sharp apex, primitives against meshes, stable keys.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "collision/collide.hpp"
#include "sim/compile.hpp"
#include "sim/sdf.hpp"
#include "sim/state.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

constexpr Real kPi = std::numbers::pi_v<Real>;

sim::ContactBuffer contacts_of(const sim::Model& model, sim::detail::CollisionScratch& scratch) {
  const sim::State state = sim::make_initial_state(model);
  sim::ContactBuffer out;
  sim::generate_contacts(model, state, model.dt, model.solver.contact_margin, scratch, out);
  return out;
}

sim::ParticleSpec particle(const Vec3& p, Real radius = 0.001) {
  sim::ParticleSpec s;
  s.position = p;
  s.radius = radius;
  s.mass = 0.01;
  return s;
}

// A fixed box A (long in x, edge up) and a free box B (long in y, edge down) crossed with a
// 1 mm gap between the edges (the Fig. 38c configuration).
sim::SceneSpec crossed_boxes(const sim::SdfContactOptions& options) {
  const Real edge = 0.04 * std::sqrt(Real(2));
  sim::SceneSpec spec;
  spec.sdf = options;
  sim::BodySpec a, b;
  a.name = "a";
  a.fixed = true;
  a.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(kPi / 4, Vec3::UnitX()));
  a.shapes.push_back(test::mesh_shape(sim::make_box_mesh(Vec3(0.3, 0.04, 0.04)), 0.0025));
  b.name = "b";
  b.mass = 1;
  b.pose.pos = Vec3(0.01, -0.02, 2 * edge + 0.001);
  b.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(kPi / 4, Vec3::UnitY()));
  b.shapes.push_back(test::mesh_shape(sim::make_box_mesh(Vec3(0.04, 0.3, 0.04)), 0.0025));
  spec.bodies = {a, b};
  return spec;
}

}  // namespace

TEST_CASE("a particle near a mesh gets the exact gap and normal of its surface", "[unit][sdf]") {
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::mesh_shape(sim::make_sphere_mesh(0.5, 4), 0.01));
  const Vec3 dir = Vec3(1, 2, 3).normalized();
  spec.particles = {particle(0.506 * dir), particle(0.7 * dir), particle(0.3 * dir)};
  const sim::Model model = test::compile(spec);
  sim::detail::CollisionScratch scratch;
  const sim::ContactBuffer out = contacts_of(model, scratch);
  REQUIRE(out.size() == 2);  // the far particle has none; the one inside has one
  for (const sim::Contact& c : out.contacts) {
    CHECK(c.a.kind == sim::ContactSide::Particle);
    CHECK(c.b.kind == sim::ContactSide::World);
    CHECK(c.normal.dot(dir) > 0.995);
    CHECK(std::abs(c.normal.norm() - 1) < 1e-9);
    const Real expected = c.a.index == 0 ? 0.006 - 0.001 : -0.2 - 0.001;
    CHECK(c.initial_gap == Approx(expected).margin(0.005));  // half a voxel
    CHECK(c.b.local_point.norm() == Approx(0.5).margin(0.005));  // on the surface
  }
}

TEST_CASE("crossed box edges get a contact from the edge search, vertex sampling finds none", "[unit][sdf]") {
  sim::SdfContactOptions full;
  const sim::Model model = test::compile(crossed_boxes(full));
  sim::detail::CollisionScratch scratch;
  const sim::ContactBuffer out = contacts_of(model, scratch);
  REQUIRE(out.size() >= 1);
  for (const sim::Contact& c : out.contacts) {
    INFO("gap " << c.initial_gap << ", normal " << c.normal.transpose());
    CHECK(c.initial_gap == Approx(0.001).margin(0.0015));
    CHECK(c.normal.z() > 0.98);  // from A (side b, fixed) up to B (side a)
    CHECK(c.a.kind == sim::ContactSide::Body);
    CHECK(c.a.index == 1);
  }
  CHECK(out.size() <= 2);  // the crossing, seen from both sides, merged
  CHECK(scratch.sdf.stats.features_culled > 0);

  sim::SdfContactOptions vertices_only;
  vertices_only.edges = false;
  vertices_only.faces = sim::SdfFaceMethod::None;
  const sim::Model sampled = test::compile(crossed_boxes(vertices_only));
  sim::detail::CollisionScratch scratch2;
  CHECK(contacts_of(sampled, scratch2).size() == 0);

  // Faces alone (PGD or Frank-Wolfe, no edge search) are no substitute here: over each long face
  // the field is a sharp V-shaped valley (the distance to B's edge), where descent zig-zags and
  // 32 (or 256) iterations stop centimetres short. That is the thesis's own finding for elongated
  // boxes (§6.4.2), and why rigid meshes get vertex tests plus golden-section search on edges.
}

TEST_CASE("a cloth face over a sharp apex gets one barycentric contact, its particles alone get none", "[unit][sdf]") {
  const Real height = 0.25;
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::mesh_shape(sim::make_cone_mesh(0.1, height, 48), 0.002));
  // A triangle 5 mm above the apex, its corners 6 cm away sideways (far outside the cone).
  const Vec3 corners[3] = {Vec3(-0.06, -0.05, height + 0.005), Vec3(0.07, -0.04, height + 0.005),
                           Vec3(-0.01, 0.08, height + 0.005)};
  spec.particles = {particle(corners[0]), particle(corners[1]), particle(corners[2])};
  spec.particle_triangles = {{0, 1, 2}};
  const sim::Model model = test::compile(spec);
  sim::detail::CollisionScratch scratch;
  const sim::ContactBuffer out = contacts_of(model, scratch);
  REQUIRE(out.size() == 1);
  const sim::Contact& c = out.contacts[0];
  INFO("gap " << c.initial_gap << ", normal " << c.normal.transpose() << ", weights " << c.a.local_point.transpose());
  CHECK(c.a.kind == sim::ContactSide::ParticleFace);
  CHECK(c.a.index == 0);
  CHECK(c.normal.z() > 0.9);
  CHECK(c.initial_gap == Approx(0.005 - 0.001).margin(0.002));  // the apex is blunted by < a voxel
  // The face point Σ w_k x_k lies over the apex (x, y within a voxel or two), strictly inside.
  const Vec3& w = c.a.local_point;
  CHECK(w.sum() == Approx(1).margin(1e-12));
  CHECK(w.minCoeff() > 0.1);
  const Vec3 x = w[0] * corners[0] + w[1] * corners[1] + w[2] * corners[2];
  CHECK(std::hypot(x.x(), x.y()) < 0.005);
  // The surface point y is under it: n·(x* − y) = φ(x*).
  CHECK(c.normal.dot(x - c.b.local_point) == Approx(c.initial_gap + c.thickness).margin(1e-9));
  // Again: the same key (warm starting matches it).
  const sim::ContactBuffer again = contacts_of(model, scratch);
  REQUIRE(again.size() == 1);
  CHECK(again.contacts[0].key == c.key);

  sim::SceneSpec points = spec;
  points.sdf.particle_faces = false;
  const sim::Model sampled = test::compile(points);
  sim::detail::CollisionScratch scratch2;
  CHECK(contacts_of(sampled, scratch2).size() == 0);
}

TEST_CASE("primitives against a mesh use the same path, both ways", "[unit][sdf]") {
  // A mesh slab (world) and, 3 mm above its top face, a sphere, a capsule lying down and a box.
  const Real top = 0.05;
  for (int kind = 0; kind < 3; ++kind) {
    sim::SceneSpec spec;
    spec.world_shapes.push_back(test::mesh_shape(sim::make_box_mesh(Vec3(0.5, 0.5, top)), 0.005));
    sim::BodySpec body;
    body.mass = 1;
    sim::ShapeSpec s;
    Real bottom = 0;
    if (kind == 0) {
      s.type = sim::ShapeType::Sphere, s.radius = 0.05, bottom = 0.05;
    } else if (kind == 1) {
      s.type = sim::ShapeType::Capsule, s.radius = 0.03, s.half_length = 0.1, bottom = 0.03;
      body.pose.rot = sim::Quat(Eigen::AngleAxis<Real>(kPi / 2, Vec3::UnitX()));
    } else {
      s.type = sim::ShapeType::Box, s.half_extents = Vec3(0.1, 0.07, 0.04), bottom = 0.04;
    }
    body.pose.pos = Vec3(0.05, -0.02, top + bottom + 0.003);
    body.shapes.push_back(s);
    spec.bodies.push_back(body);
    const sim::Model model = test::compile(spec);
    sim::detail::CollisionScratch scratch;
    const sim::ContactBuffer out = contacts_of(model, scratch);
    INFO("kind " << kind << ": " << out.size() << " contacts");
    REQUIRE(out.size() >= (kind == 0 ? 1 : 2));
    CHECK(out.size() <= static_cast<int>(model.sdf.max_pair_contacts));
    Real lo = 1, hi = -1;
    for (const sim::Contact& c : out.contacts) {
      CHECK(c.normal.z() > 0.99);
      lo = std::min(lo, c.initial_gap), hi = std::max(hi, c.initial_gap);
    }
    CHECK(lo == Approx(0.003).margin(0.0025));
    CHECK(hi < 0.011);
  }
}

TEST_CASE("a mesh body's mass is its closed mesh's, not its hull's", "[unit][sdf]") {
  sim::SceneSpec spec;
  sim::BodySpec box, bowl;
  box.name = "box";
  box.shapes.push_back(test::mesh_shape(sim::make_box_mesh(Vec3(0.1, 0.2, 0.3)), 0.02));
  box.shapes[0].density = 500;
  bowl.name = "bowl";
  bowl.pose.pos = Vec3(1, 0, 0);
  bowl.shapes.push_back(test::mesh_shape(sim::make_bowl_mesh(0.12, 0.012, 0.08, 32, 8), 0));
  spec.bodies = {box, bowl};
  const sim::Model model = test::compile(spec);
  CHECK(1 / model.body_inv_mass[0] == Approx(500 * 0.2 * 0.4 * 0.6).epsilon(1e-9));
  // The bowl's wall: well under the solid hull's volume (a quarter ellipsoid cap, 2π/3 R² H).
  const Real hull_volume = 2 * kPi / 3 * 0.12 * 0.12 * 0.08;
  const Real mass = 1 / model.body_inv_mass[1];
  CHECK(mass < 0.45 * 1000 * hull_volume);
  CHECK(mass > 0.1 * 1000 * hull_volume);
  // Shapes reusing one mesh share one baked grid.
  sim::SceneSpec twice;
  twice.world_shapes = {test::mesh_shape(sim::make_box_mesh(Vec3(0.1, 0.1, 0.1)), 0.02),
                        test::mesh_shape(sim::make_box_mesh(Vec3(0.1, 0.1, 0.1)), 0.02)};
  twice.world_shapes[1].local.pos = Vec3(1, 0, 0);
  const sim::Model shared = test::compile(twice);
  CHECK(shared.meshes.size() == 1u);
  CHECK(shared.shape_mesh == std::vector<int>{0, 0});
  // A triangle mesh must be declared as ConvexMesh; bad data is a compile error, not a crash.
  sim::SceneSpec wrong;
  wrong.world_shapes = {test::mesh_shape(sim::make_box_mesh(Vec3(0.1, 0.1, 0.1)), 0.02)};
  wrong.world_shapes[0].type = sim::ShapeType::Box;
  CHECK_FALSE(sim::compile_model(wrong).ok());
  wrong.world_shapes[0].type = sim::ShapeType::ConvexMesh;
  wrong.world_shapes[0].triangles = {{0, 1, 42}};
  CHECK_FALSE(sim::compile_model(wrong).ok());
  // An open, flat mesh (a single triangle) compiles, with an unsigned field and a thin box hull.
  sim::SceneSpec flat;
  sim::TriangleMesh tri;
  tri.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  tri.triangles = {{0, 1, 2}};
  flat.world_shapes = {test::mesh_shape(tri, 0.02)};
  const sim::Model f = test::compile(flat);
  REQUIRE(f.meshes.size() == 1u);
  CHECK_FALSE(f.meshes[0]->grid->is_signed());
}
