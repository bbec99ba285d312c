#include "gui/sdf_bake_job.hpp"

#include <algorithm>
#include <cstring>

namespace coulomb::gui {

SdfBakeRequest shape_bake_request(const sim::Model& model, int shape, double voxel_size, double band) {
  SdfBakeRequest request;
  const auto s = static_cast<std::size_t>(shape);
  request.shape = shape;
  request.mesh = model.meshes[static_cast<std::size_t>(model.shape_mesh[s])]->mesh;
  request.options.voxel_size = voxel_size;
  request.options.band = sim::sdf_shape_band(band, voxel_size, model.shape_thickness[s], model.solver.contact_margin);
  return request;
}

SdfBakeJob::~SdfBakeJob() {
  if (thread_.joinable()) thread_.join();
}

double SdfBakeJob::overall_progress(const char* stage, double fraction) {
  const double f = std::clamp(fraction, 0.0, 1.0);
  if (std::strcmp(stage, "load") == 0) return 0.05 * f;
  if (std::strcmp(stage, "check") == 0) return 0.05 + 0.05 * f;
  if (std::strcmp(stage, "bake") == 0) return 0.10 + 0.75 * f;
  if (std::strcmp(stage, "cache") == 0) return 0.90;
  if (std::strcmp(stage, "nanovdb") == 0) return 0.95;
  if (std::strcmp(stage, "done") == 0) return 1.0;
  return 0.0;
}

void SdfBakeJob::advance(const char* stage, double fraction) {
  const double p = overall_progress(stage, fraction);
  double seen = progress_.load(std::memory_order_acquire);
  while (p > seen && !progress_.compare_exchange_weak(seen, p, std::memory_order_acq_rel)) {
  }
  stage_.store(stage, std::memory_order_release);
}

bool SdfBakeJob::start(SdfBakeRequest request) {
  if (running()) return false;
  if (thread_.joinable()) thread_.join();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    result_.reset();
  }
  progress_.store(0.0, std::memory_order_release);
  stage_.store("load", std::memory_order_release);
  running_.store(true, std::memory_order_release);
  thread_ = std::thread([this, r = std::move(request)]() mutable { run(std::move(r)); });
  return true;
}

void SdfBakeJob::run(SdfBakeRequest request) {
  SdfBakeResult result;
  result.shape = request.shape;
  result.voxel_size = request.options.voxel_size;
  result.band = request.options.band;
  result.source = request.mesh_file.empty() ? "shape " + std::to_string(request.shape) : request.mesh_file;
  sim::TriangleMesh loaded;
  const sim::TriangleMesh* mesh = &request.mesh;
  advance("load", 0);
  if (!request.mesh_file.empty()) {
    auto file = sim::load_triangle_mesh(request.mesh_file);
    if (file) {
      loaded = std::move(file.value());
      mesh = &loaded;
    } else {
      result.error = file.error();
    }
  }
  advance("load", 1);
  if (result.error.empty()) {
    sim::SdfBakeOptions options = request.options;
    options.progress = [this](const char* stage, double fraction) { advance(stage, fraction); };
    auto grid = sim::bake_sdf(*mesh, options, &result.report);
    if (grid) {
      result.ok = true;
      result.grid = std::move(grid.value());
    } else {
      result.error = grid.error();
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    result_ = std::move(result);
  }
  advance("done", 1);
  running_.store(false, std::memory_order_release);
}

std::optional<SdfBakeResult> SdfBakeJob::take_result() {
  if (running()) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<SdfBakeResult> out = std::move(result_);
  result_.reset();
  return out;
}

}  // namespace coulomb::gui
