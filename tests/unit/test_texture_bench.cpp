// Texture-grain benchmark (hidden: run with `coulomb_tests "[texture_bench]"`): the cost of
// texture sampling per contact. 400 crates rest on the shipped textured slab
// (assets/scenes/friction_texture.xml, 2496 triangles, 512² texture); contact generation is timed
// with the slab's grain as the texture, as the same channel procedurally, and isotropic, and the
// difference is divided by the contact count. Prints figures; asserts only that the variants see
// the same contacts.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

#include "collision/collide.hpp"
#include "collision/structure_field.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/state.hpp"
#include "sim/structure_texture.hpp"
#include "support/scoped_resources.hpp"
#include "support/shipped_scenes.hpp"

using sim::Real;
using sim::Vec3;

TEST_CASE("bench: texture grain sampling per contact", "[bench][.][texture_bench]") {
  auto loaded = sim::load_scene_file(test::scene_path("friction_texture"));
  REQUIRE(loaded.ok());
  sim::SceneSpec base = loaded.value();
  // 20 × 20 crates resting on the slab (4 corner contacts each), replacing the six launched ones.
  const sim::BodySpec crate = base.bodies[0];
  base.bodies.clear();
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 20; ++i) {
      sim::BodySpec b = crate;
      b.name = "crate_" + std::to_string(i) + "_" + std::to_string(j);
      b.pose.pos = Vec3(-2.85 + 0.3 * i, -2.85 + 0.3 * j, 0.05);
      b.linear_velocity.setZero();
      base.bodies.push_back(b);
    }
  struct Variant {
    const char* name;
    sim::StructureFieldSpec grain;
    bool anisotropic;
  };
  sim::StructureFieldSpec channel;
  channel.kind = sim::StructureFieldKind::Channel;
  channel.width = 0.25;
  const Variant variants[] = {{"isotropic", {}, false}, {"procedural", channel, true},
                              {"texture", base.materials[0].structure, true}};
  std::printf("\nTexture grain: %zu crates on a %zu-triangle slab\n", base.bodies.size(), base.world_shapes[0].triangles.size());
  std::printf("%-11s %14s %10s %16s\n", "grain", "contacts [us]", "contacts", "per contact [us]");
  int first_count = -1;
  for (const Variant& v : variants) {
    sim::SceneSpec spec = base;
    spec.materials[0].structure = v.grain;
    if (!v.anisotropic) spec.materials[0].friction_major = spec.materials[0].friction_minor = -1;
    auto compiled = sim::compile_model(spec);
    INFO((compiled ? std::string() : compiled.error()));
    REQUIRE(compiled.ok());
    const sim::Model& model = compiled.value();
    const sim::State state = sim::make_initial_state(model);
    sim::detail::CollisionScratch scratch;
    sim::ContactBuffer out;
    for (int i = 0; i < 3; ++i) sim::generate_contacts(model, state, model.dt, model.solver.contact_margin, scratch, out);
    const int reps = 50;
    const auto t = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) sim::generate_contacts(model, state, model.dt, model.solver.contact_margin, scratch, out);
    const double us = 1e6 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count() / reps;
    std::printf("%-11s %14.0f %10d %16.3f\n", v.name, us, out.size(), us / std::max(out.size(), 1));
    if (first_count < 0) first_count = out.size();
    CHECK(out.size() == first_count);
    if (!v.anisotropic) continue;
    // The grain lookup alone at every contact's slab point, as contact generation does it
    // (collision/contact_friction.cpp): texture = closest triangle (BVH) + bilinear sample +
    // lift; procedural = the channel formula.
    const sim::StructureField& field = model.structure_fields[static_cast<std::size_t>(model.material_structure_field[0])];
    const sim::MeshSurface& surface = *model.surfaces[static_cast<std::size_t>(model.shape_surface[0])];
    std::vector<Vec3> points;
    for (const sim::Contact& c : out.contacts)
      points.push_back(c.shape_a == 0 ? c.a.local_point : c.b.local_point);  // world shape: world points
    const int lookups = 200;
    double checksum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < lookups; ++r)
      for (const Vec3& p : points) {
        const Vec3 g = field.kind == sim::StructureFieldKind::Texture
                           ? sim::surface_grain(*field.texture, surface, surface.closest_point(p))
                           : sim::detail::structure_direction(field, p);
        checksum += g.x();
      }
    const double ns = 1e9 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                      (double(lookups) * double(points.size()));
    std::printf("%-11s grain lookup alone: %.0f ns per contact (checksum %.3g)\n", v.name, ns, checksum);
  }
}
