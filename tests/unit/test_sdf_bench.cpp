// SDF benchmarks (hidden: run with `coulomb_tests "[bench]"` or `"[sdf_bench]"`): bake time and
// memory of a ~20k-triangle mesh at two voxel sizes, and collision time per step of a 20k-particle
// sheet (39,200 faces, the thesis's Table 4 "Dragon" sizes) draped over a 256³-equivalent SDF,
// for point sampling ("Simple"), PGD and Frank-Wolfe face contacts.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "collision/collide.hpp"
#include "sim/compile.hpp"
#include "sim/sdf.hpp"
#include "sim/state.hpp"
#include "support/scoped_resources.hpp"
#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {

// An icosphere of 20,480 triangles with bumps (so the field has features).
sim::TriangleMesh bumpy_sphere(Real radius) {
  sim::TriangleMesh m = sim::make_sphere_mesh(radius, 5);
  for (Vec3& v : m.vertices) {
    const Vec3 d = v.normalized();
    v = radius * d * (1 + Real(0.04) * std::sin(12 * d.x()) * std::sin(12 * d.y()) * std::sin(12 * d.z()));
  }
  return m;
}

}  // namespace

TEST_CASE("bench: bake a 20k-triangle mesh at two voxel sizes", "[bench][.][sdf_bench]") {
  const sim::TriangleMesh mesh = bumpy_sphere(0.5);
  std::printf("\nSDF bake: %zu vertices, %zu triangles (no cache)\n", mesh.vertices.size(), mesh.triangles.size());
  std::printf("%-10s %-10s %10s %10s %12s %12s %12s %12s\n", "grid", "voxel[mm]", "bake[s]", "nano[s]", "voxels",
              "openvdb[MB]", "nanovdb[MB]", "peakRSS[MB]");
  for (const int resolution : {64, 256}) {
    for (const bool fill : {false, true}) {
      sim::SdfBakeOptions o;
      o.use_cache = false;
      o.resolution = resolution;
      o.fill_interior = fill;
      sim::SdfBakeReport r;
      auto g = sim::bake_sdf(mesh, o, &r);
      REQUIRE(g.ok());
      std::printf("%4d^3 %-3s %10.2f %10.3f %10.3f %12zu %12.1f %12.1f %12.1f\n", resolution, fill ? "in" : "nb",
                  1000 * r.voxel_size, r.bake_seconds, r.convert_seconds, r.active_voxels, r.openvdb_bytes / 1e6,
                  r.nanovdb_bytes / 1e6, r.peak_rss_bytes / 1e6);
    }
  }
  std::printf("(nb: narrow band of 3 voxels both sides; in: interior filled, the collision default)\n");
}

TEST_CASE("bench: collision time per step, 20k-particle sheet on a 256^3 SDF", "[bench][.][sdf_bench]") {
  const test::TempDir cache("coulomb-bench-cache");
  const test::ScopedEnv cache_env("COULOMB_CACHE", cache.path.string());
  const Real radius = 0.5;
  const int n = 141;  // 19,881 particles, 39,200 faces
  sim::SceneSpec spec;
  spec.world_shapes.push_back(test::mesh_shape(bumpy_sphere(radius), 2 * radius * Real(1.04) / 256));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const Real u = -1 + 2 * Real(i) / (n - 1), v = -1 + 2 * Real(j) / (n - 1);
      const Vec3 d = Vec3(u, v, 1.2).normalized();
      sim::ParticleSpec p;
      p.position = (radius * Real(1.04) + Real(0.002)) * d;  // draped just above the bumps' crests
      p.radius = 0.001;
      p.mass = 1e-4;
      spec.particles.push_back(p);
      if (i + 1 < n && j + 1 < n) {
        const int a = j * n + i;
        spec.particle_triangles.push_back({a, a + 1, a + n + 1});
        spec.particle_triangles.push_back({a, a + n + 1, a + n});
      }
    }
  const auto t0 = std::chrono::steady_clock::now();
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());
  sim::Model model = std::move(compiled.value());
  const double compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const sim::SdfGrid& grid = *model.meshes[0]->grid;
  std::printf("\nSDF collision: %d particles, %zu faces, grid voxel %.2f mm (%zu voxels, %.1f MB NanoVDB), compile+bake %.1f s\n",
              model.particle_count, model.particle_triangles.size(), 1000 * grid.voxel_size(), grid.active_voxel_count(),
              grid.memory_bytes() / 1e6, compile_s);
  const sim::State state = sim::make_initial_state(model);
  std::printf("%-8s %12s %10s %12s %12s\n", "method", "us/step", "contacts", "faces tested", "evaluations");
  struct Case {
    const char* name;
    bool faces;
    sim::SdfFaceMethod method;
  } cases[] = {{"Simple", false, sim::SdfFaceMethod::ProjectedGradient},
               {"PGD", true, sim::SdfFaceMethod::ProjectedGradient},
               {"FW", true, sim::SdfFaceMethod::FrankWolfe}};
  for (const Case& c : cases) {
    model.sdf.particle_faces = c.faces;
    model.sdf.faces = c.method;
    sim::detail::CollisionScratch scratch;
    sim::ContactBuffer out;
    for (int i = 0; i < 3; ++i) sim::generate_contacts(model, state, model.dt, model.solver.contact_margin, scratch, out);
    const int reps = 20;
    const auto t = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) sim::generate_contacts(model, state, model.dt, model.solver.contact_margin, scratch, out);
    const double us = 1e6 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count() / reps;
    std::printf("%-8s %12.0f %10d %12llu %12llu\n", c.name, us, out.size(),
                static_cast<unsigned long long>(scratch.sdf.stats.features_tested.load()),
                static_cast<unsigned long long>(scratch.sdf.stats.evaluations.load()));
    CHECK(out.size() > 0);
  }
  std::printf("(whole generate_contacts: broadphase, particle pairs, face pass; CPU, all threads)\n");
}
