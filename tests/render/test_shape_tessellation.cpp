// What the renderer draws for a shape: SDF triangle meshes as themselves (not as their convex
// hulls), with outward normals, smooth over smooth surfaces and creased at sharp edges.
#include <catch2/catch.hpp>

#include <cmath>

#include "shape_tessellation.hpp"
#include "sim/compile.hpp"
#include "sim/sdf.hpp"
#include "sim/spec.hpp"
#include "support/scene_builders.hpp"

namespace {

Eigen::Vector3f position(const render::MeshVertex& v) { return {v.position[0], v.position[1], v.position[2]}; }
Eigen::Vector3f normal(const render::MeshVertex& v) { return {v.normal[0], v.normal[1], v.normal[2]}; }

}  // namespace

TEST_CASE("a triangle mesh tessellates as itself: boxes creased, spheres smooth, normals outward", "[render]") {
  // A box: every corner is a 90 degree edge, so each triangle keeps its face normal.
  const sim::TriangleMesh box = sim::make_box_mesh(sim::Vec3(0.1, 0.2, 0.3));
  const render::MeshData b = render::tessellate_triangle_mesh(box);
  REQUIRE(b.indices.size() == 3 * box.triangles.size());
  for (std::size_t t = 0; t < b.indices.size(); t += 3) {
    const Eigen::Vector3f p0 = position(b.vertices[b.indices[t]]), p1 = position(b.vertices[b.indices[t + 1]]),
                          p2 = position(b.vertices[b.indices[t + 2]]);
    const Eigen::Vector3f face = (p1 - p0).cross(p2 - p0).normalized();
    for (int k = 0; k < 3; ++k) CHECK(normal(b.vertices[b.indices[t + std::size_t(k)]]).dot(face) == Approx(1.0f).margin(1e-5));
    CHECK(face.dot((p0 + p1 + p2) / 3.0f) > 0);  // counter-clockwise from outside: outward
  }
  // An icosphere: neighbouring faces bend by a few degrees, so normals are smooth, ~ p / |p|.
  const sim::TriangleMesh sphere = sim::make_sphere_mesh(0.5, 3);
  const render::MeshData s = render::tessellate_triangle_mesh(sphere);
  REQUIRE(s.indices.size() == 3 * sphere.triangles.size());
  double worst = 1;
  for (const render::MeshVertex& v : s.vertices) worst = std::min(worst, double(normal(v).dot(position(v).normalized())));
  CHECK(worst > 0.999);
}

TEST_CASE("an SDF mesh shape is drawn as its triangles, a convex mesh as its hull", "[render]") {
  sim::SceneSpec spec;
  sim::BodySpec bowl;
  bowl.name = "bowl";
  bowl.fixed = true;
  const sim::TriangleMesh mesh = sim::make_bowl_mesh(0.1, 0.01, 0.06, 24, 6);
  const sim::ShapeSpec shape = test::mesh_shape(mesh, 0.004);
  bowl.shapes.push_back(shape);
  sim::ShapeSpec hull_only = shape;
  hull_only.triangles.clear();
  bowl.shapes.push_back(hull_only);
  spec.bodies.push_back(bowl);
  auto model = sim::compile_model(spec);
  REQUIRE(model);
  REQUIRE(model->shape_mesh[0] >= 0);
  REQUIRE(model->shape_mesh[1] < 0);
  const render::MeshData drawn = render::tessellate_shape(*model, 0, 10.0f);
  CHECK(drawn.indices.size() == 3 * model->meshes[std::size_t(model->shape_mesh[0])]->mesh.triangles.size());
  // The bowl's inside is drawn: some triangles face up from below the rim (the hull has none).
  int inner_up = 0;
  for (const render::MeshVertex& v : drawn.vertices) inner_up += v.normal[2] > 0.5f && v.position[2] < 0.05f && std::hypot(v.position[0], v.position[1]) < 0.08f;
  CHECK(inner_up > 0);
  const render::MeshData hull = render::tessellate_shape(*model, 1, 10.0f);
  CHECK(hull.indices.size() != drawn.indices.size());
  int hull_inner_up = 0;
  for (const render::MeshVertex& v : hull.vertices) hull_inner_up += v.normal[2] > 0.5f && v.position[2] < 0.05f && std::hypot(v.position[0], v.position[1]) < 0.08f;
  CHECK(hull_inner_up == 0);
}
