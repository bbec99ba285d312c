// The cloth's edge table (collision/cloth_edges.hpp), built once by compile_model: every edge
// once, owned by the lowest-index triangle that holds it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "collision/cloth_edges.hpp"
#include "support/scene_builders.hpp"

TEST_CASE("cloth edges: each edge once, owned by its lowest triangle, in the compiled model", "[unit][sdf]") {
  // Two triangles of a square sharing the diagonal 0-2, and a third sharing edge 2-3 of the second.
  sim::SceneSpec spec;
  for (int i = 0; i < 5; ++i) {
    sim::ParticleSpec p;
    p.position = sim::Vec3(i % 2, i / 2, 1);
    spec.particles.push_back(p);
  }
  spec.particle_triangles = {{0, 1, 2}, {0, 2, 3}, {3, 2, 4}};
  const sim::Model m = test::compile(spec);
  REQUIRE(m.particle_edge_key.size() == 7);  // 9 corners' edges, 2 shared
  CHECK(std::is_sorted(m.particle_edge_key.begin(), m.particle_edge_key.end()));
  using sim::detail::cloth_edge_owner;
  CHECK(cloth_edge_owner(m.particle_edge_key, m.particle_edge_owner, 2, 0) == 0);  // shared by 0 and 1
  CHECK(cloth_edge_owner(m.particle_edge_key, m.particle_edge_owner, 3, 2) == 1);  // shared by 1 and 2
  CHECK(cloth_edge_owner(m.particle_edge_key, m.particle_edge_owner, 2, 4) == 2);
  CHECK(cloth_edge_owner(m.particle_edge_key, m.particle_edge_owner, 0, 4) == -1);  // no such edge
  CHECK(sim::detail::cloth_edge_key(3, 7) == sim::detail::cloth_edge_key(7, 3));
}
