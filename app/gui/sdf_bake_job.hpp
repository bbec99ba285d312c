// One bake of the SDF baker panel on a thread of its own (never the UI's or the simulation's):
// loads the mesh file when given one, runs sim::bake_sdf with a progress callback and hands the
// report back. The panel polls progress() each frame and takes the result when finished(). No Qt.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "sim/model.hpp"
#include "sim/sdf.hpp"

namespace coulomb::gui {

struct SdfBakeRequest {
  std::string mesh_file;        // a mesh file (any format Assimp reads) ...
  sim::TriangleMesh mesh;       // ... or this mesh, when mesh_file is empty
  sim::SdfBakeOptions options;  // the job sets `progress`
  int shape = -1;               // the model shape the mesh belongs to (-1: a file), carried to the result
};

struct SdfBakeResult {
  bool ok = false;
  std::string error;            // why it failed (file, mesh or parameters)
  sim::SdfBakeReport report;    // time, memory, warnings, cache hit or miss
  std::shared_ptr<const sim::SdfGrid> grid;
  std::string source;           // the file, or "shape N"
  int shape = -1;
  sim::Real voxel_size = 0;     // as requested (the report has what was baked)
  sim::Real band = 0;
};

// The bake of model shape `shape` (a triangle-mesh shape) at `voxel_size` [m] and `band` [voxels]
// as the panel asks for it: the shape's mesh, with the band compile_model derives from them
// (sim::sdf_shape_band), so the bake is exactly the cache entry that the recompile after Apply
// (ShapeSpec::sdf_voxel_size = voxel_size, sdf_band = the result's band) reads back.
SdfBakeRequest shape_bake_request(const sim::Model& model, int shape, double voxel_size, double band);

class SdfBakeJob {
 public:
  SdfBakeJob() = default;
  ~SdfBakeJob();  // waits for a bake in progress (OpenVDB cannot be interrupted)
  SdfBakeJob(const SdfBakeJob&) = delete;
  SdfBakeJob& operator=(const SdfBakeJob&) = delete;

  // Starts the bake on a new thread; false (nothing started) while one is running.
  bool start(SdfBakeRequest request);
  bool running() const { return running_.load(std::memory_order_acquire); }
  // Overall progress in [0, 1], never decreasing during a bake; 1 once finished. The bake's
  // stages map to consecutive ranges: load 0-0.05, check 0.05-0.1, bake 0.1-0.85, cache 0.9,
  // nanovdb 0.95, done 1.
  double progress() const { return progress_.load(std::memory_order_acquire); }
  const char* stage() const { return stage_.load(std::memory_order_acquire); }  // a string literal
  // The result of the last bake once it finished (once: later calls return nothing).
  std::optional<SdfBakeResult> take_result();

  // The overall progress of a stage's fraction (the mapping above).
  static double overall_progress(const char* stage, double fraction);

 private:
  void advance(const char* stage, double fraction);
  void run(SdfBakeRequest request);

  std::thread thread_;
  std::atomic<bool> running_{false};
  std::atomic<double> progress_{0.0};
  std::atomic<const char*> stage_{"idle"};
  std::mutex mutex_;
  std::optional<SdfBakeResult> result_;  // guarded by mutex_
};

}  // namespace coulomb::gui
