// The SDF baker panel's bake job and controller (gui/sdf_bake_job.hpp, sdf_baker_controller.hpp,
// no Qt): the bake runs on its own thread, its progress rises monotonically from 0 to 1 through
// the bake's stages, the report comes back, the same bake again is a cache hit with the same
// grid, a shape's bake is the cache entry the recompile after Apply reads, and the controller
// turns the panel's buttons into bakes and edits.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "gui/sdf_bake_job.hpp"
#include "gui/sdf_baker_controller.hpp"
#include "sim/compile.hpp"
#include "support/scoped_resources.hpp"
#include "support/scene_builders.hpp"

using coulomb::gui::SdfBakeJob;
using coulomb::gui::SdfBakeRequest;
using coulomb::gui::SdfBakeResult;

namespace {

// Polls the job until it finishes, recording every progress value seen.
SdfBakeResult wait(SdfBakeJob& job, std::vector<double>& seen) {
  while (job.running()) {
    seen.push_back(job.progress());
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  seen.push_back(job.progress());
  auto result = job.take_result();
  REQUIRE(result.has_value());
  CHECK_FALSE(job.take_result().has_value());  // taken once
  return std::move(*result);
}

void check_monotone(const std::vector<double>& seen) {
  REQUIRE(!seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] >= seen[i - 1]);
  CHECK(seen.front() >= 0.0);
  CHECK(seen.back() == 1.0);
}

}  // namespace

TEST_CASE("stage progress maps to one rising scale", "[app][sdf]") {
  double last = -1;
  for (const char* stage : {"load", "check", "bake", "cache", "nanovdb", "done"})
    for (double f : {0.0, 0.5, 1.0}) {
      const double p = SdfBakeJob::overall_progress(stage, f);
      CHECK(p >= last);
      last = p;
    }
  CHECK(SdfBakeJob::overall_progress("load", 0) == 0.0);
  CHECK(SdfBakeJob::overall_progress("done", 1) == 1.0);
}

TEST_CASE("the bake job bakes in the background, reports progress and hits the cache the second time", "[app][sdf]") {
  test::TempDir cache("coulomb-bake-job");
  SdfBakeRequest request;
  request.mesh = sim::make_sphere_mesh(0.4, 4);
  request.options.voxel_size = 0.004;  // 200 voxels across: a bake of a good fraction of a second
  request.options.band = 3;
  request.options.cache_dir = cache.path.string();
  request.shape = 7;

  SdfBakeJob job;
  REQUIRE(job.start(request));
  // start() returned while the bake is still going: it runs on another thread.
  const bool still_running = job.running();
  CHECK(still_running);
  CHECK_FALSE(job.start(request));  // one bake at a time
  std::vector<double> seen;
  const SdfBakeResult first = wait(job, seen);
  check_monotone(seen);
  if (still_running) CHECK(seen.front() < 1.0);
  REQUIRE(first.ok);
  CHECK(first.error.empty());
  CHECK(first.shape == 7);
  CHECK_FALSE(first.report.cache_hit);
  CHECK(first.report.active_voxels > 100000);
  CHECK(first.report.nanovdb_bytes > 0);
  CHECK(first.report.voxel_size == Approx(0.004));
  CHECK(first.report.warnings.empty());
  REQUIRE(first.grid);
  CHECK(first.grid->sample(sim::Vec3(0, 0, 0)) == Approx(-0.4).margin(0.004));

  REQUIRE(job.start(request));
  seen.clear();
  const SdfBakeResult second = wait(job, seen);
  check_monotone(seen);
  REQUIRE(second.ok);
  CHECK(second.report.cache_hit);
  CHECK(second.report.cache_file == first.report.cache_file);
  CHECK(second.report.active_voxels == first.report.active_voxels);
  CHECK(second.grid->sample(sim::Vec3(0.1, 0.2, 0.05)) == first.grid->sample(sim::Vec3(0.1, 0.2, 0.05)));
}

TEST_CASE("the bake job reports a missing mesh file by name", "[app][sdf]") {
  SdfBakeJob job;
  SdfBakeRequest request;
  request.mesh_file = "/nonexistent/bunny.obj";
  request.options.voxel_size = 0.01;
  REQUIRE(job.start(request));
  std::vector<double> seen;
  const SdfBakeResult r = wait(job, seen);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("bunny.obj") != std::string::npos);
  CHECK(seen.back() == 1.0);
}

TEST_CASE("a shape's panel bake is the cache entry the recompile after Apply reads", "[app][sdf]") {
  test::TempDir cache("coulomb-bake-job");
  const test::ScopedEnv cache_env("COULOMB_CACHE", cache.path.string());
  // A body with a triangle-mesh shape and a thickness (the band must cover margin + thickness).
  sim::SceneSpec spec;
  sim::BodySpec body;
  body.name = "cone";
  sim::ShapeSpec cone = test::mesh_shape(sim::make_cone_mesh(0.1, 0.25, 48));
  cone.thickness = 0.01;
  body.shapes.push_back(cone);
  spec.bodies.push_back(body);
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());
  auto vdb_files = [&] {
    int n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(cache.path)) n += e.path().extension() == ".vdb";
    return n;
  };
  REQUIRE(vdb_files() == 1);  // the compile's own bake (1/64 of the extent)

  // The panel bakes shape 0 at 3 mm with a 2-voxel band: too thin for margin + thickness, so the
  // request widens it as compile_model will.
  SdfBakeJob job;
  const SdfBakeRequest request = coulomb::gui::shape_bake_request(compiled.value(), 0, 0.003, 2.0);
  CHECK(request.options.band == sim::sdf_shape_band(2.0, 0.003, 0.01, spec.solver.contact_margin));
  CHECK(request.options.band > 2.0);
  REQUIRE(job.start(request));
  std::vector<double> seen;
  const SdfBakeResult result = wait(job, seen);
  REQUIRE(result.ok);
  CHECK_FALSE(result.report.cache_hit);
  CHECK(vdb_files() == 2);

  // Apply: the spec takes the result's voxel size and band; the recompile reads the bake back.
  spec.bodies[0].shapes[0].sdf_voxel_size = result.voxel_size;
  spec.bodies[0].shapes[0].sdf_band = result.band;
  auto applied = sim::compile_model(spec);
  REQUIRE(applied.ok());
  CHECK(vdb_files() == 2);  // no new cache entry: the same key
  const sim::SdfGrid& grid = *applied->meshes[0]->grid;
  CHECK(grid.voxel_size() == Approx(0.003));
  CHECK(grid.active_voxel_count() == result.grid->active_voxel_count());
  CHECK(grid.background() == Approx(result.grid->background()));
}

TEST_CASE("the baker controller lists mesh shapes, bakes the chosen one and offers Apply until applied", "[app][sdf]") {
  test::TempDir cache("coulomb-bake-job");
  const test::ScopedEnv cache_env("COULOMB_CACHE", cache.path.string());
  sim::SceneSpec spec;
  sim::BodySpec ball;
  ball.name = "ball";
  sim::ShapeSpec sphere;
  sphere.radius = 0.05;
  ball.shapes.push_back(sphere);
  spec.bodies.push_back(ball);
  sim::BodySpec cone_body;
  cone_body.name = "cone";
  cone_body.pose.pos = sim::Vec3(0.5, 0, 0);
  sim::ShapeSpec cone = test::mesh_shape(sim::make_cone_mesh(0.1, 0.25, 48));
  cone_body.shapes.push_back(sphere);  // shape 0 of the cone body: a sphere
  cone_body.shapes.push_back(cone);    // shape 1: the mesh (model shape 2)
  spec.bodies.push_back(cone_body);
  auto compiled = sim::compile_model(spec);
  REQUIRE(compiled.ok());

  coulomb::gui::SdfBakerController controller;
  coulomb::gui::Snapshot snapshot;
  snapshot.model = std::make_shared<const sim::Model>(compiled.value());
  snapshot.model_version = 1;
  controller.refresh(snapshot);
  ui::SdfBakerPanelView& v = controller.view();
  REQUIRE(v.shapes.size() == 1);
  CHECK(v.shapes[0].shape == 2);
  CHECK(v.shapes[0].label == "body 'cone' shape 1");
  CHECK(v.shapes[0].triangles == 96);
  CHECK(v.voxel_size == Approx(0.25 / 64));  // the shape's current grid: 1/64 of its extent
  CHECK_FALSE(v.has_result);
  CHECK_FALSE(v.can_apply);

  v.voxel_size = 0.004f;
  v.band = 3.0f;
  auto edits = controller.handle({true, false, false}, *snapshot.model);  // Bake
  CHECK_FALSE(edits.apply);
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    controller.refresh(snapshot);
  } while (v.running);
  REQUIRE(v.has_result);
  INFO(v.result_error);
  REQUIRE(v.result_ok);
  CHECK(v.result_source == "body 'cone' shape 1");
  CHECK(v.report.voxel_size == 0.004);  // as typed, not 0.004f widened
  CHECK(v.progress == 1.0f);
  CHECK(v.can_apply);

  edits = controller.handle({false, true, true}, *snapshot.model);  // Apply, and the slice
  REQUIRE(edits.apply);
  CHECK(edits.apply->shape == 2);
  CHECK(edits.apply->voxel_size == 0.004);
  CHECK(edits.apply->band == sim::sdf_shape_band(3.0, 0.004, 0.0, spec.solver.contact_margin));
  REQUIRE(edits.slice);
  CHECK(edits.slice->first == v.slice_axis);

  // What the document does with it: the recompiled model's grid is the baked one, so Apply is off.
  spec.bodies[1].shapes[1].sdf_voxel_size = edits.apply->voxel_size;
  spec.bodies[1].shapes[1].sdf_band = edits.apply->band;
  auto applied = sim::compile_model(spec);
  REQUIRE(applied.ok());
  snapshot.model = std::make_shared<const sim::Model>(applied.value());
  snapshot.model_version = 2;
  controller.refresh(snapshot);
  CHECK(v.shapes[0].voxel_size == Approx(0.004));
  CHECK_FALSE(v.can_apply);
}
