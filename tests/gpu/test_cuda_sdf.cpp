// SDF sampling through NanoVDB on the device (issue 17 item 1): a baked grid and its far field
// copied to device memory (sim::cuda::DeviceSdfGrid) and sampled by launch_sdf_samples with the
// CPU's own sampler (sdf/nano_sdf.hpp) give the CPU's φ and ∇φ at points inside the narrow band,
// in the far field and far outside the index range (shipped grids, generated shapes, robot
// meshes); a baked sphere's φ is its closed form within a voxel. Says "skipped: no CUDA device"
// without a GPU.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "cuda/device_sdf_features.hpp"
#include "cuda/device_sdf_grid.hpp"
#include "cuda/launchers.hpp"
#include "gpu/device_array.hpp"
#include "support/shared_robots.hpp"
#include "support/shipped_run.hpp"

using sim::Real;
using sim::Vec3;

namespace {

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
  if (!test::cuda_device_present()) return;
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
  if (!test::cuda_device_present()) return;
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

namespace {

bool same_bits(const sim::detail::FeatureHit& a, const sim::detail::FeatureHit& b) {
  const sim::detail::FeatureMinimum &x = a.minimum, &y = b.minimum;
  return a.found == b.found && std::memcmp(&x.phi, &y.phi, sizeof(Real)) == 0 &&
         std::memcmp(x.point.data(), y.point.data(), 3 * sizeof(Real)) == 0 &&
         std::memcmp(x.grad.data(), y.grad.data(), 3 * sizeof(Real)) == 0 &&
         std::memcmp(x.bary, y.bary, 3 * sizeof(Real)) == 0 && x.evaluations == y.evaluations;
}

bool same_counts(const sim::detail::FeatureCounts& a, const sim::detail::FeatureCounts& b) {
  return a.tested == b.tested && a.culled == b.culled && a.evaluations == b.evaluations;
}

}  // namespace

TEST_CASE("the SDF narrowphase's feature searches on the device are the CPU's bit for bit", "[gpu][sdf]") {
  if (!test::cuda_device_present()) return;
  using namespace sim::detail;
  // Meshes of other shapes against grids, at poses where they interpenetrate by about a tenth of
  // their size: every search kind runs, most features are culled, some are hits.
  std::vector<std::pair<std::string, std::shared_ptr<const sim::SdfMesh>>> meshes;
  auto bake = [&](const std::string& label, const sim::TriangleMesh& mesh) {
    auto baked = sim::make_sdf_mesh(mesh);
    REQUIRE(baked.ok());
    meshes.emplace_back(label, *baked);
  };
  bake("sphere", sim::make_sphere_mesh(0.08, 3));
  bake("box", sim::make_box_mesh(Vec3(0.1, 0.06, 0.04)));
  bake("bowl", sim::make_bowl_mesh(0.12, 0.01, 0.06, 32, 8));
  if (test::shared_robots_available())
    for (const char* link : {"link_3.0.STL", "link_13.0.STL"}) {
      auto mesh = sim::load_triangle_mesh((test::shared_robots_dir() / "allegro_hand_description/meshes" / link).string());
      REQUIRE(mesh.ok());
      bake(std::string("allegro ") + link, *mesh);
    }
  std::mt19937 random(5);
  std::normal_distribution<Real> normal(0, 1);
  int compared = 0, hits = 0;
  long features = 0;
  double cpu_ms = 0, device_ms = 0;  // the searches alone (one CPU thread; the device's launches and wait)
  using Clock = std::chrono::steady_clock;
  for (const sim::SdfFaceMethod method : {sim::SdfFaceMethod::ProjectedGradient, sim::SdfFaceMethod::FrankWolfe}) {
    sim::SdfContactOptions o;
    o.faces = method;
    o.vertices = method == sim::SdfFaceMethod::ProjectedGradient;  // both ownership rules
    for (std::size_t a = 0; a < meshes.size(); ++a)
      for (std::size_t b = 0; b < meshes.size(); ++b) {
        const sim::SdfMesh& mesh = *meshes[a].second;
        const sim::SdfGrid& grid = *meshes[b].second->grid;
        INFO(meshes[a].first << " against " << meshes[b].first << "'s grid");
        // The mesh's centre near the grid's surface, turned at random.
        const Vec3 centre = (grid.bounds_min() + grid.bounds_max()) / 2;
        const Vec3 reach_out = (grid.bounds_max() - grid.bounds_min()) / 2;
        const sim::Mat3 R = Eigen::Quaternion<Real>(normal(random), normal(random), normal(random), normal(random))
                           .normalized()
                           .toRotationMatrix();
        const Vec3 t = centre + Vec3(reach_out.x() * 0.9, 0, 0) - R * mesh.bound_center;
        NanoSdf host_field(grid.impl());
        const Real reach = Real(0.005) + host_field.cull_slack(o.cull_slack);

        // The CPU: the same functions in loops, as mesh_against runs them.
        const SdfMeshView hv = mesh_view(mesh);
        std::vector<Vec3> position(std::size_t(hv.vertex_count)), grad(std::size_t(hv.vertex_count));
        std::vector<Real> phi(std::size_t(hv.vertex_count));
        std::vector<FeatureHit> edge_hits(std::size_t(hv.edge_count)), face_hits(std::size_t(hv.triangle_count));
        std::vector<FeatureCounts> edge_counts(edge_hits.size()), face_counts(face_hits.size());
        const auto cpu_start = Clock::now();
        for (int v = 0; v < hv.vertex_count; ++v)
          phi[std::size_t(v)] =
              place_and_sample(host_field, R, t, hv.vertices[v], position[std::size_t(v)], grad[std::size_t(v)]);
        for (int e = 0; e < hv.edge_count; ++e)
          edge_hits[std::size_t(e)] =
              edge_feature(host_field, hv, e, position.data(), phi.data(), reach, o, edge_counts[std::size_t(e)]);
        for (int f = 0; f < hv.triangle_count; ++f)
          face_hits[std::size_t(f)] =
              face_feature(host_field, hv, f, position.data(), phi.data(), reach, o, face_counts[std::size_t(f)]);
        cpu_ms += std::chrono::duration<double, std::milli>(Clock::now() - cpu_start).count();
        features += hv.vertex_count + hv.edge_count + hv.triangle_count;

        // The device.
        std::string error;
        auto device_grid = sim::cuda::DeviceSdfGrid::upload(grid, error);
        auto device_mesh = sim::cuda::DeviceSdfMesh::upload(mesh, error);
        INFO(error);
        REQUIRE(device_grid);
        REQUIRE(device_mesh);
        test::DeviceArray<Vec3> d_position(position.size()), d_grad(grad.size());
        test::DeviceArray<Real> d_phi(phi.size());
        test::DeviceArray<FeatureHit> d_edge_hits(edge_hits.size()), d_face_hits(face_hits.size());
        test::DeviceArray<FeatureCounts> d_edge_counts(edge_counts.size()), d_face_counts(face_counts.size());
        sim::cuda::MeshFeatureOutputs out{d_position.get(),    d_phi.get(),       d_grad.get(),       d_edge_hits.get(),
                                          d_edge_counts.get(), d_face_hits.get(), d_face_counts.get()};
        for (int run = 0; run < 2; ++run) {  // the second run timed (the first loads the module)
          const auto device_start = Clock::now();
          REQUIRE(sim::cuda::launch_mesh_features(device_mesh->view(), device_grid->view(), R, t, reach, o, out,
                                                  nullptr) == cudaSuccess);
          REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
          if (run == 1) device_ms += std::chrono::duration<double, std::milli>(Clock::now() - device_start).count();
        }
        const std::vector<Real> phi_d = d_phi.download();
        const std::vector<Vec3> position_d = d_position.download();
        REQUIRE(std::memcmp(phi_d.data(), phi.data(), phi.size() * sizeof(Real)) == 0);
        REQUIRE(std::memcmp(position_d.data(), position.data(), position.size() * sizeof(Vec3)) == 0);
        const std::vector<FeatureHit> edge_d = d_edge_hits.download(), face_d = d_face_hits.download();
        const std::vector<FeatureCounts> edge_cd = d_edge_counts.download(), face_cd = d_face_counts.download();
        int mismatched = 0, pair_hits = 0;
        for (std::size_t e = 0; e < edge_hits.size(); ++e) {
          if (!mesh.edge_is_feature[e]) continue;  // not searched (the device leaves its slot as it was)
          mismatched += !same_bits(edge_d[e], edge_hits[e]) || !same_counts(edge_cd[e], edge_counts[e]);
          pair_hits += edge_hits[e].found;
        }
        for (std::size_t f = 0; f < face_hits.size(); ++f) {
          mismatched += !same_bits(face_d[f], face_hits[f]) || !same_counts(face_cd[f], face_counts[f]);
          pair_hits += face_hits[f].found;
        }
        CHECK(mismatched == 0);
        hits += pair_hits;
        ++compared;
      }
  }
  std::printf("sdf feature searches: %d mesh-grid pairs, %d edge and face hits, every one the CPU's bit for bit\n",
              compared, hits);
  std::printf("sdf feature searches: %ld vertices, edges and faces; CPU (one thread) %.2f ms, device %.2f ms (launches "
              "and waits, %d pairs)\n",
              features, cpu_ms, device_ms, compared);
  REQUIRE(compared >= 18);
  REQUIRE(hits > 100);
}
