// A render surface embedded in tets (sim/tet_embedding.hpp): under an affine deformation of the
// tet nodes, every embedded vertex, inside a tet or outside the mesh, moves by the same affine
// map (to round-off); a vertex at a node follows that node under any deformation; vertices
// inside have weights in [0, 1], those outside are counted and their distance reported.
#include <catch2/catch.hpp>

#include <random>

#include "sim/tet_embedding.hpp"
#include "sim/tet_mesh_generate.hpp"
#include "sim/tet_mesh_io.hpp"

TEST_CASE("embedded vertices follow an affine deformation of the tets exactly", "[unit][tetmesh]") {
  auto cube = sim::read_tet_mesh(std::string(COULOMB_SOURCE_DIR) + "/tests/data/tetmesh/cube_v41.msh");
  REQUIRE(cube.ok());
  sim::TetGenOptions o;
  o.max_volume = 0.05;
  auto sphere = sim::tetrahedralize_surface(sim::make_sphere_mesh(1.0, 2), o, "sphere");
  REQUIRE(sphere.ok());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  sim::Mat3 a;
  a << 1.2, 0.3, -0.1, 0.05, 0.8, 0.4, -0.2, 0.1, 1.5;
  const sim::Vec3 b(0.3, -2, 5);
  for (const sim::TetMesh* mesh : {&*cube, &*sphere}) {
    std::vector<sim::Vec3> vertices;
    // 2000 inside the cube [0, 2]^3 / the unit ball, 200 up to 0.2 outside.
    for (int i = 0; i < 2200; ++i) {
      sim::Vec3 v(u(rng), u(rng), u(rng));
      if (mesh == &*cube) {
        v = (v + sim::Vec3::Ones()) * (i < 2000 ? 1.0 : 1.2) - sim::Vec3::Constant(i < 2000 ? 0.0 : 0.2);
      } else {
        v = v.normalized() * (i < 2000 ? 0.9 * std::abs(u(rng)) : 1.0 + 0.2 * std::abs(u(rng)));
      }
      vertices.push_back(v);
    }
    auto e = sim::embed_in_tets(*mesh, vertices);
    REQUIRE(e.ok());
    for (std::size_t i = 0; i < 2000; ++i)
      for (sim::Real w : e->weights[i]) {
        CHECK(w >= -1e-9);
        CHECK(w <= 1 + 1e-9);
      }
    CHECK(e->outside > 0);
    CHECK(e->outside <= 200);
    CHECK(e->max_outside_distance <= 0.21);
    std::vector<sim::Vec3> nodes;
    for (const sim::Vec3& p : mesh->points) nodes.push_back(a * p + b);
    std::vector<sim::Vec3> out;
    sim::deform_embedded(*e, nodes, out);
    REQUIRE(out.size() == vertices.size());
    double worst = 0;
    for (std::size_t i = 0; i < out.size(); ++i) worst = std::max(worst, (out[i] - (a * vertices[i] + b)).norm());
    CHECK(worst < 1e-12);
    // A vertex at a node follows it under any deformation.
    auto at_nodes = sim::embed_in_tets(*mesh, mesh->points);
    REQUIRE(at_nodes.ok());
    CHECK(at_nodes->outside == 0);
    for (sim::Vec3& n : nodes) n += sim::Vec3(u(rng), u(rng), u(rng)) * 0.1;
    sim::deform_embedded(*at_nodes, nodes, out);
    worst = 0;
    for (std::size_t i = 0; i < out.size(); ++i) worst = std::max(worst, (out[i] - nodes[i]).norm());
    CHECK(worst < 1e-12);
  }
  std::vector<sim::Vec3> bad = {sim::Vec3(0, std::nan(""), 0)};
  auto e = sim::embed_in_tets(*cube, bad);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error() == "render vertex 0 is not finite");
}
