// SDF contacts record the feature that found them and the field evaluations its local
// optimisation spent (Contact::sdf_feature, sdf_iterations; for the sdf_samples overlay). Oracle:
// the same optimiser (sdf/local_optimisation.hpp) run again on the same element and field.
#include <catch2/catch.hpp>

#include <cmath>

#include "collision/collide.hpp"
#include "collision/narrowphase_sdf.hpp"
#include "sdf/analytic_sdf.hpp"
#include "sdf/local_optimisation.hpp"
#include "sdf/nano_sdf.hpp"
#include "sim/compile.hpp"
#include "sim/sdf.hpp"
#include "sim/state.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

TEST_CASE("rigid SDF contacts carry the evaluations of the optimisation that found them", "[sdf][collision]") {
  // A meshed slab (0.4 x 0.4 x 0.1) lying 5 mm deep on an analytic sphere (r 0.5), off centre:
  // the deepest point of its bottom face is inside one triangle, its corners and edges are out of
  // reach, so the face's projected gradient descent finds the contact.
  sim::SdfBakeOptions bake;
  bake.voxel_size = 0.02;
  bake.use_cache = false;
  auto baked = sim::make_sdf_mesh(sim::make_box_mesh(Vec3(0.2, 0.2, 0.05)), bake);
  REQUIRE(baked.ok());
  const sim::SdfMesh& mesh = *baked.value();
  sim::detail::SdfObject first;
  first.kind = sim::detail::SdfKind::Mesh;
  first.mesh = &mesh;
  first.pose.pos = Vec3(0.05, 0.02, 0.545);
  first.size = 0.3;
  sim::detail::SdfObject second;
  second.kind = sim::detail::SdfKind::Sphere;
  second.radius = 0.5;
  second.size = 0.5;
  sim::SdfContactOptions options;
  options.max_pair_contacts = 0;
  sim::detail::NarrowScratch scratch;
  sim::detail::collide_sdf(first, second, 0.01, options, scratch, nullptr);
  REQUIRE(!scratch.contacts.empty());

  // The second shape sits at the origin unrotated: its field frame is the world.
  sim::detail::SphereSdf field{0.5};
  auto placed = [&](int v) { return Vec3(mesh.mesh.vertices[std::size_t(v)] + first.pose.pos); };
  int faces = 0;
  for (const sim::detail::RawContact& c : scratch.contacts) {
    INFO("feature " << int(c.sdf_feature) << " at " << c.point_first.transpose());
    switch (c.sdf_feature) {
      case sim::SdfFeature::Vertex:
      case sim::SdfFeature::Core:
        CHECK(c.sdf_iterations == 1);  // one sample
        break;
      case sim::SdfFeature::Face: {
        int found = -1;
        for (std::size_t f = 0; f < mesh.mesh.triangles.size() && found < 0; ++f) {
          const auto& t = mesh.mesh.triangles[f];
          const Vec3 x[3] = {placed(t[0]), placed(t[1]), placed(t[2])};
          const Real phi[3] = {field.eval(x[0], nullptr), field.eval(x[1], nullptr), field.eval(x[2], nullptr)};
          const sim::detail::FeatureMinimum m =
              sim::detail::minimise_face_pgd(field, x, phi, options.iterations, options.pgd_step, options.tolerance);
          if ((m.point - c.point_first).norm() < 1e-12) found = m.evaluations;
        }
        REQUIRE(found > 0);  // the contact is the minimiser of one of the mesh's faces
        CHECK(int(c.sdf_iterations) == found);
        ++faces;
        break;
      }
      case sim::SdfFeature::Edge: {
        int found = -1;
        for (const auto& e : mesh.edges) {
          const Vec3 p = placed(e[0]), q = placed(e[1]);
          const sim::detail::FeatureMinimum m = sim::detail::minimise_edge(
              field, p, q, field.eval(p, nullptr), field.eval(q, nullptr), options.iterations, options.tolerance);
          if ((m.point - c.point_first).norm() < 1e-12) {
            found = m.evaluations;
            break;
          }
        }
        REQUIRE(found > 0);
        CHECK(int(c.sdf_iterations) == found);
        break;
      }
      default:
        FAIL("a contact of the SDF narrowphase without an SDF feature");
    }
  }
  CHECK(faces > 0);  // the optimised feature is there, so the comparison above ran
}

TEST_CASE("cloth face contacts carry the PGD evaluations over the baked grid", "[sdf][collision]") {
  // One cloth triangle over the top of a meshed sphere (r 0.5): its corners are 7 cm above the
  // surface, the middle of the face 5 mm: only the face optimisation finds the contact.
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::mesh_shape(sim::make_sphere_mesh(0.5, 4), 0.01));
  const Real h = 0.505;
  for (const Vec3& p : {Vec3(0.23, 0.0, h), Vec3(-0.115, 0.2, h), Vec3(-0.115, -0.2, h)}) {
    sim::ParticleSpec ps;
    ps.position = p;
    ps.radius = 0.01;
    ps.mass = 0.01;
    spec.particles.push_back(ps);
  }
  spec.particle_triangles.push_back({0, 1, 2});
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());
  const sim::Model& model = compiled.value();
  const sim::State state = sim::make_initial_state(model);
  sim::detail::CollisionScratch scratch;
  sim::ContactBuffer out;
  sim::generate_contacts(model, state, model.dt, model.solver.contact_margin, scratch, out);

  // The oracle: PGD (the default) over the same triangle in the same grid.
  sim::detail::NanoSdf field(model.meshes[0]->grid->impl());
  Vec3 x[3];
  Real phi[3];
  for (int k = 0; k < 3; ++k) x[k] = spec.particles[std::size_t(k)].position, phi[k] = field.eval(x[k], nullptr);
  const sim::SdfContactOptions& o = model.sdf;
  const sim::detail::FeatureMinimum m = sim::detail::minimise_face_pgd(field, x, phi, o.iterations, o.pgd_step, o.tolerance);
  REQUIRE(m.evaluations > 2);  // a real descent, not a corner sample

  int face_rows = 0;
  for (const sim::Contact& c : out.contacts) {
    if (c.sdf_feature != sim::SdfFeature::ClothFace) continue;
    CHECK(int(c.sdf_iterations) == m.evaluations);
    CHECK(c.initial_gap == Approx(m.phi - c.thickness).margin(1e-12));
    CHECK(c.a.kind == sim::ContactSide::ParticleFace);
    CHECK(c.a.local_point.minCoeff() > 0);  // barycentric weights of a point inside the face
    ++face_rows;
  }
  CHECK(face_rows == 1);  // the minimum is inside the face: one barycentric contact over its corners
  // Contacts of other narrowphases are not SDF contacts.
  for (const sim::Contact& c : out.contacts) CHECK(c.sdf_feature != sim::SdfFeature::None);
}
