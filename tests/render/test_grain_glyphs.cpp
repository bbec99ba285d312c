// Grain glyphs (render/src/grain_glyphs.cpp): on the shipped textured slab, about the requested
// number of segments, each lying on the slab's top and along the texture grain at its centre, and
// none where the texture has been erased.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "grain_glyphs.hpp"
#include "sim/compile.hpp"
#include "sim/scene_io.hpp"
#include "sim/structure_texture.hpp"
#include "support/shipped_scenes.hpp"

using sim::Vec3;

TEST_CASE("grain glyphs lie along the texture grain on textured surfaces", "[render][texture]") {
  auto spec = sim::load_scene_file(test::scene_path("friction_texture"));
  REQUIRE(spec.ok());
  // Erase the texture over x > 0 (u > 0.5): no glyphs there.
  sim::StructureTexture t = *spec->materials[0].structure.image;
  for (int j = 0; j < t.height; ++j)
    for (int i = t.width / 2; i < t.width; ++i) t.texel(i, j)[2] = 0;
  spec->materials[0].structure.image = std::make_shared<const sim::StructureTexture>(t);
  auto model = sim::compile_model(spec.value());
  REQUIRE(model.ok());
  const sim::Model& m = model.value();
  const sim::MeshSurface& surface = *m.surfaces[static_cast<std::size_t>(m.shape_surface[0])];
  std::vector<render::LineVertex> lines;
  render::append_grain_glyphs(m, render::PoseView{}, 600, lines);
  REQUIRE(lines.size() % 2 == 0);
  const std::size_t glyphs = lines.size() / 2;
  INFO(glyphs << " glyphs");
  // Half of the top and bottom (the same UVs) is erased: about 300 of the 600 (the spacing is set
  // from the whole textured area, the sides' degenerate UVs give none).
  CHECK(glyphs > 230);
  CHECK(glyphs < 370);
  for (std::size_t g = 0; g < glyphs; ++g) {
    const Vec3 a(lines[2 * g].position[0], lines[2 * g].position[1], lines[2 * g].position[2]);
    const Vec3 b(lines[2 * g + 1].position[0], lines[2 * g + 1].position[1], lines[2 * g + 1].position[2]);
    const Vec3 centre = (a + b) / 2;
    CHECK((std::abs(centre.z()) < 0.02 || std::abs(centre.z() + 0.2) < 0.02));  // top or bottom (both have UVs)
    CHECK(centre.x() < 0.01);            // nothing on the erased half
    const Vec3 grain = sim::surface_grain(t, surface, surface.closest_point(centre));
    REQUIRE(grain.norm() > 0);
    CHECK(std::abs((b - a).normalized().dot(grain.normalized())) == Approx(1).margin(1e-4));
  }
}
