// Painting a texture grain in the app (issue 12) without a window: the Friction panel's "new
// blank texture" through the document, a comb stroke laid by the viewport's brush code
// (TexturePainter) from rays onto the shipped textured slab, previewed in the running model dab by
// dab, committed as one undo step, undone and redone; the running simulation's grain follows.
#include <catch2/catch.hpp>

#include <QUndoStack>
#include <cmath>

#include "app/qt_test_app.hpp"
#include "gui/scene_document.hpp"
#include "gui/sim_runner.hpp"
#include "gui/texture_authoring.hpp"
#include "gui/texture_painter.hpp"
#include "sim/structure_texture.hpp"

using namespace coulomb::gui;
using sim::Vec3;

namespace {

// The running model's texture of material 0 (the painted floor).
const sim::StructureTexture* running_texture(const Snapshot& s) {
  const int field = s.model->material_structure_field[0];
  return field >= 0 ? s.model->structure_fields[static_cast<std::size_t>(field)].texture.get() : nullptr;
}

// The grain of the running model's slab at world point p (top surface, z = 0), zero without one.
Vec3 running_grain(const Snapshot& s, const Vec3& p) {
  const sim::MeshSurface& surface = *s.model->surfaces[static_cast<std::size_t>(s.model->shape_surface[0])];
  return sim::surface_grain(*running_texture(s), surface, surface.closest_point(p));
}

Ray down_at(double x, double y) { return Ray{Vec3(x, y, 3), Vec3(0, 0, -1)}; }

}  // namespace

TEST_CASE("a comb stroke paints the grain along the drag, previewed live, one undo step", "[app][document][texture]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("friction_texture"), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  // The shipped channel texture: the grain at (1, 1) is the channel's (flow (1, −4) turned by 90°).
  {
    const Vec3 g = running_grain(runner.latest(), Vec3(1, 1, 0)).normalized();
    CHECK(std::abs(g.dot(Vec3(4, 1, 0).normalized())) == Approx(1).margin(1e-3));
  }
  // "New blank texture" (what TextureAuthoring does for the panel's button).
  sim::StructureFieldSpec grain = document.spec().materials[0].structure;
  grain.image = std::make_shared<const sim::StructureTexture>(sim::blank_structure_texture(128, 128).value());
  REQUIRE(document.set_material_grain(0, grain, QStringLiteral("blank"), &error));
  REQUIRE(app_test::pump_until([&] { return running_texture(runner.latest())->width == 128; }));
  CHECK(running_grain(runner.latest(), Vec3(1, 1, 0)).norm() == 0);  // blank: no grain anywhere
  const int undo_before = document.undo_stack()->count();

  // A stroke along +y at x = 1 (the comb's grain = the drag direction on the surface).
  TexturePainter painter;
  TextureBrush brush;
  brush.radius = 0.4;
  brush.strength = 1;
  const Snapshot& s = runner.latest();
  REQUIRE(painter.begin(document.spec(), *s.model, s.state, 0, down_at(1, -2), brush));
  CHECK_FALSE(TexturePainter().begin(document.spec(), *s.model, s.state, 0, down_at(40, 0), brush));  // misses the slab
  int previews = 0;
  for (double y = -1.8; y <= 2.0; y += 0.2) {
    const Snapshot& now = runner.latest();
    if (!painter.drag(*now.model, now.state, down_at(1, y), brush)) continue;
    document.preview_grain_texture(painter.material(), painter.image());
    ++previews;
  }
  CHECK(previews >= 15);
  CHECK(painter.dabs() >= 30);  // a quarter of the radius apart over 4 m
  // The running model already has the painted grain (the last preview), the document not yet.
  REQUIRE(app_test::pump_until([&] { return running_texture(runner.latest()) == painter.image().get(); }));
  for (double y : {-1.0, 0.0, 1.5}) {
    const Vec3 g = running_grain(runner.latest(), Vec3(1, y, 0));
    INFO("y " << y << ": grain " << g.transpose());
    REQUIRE(g.norm() > 0);
    CHECK(std::abs(g.normalized().y()) == Approx(1).margin(1e-6));
  }
  CHECK(running_grain(runner.latest(), Vec3(-2, 0, 0)).norm() == 0);  // away from the stroke
  CHECK(document.undo_stack()->count() == undo_before);
  // Release: one undo step.
  const int material = painter.material();
  const auto painter_image = painter.image();
  const bool committed = document.set_material_grain(material, painter.end(), QStringLiteral("Comb grain"), &error);
  INFO(error.toStdString());
  REQUIRE(committed);
  CHECK(document.undo_stack()->count() == undo_before + 1);
  REQUIRE(app_test::pump_until([&] { return running_texture(runner.latest()) == painter_image.get(); }));
  // Undo: blank again in the document and the running model; redo: painted.
  const auto document_texture = [&] { return document.spec().materials[0].structure.image.get(); };
  document.undo_stack()->undo();
  REQUIRE(app_test::pump_until([&] { return running_texture(runner.latest()) == document_texture(); }));
  CHECK(running_grain(runner.latest(), Vec3(1, 0, 0)).norm() == 0);
  CHECK(document.spec().materials[0].structure.image->width == 128);
  document.undo_stack()->redo();
  REQUIRE(app_test::pump_until([&] { return running_texture(runner.latest()) == document_texture(); }));
  CHECK(std::abs(running_grain(runner.latest(), Vec3(1, 0, 0)).normalized().y()) == Approx(1).margin(1e-6));
}

TEST_CASE("a texture grain on a material whose shapes have no UVs is refused by the document", "[app][document][texture]") {
  app_test::qt_app();
  SimRunner runner;
  SceneDocument document(runner);
  QString error;
  REQUIRE(document.open_file(app_test::scene_path("friction_channel"), &error));
  REQUIRE(app_test::pump_until([&] { return runner.latest().model != nullptr; }));
  sim::StructureFieldSpec grain;
  grain.kind = sim::StructureFieldKind::Texture;
  grain.texture = default_texture_file("painted");
  CHECK(grain.texture == "painted_grain.png");
  grain.image = std::make_shared<const sim::StructureTexture>(sim::blank_structure_texture(16, 16).value());
  const int before = document.undo_stack()->count();
  CHECK_FALSE(document.set_material_grain(0, grain, QStringLiteral("blank"), &error));
  CHECK(error.contains(QStringLiteral("no UVs")));
  CHECK(document.undo_stack()->count() == before);
}
