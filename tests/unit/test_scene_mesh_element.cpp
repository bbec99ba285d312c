// The scene file's <mesh> shape (a triangle mesh collided through its SDF): from a file (paths
// relative to the scene) or inline, scaled, with its grid parameters; bad indices and missing
// files are errors naming the file, line and element.
#include <catch2/catch.hpp>

#include <string>

#include "sim/compile.hpp"
#include "sim/scene_io.hpp"

namespace {

std::string scene(const std::string& shape) {
  return "<scene name=\"m\">\n  <world><plane/></world>\n  <body name=\"b\" pos=\"0 0 1\">\n    " + shape +
         "\n  </body>\n</scene>\n";
}

}  // namespace

TEST_CASE("scene files: <mesh> shapes from a file or inline", "[scene][io][sdf]") {
  const std::string meshes = std::string(COULOMB_SOURCE_DIR) + "/assets/meshes/";
  SECTION("a file, relative to the scene, scaled") {
    auto spec = sim::parse_scene_xml(scene("<mesh file=\"bowl.obj\" scale=\"2\" sdf_voxel=\"0.004\" sdf_band=\"4\"/>"),
                                     meshes + "scene.xml");
    INFO((spec.ok() ? std::string() : spec.error()));
    REQUIRE(spec.ok());
    const sim::ShapeSpec& s = spec->bodies[0].shapes[0];
    CHECK(s.type == sim::ShapeType::ConvexMesh);
    CHECK(s.triangles.size() == 1024);
    CHECK(s.vertices.size() == 514);
    double top = 0;
    for (const sim::Vec3& v : s.vertices) top = std::max(top, double(v.z()));
    CHECK(top == Approx(2 * 0.08));  // the bowl's rim, doubled
    CHECK(s.sdf_voxel_size == 0.004);
    CHECK(s.sdf_band == 4);
    auto model = sim::compile_model(*spec);
    REQUIRE(model.ok());
    REQUIRE(model->meshes.size() == 1);
    CHECK(model->meshes[0]->grid->voxel_size() == Approx(0.004));
  }
  SECTION("inline vertices and triangles") {
    auto spec = sim::parse_scene_xml(
        scene("<mesh vertices=\"0 0 0  0.1 0 0  0 0.1 0  0 0 0.1\" triangles=\"0 2 1  0 1 3  0 3 2  1 2 3\"/>"), "t.xml");
    REQUIRE(spec.ok());
    CHECK(spec->bodies[0].shapes[0].triangles.size() == 4);
    CHECK(spec->bodies[0].shapes[0].sdf_voxel_size == 0);  // automatic
  }
  SECTION("errors name the file, line and element") {
    auto bad_index = sim::parse_scene_xml(
        scene("<mesh vertices=\"0 0 0  0.1 0 0  0 0.1 0  0 0 0.1\" triangles=\"0 2 1  0 1 4\"/>"), "t.xml");
    REQUIRE_FALSE(bad_index.ok());
    INFO(bad_index.error());
    CHECK(bad_index.error().rfind("t.xml:4: ", 0) == 0);
    CHECK(bad_index.error().find("mesh") != std::string::npos);
    CHECK(bad_index.error().find("triangle 1") != std::string::npos);
    auto missing = sim::parse_scene_xml(scene("<mesh file=\"nowhere.obj\"/>"), "t.xml");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().rfind("t.xml:4: ", 0) == 0);
    CHECK(missing.error().find("nowhere.obj") != std::string::npos);
    auto both = sim::parse_scene_xml(scene("<mesh file=\"bowl.obj\" vertices=\"0 0 0\"/>"), "t.xml");
    CHECK_FALSE(both.ok());
    auto neither = sim::parse_scene_xml(scene("<mesh sdf_voxel=\"0.01\"/>"), "t.xml");
    CHECK_FALSE(neither.ok());
  }
}
