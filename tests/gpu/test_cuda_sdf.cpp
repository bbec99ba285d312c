// SDF sampling through NanoVDB on the device (issue 17 item 1): a baked grid and its far field
// copied to device memory (sim::cuda::DeviceSdfGrid) and sampled by launch_sdf_samples with the
// CPU's own sampler (sdf/nano_sdf.hpp) give the CPU's φ and ∇φ at points inside the narrow band,
// in the far field and far outside the index range (shipped grids, generated shapes, robot
// meshes); a baked sphere's φ is its closed form within a voxel. Says "skipped: no CUDA device"
// without a GPU.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "cuda/device_sdf_grid.hpp"
#include "cuda/launchers.hpp"
#include "gpu/device_array.hpp"
#include "support/shared_robots.hpp"
#include "support/shipped_run.hpp"

using sim::Real;
using sim::Vec3;

namespace {

bool device_present() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e == cudaSuccess && devices > 0) return true;
  WARN("skipped: no CUDA device (" << cudaGetErrorString(e) << ")");
  cudaGetLastError();
  return false;
}

// Points around a grid: a third in its band's box, a third in that box grown to twice its size
// (the far field), the rest far out (beyond the far field, and beyond the index range).
std::vector<Vec3> probe_points(const sim::SdfGrid& grid, int count, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<Real> unit(0, 1);
  const Vec3 lo = grid.bounds_min(), hi = grid.bounds_max(), centre = (lo + hi) / 2, half = (hi - lo) / 2;
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i) {
    const Vec3 t(unit(random) * 2 - 1, unit(random) * 2 - 1, unit(random) * 2 - 1);
    const int kind = i % 3;
    const Real scale = kind == 0 ? Real(1) : kind == 1 ? Real(2) : (i % 2 ? Real(50) : Real(1e12));
    points.push_back(centre + scale * half.cwiseProduct(t));
  }
  return points;
}

struct Comparison {
  Real phi = 0, gradient = 0;  // the largest |device − CPU|
  int in_band = 0;
};

Comparison compare_on_device(const sim::SdfGrid& grid, const std::vector<Vec3>& points, std::vector<Real>* phi_out = nullptr) {
  std::string error;
  auto device_grid = sim::cuda::DeviceSdfGrid::upload(grid, error);
  INFO(error);
  REQUIRE(device_grid);
  test::DeviceArray<Vec3> p(points);
  test::DeviceArray<Real> phi(points.size());
  test::DeviceArray<Vec3> gradient(points.size());
  REQUIRE(sim::cuda::launch_sdf_samples(device_grid->view(), p.get(), int(points.size()), phi.get(), gradient.get(),
                                        nullptr) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<Real> phi_d = phi.download();
  const std::vector<Vec3> gradient_d = gradient.download();
  Comparison c;
  for (std::size_t i = 0; i < points.size(); ++i) {
    Vec3 g;
    const Real f = grid.sample(points[i], g);
    REQUIRE(std::isfinite(phi_d[i]));
    c.phi = std::max(c.phi, std::abs(phi_d[i] - f));
    c.gradient = std::max(c.gradient, (gradient_d[i] - g).norm());
    if (grid.in_band(f)) ++c.in_band;
  }
  if (phi_out) *phi_out = phi_d;
  return c;
}

}  // namespace

TEST_CASE("SDF grids sampled on the device give the CPU's values and gradients", "[gpu][sdf]") {
  if (!device_present()) return;
  // The shipped scenes' grids, shapes baked here, and the Allegro hand's link meshes (STL files
  // from ../shared/robots, where present): open and closed, thin and solid.
  std::vector<std::pair<std::string, std::shared_ptr<const sim::SdfMesh>>> meshes;
  for (const char* name : {"sdf_bowl", "friction_texture"}) {
    const sim::Model m = test::load_shipped_model(name);
    for (const auto& mesh : m.meshes) meshes.emplace_back(name, mesh);
  }
  auto bake = [&](const std::string& label, const sim::TriangleMesh& mesh) {
    auto baked = sim::make_sdf_mesh(mesh);
    INFO(label << ": " << (baked.ok() ? std::string() : baked.error()));
    REQUIRE(baked.ok());
    meshes.emplace_back(label, *baked);
  };
  bake("box", sim::make_box_mesh(Vec3(0.3, 0.1, 0.05)));
  bake("cone", sim::make_cone_mesh(0.05, 0.2, 24));
  if (test::shared_robots_available()) {
    for (const char* link : {"base_link.STL", "link_3.0.STL", "link_13.0.STL"}) {
      auto mesh = sim::load_triangle_mesh((test::shared_robots_dir() / "allegro_hand_description/meshes" / link).string());
      INFO(link << ": " << (mesh.ok() ? std::string() : mesh.error()));
      REQUIRE(mesh.ok());
      bake(std::string("allegro ") + link, *mesh);
    }
  } else {
    WARN("../shared/robots absent: the Allegro meshes are not sampled");
  }
  for (std::size_t k = 0; k < meshes.size(); ++k) {
    INFO(meshes[k].first);
    const sim::SdfGrid& grid = *meshes[k].second->grid;
    const std::vector<Vec3> points = probe_points(grid, 30000, unsigned(17 + k));
    const Comparison c = compare_on_device(grid, points);
    // Float grid values, double arithmetic: only the order of operations (fused multiply-adds)
    // may differ.
    CHECK(c.phi <= 1e-12);
    CHECK(c.gradient <= 1e-9);
    CHECK(c.in_band > 1000);  // the band itself was sampled, not only the far field
    std::printf("sdf %-22s %9zu bytes, %5d of 30000 points in band, |dphi| %.1e m, |dgrad| %.1e\n",
                meshes[k].first.c_str(), grid.memory_bytes(), c.in_band, c.phi, c.gradient);
  }
  REQUIRE(meshes.size() >= 4);
}

TEST_CASE("a sphere baked and sampled on the device is its closed form within a voxel", "[gpu][sdf]") {
  if (!device_present()) return;
  const Real radius = 0.1;
  auto mesh = sim::make_sdf_mesh(sim::make_sphere_mesh(radius, 4));
  INFO((mesh.ok() ? std::string() : mesh.error()));
  REQUIRE(mesh.ok());
  const sim::SdfGrid& grid = *(*mesh)->grid;
  std::mt19937 random(3);
  std::normal_distribution<Real> normal(0, 1);
  std::uniform_real_distribution<Real> shell(-0.5, 0.5);
  std::vector<Vec3> points;
  for (int i = 0; i < 5000; ++i) {
    const Vec3 direction = Vec3(normal(random), normal(random), normal(random)).normalized();
    points.push_back(direction * (radius + shell(random) * 4 * grid.voxel_size()));
  }
  std::vector<Real> phi;
  compare_on_device(grid, points, &phi);
  Real worst = 0;
  for (std::size_t i = 0; i < points.size(); ++i) worst = std::max(worst, std::abs(phi[i] - (points[i].norm() - radius)));
  std::printf("sdf sphere r = %.2f m, voxel %.4f m: device phi within %.2e m of |p| - r\n", radius, grid.voxel_size(),
              worst);
  // The icosphere's facets lie inside the sphere by up to r (1 − cos θ) and the trilinear
  // interpolant adds about a voxel's curvature error.
  CHECK(worst <= grid.voxel_size());
}
