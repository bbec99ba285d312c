// bake_sdf() / load_sdf(): triangle mesh → OpenVDB narrow-band distance grid
// (openvdb::tools::meshToSignedDistanceField, or meshToUnsignedDistanceField for open and
// non-manifold meshes), cached on disk as .vdb, converted to NanoVDB for sampling. The only file
// of the project that includes OpenVDB.
#include <openvdb/io/File.h>
#include <openvdb/io/Stream.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/util/NullInterrupter.h>

#include <nanovdb/util/OpenToNanoVDB.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <mutex>
#include <sstream>

#include "sdf/mesh_clean.hpp"
#include "sdf/sdf_band_estimate.hpp"
#include "sdf/sdf_cache.hpp"
#include "sim/atomic_file.hpp"
#include "sdf/sdf_grid_impl.hpp"
#include "sim/load_limits.hpp"

namespace sim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr const char* kSignedMeta = "coulomb_signed";
constexpr double kMaxVoxelsAlongExtent = 8192;  // a guard against a voxel size typo eating memory
constexpr double kFarVoxels = 4;               // far field voxel, in grid voxels
constexpr double kFarBand = 16;                 // far field exterior band, at least [far field voxels]
constexpr double kFarReach = 0.5;               // and at least this fraction of the largest extent

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void initialise_openvdb() {
  static std::once_flag once;
  std::call_once(once, [] { openvdb::initialize(); });
}

// Forwards OpenVDB's progress percentages (reported from the calling thread, queried from any).
struct ProgressInterrupter : openvdb::util::NullInterrupter {
  const std::function<void(const char*, double)>* callback = nullptr;
  std::atomic<int> last{-1};
  bool wasInterrupted(int percent = -1) override {
    if (percent < 0 || callback == nullptr || !*callback) return false;
    int previous = last.load();
    if (percent > previous && last.compare_exchange_strong(previous, percent)) (*callback)("bake", percent / 100.0);
    return false;
  }
};

void report_progress(const SdfBakeOptions& o, const char* stage, double fraction) {
  if (o.progress) o.progress(stage, fraction);
}

bool grid_is_signed(const openvdb::GridBase& grid) {
  const auto meta = grid.getMetadata<openvdb::BoolMetadata>(kSignedMeta);
  if (meta) return meta->value();
  return grid.getGridClass() == openvdb::GRID_LEVEL_SET;
}

constexpr const char* kGridName = "sdf";
constexpr const char* kFarName = "sdf_far";

// The distance grid of .vdb data (the one named "sdf", else the first float grid) and its far
// field ("sdf_far", may be null); a null grid and a message on failure.
struct VdbGrids {
  openvdb::FloatGrid::Ptr grid, far;
};
VdbGrids pick_grids(const openvdb::GridPtrVecPtr& grids, const std::string& path, std::string& error) {
  VdbGrids out;
  for (const openvdb::GridBase::Ptr& g : *grids) {
    auto f = openvdb::gridPtrCast<openvdb::FloatGrid>(g);
    if (!f) continue;
    if (f->getName() == kFarName) out.far = f;
    else if (!out.grid || f->getName() == kGridName) out.grid = f;
  }
  if (!out.grid) error = path + ": no float grid in the file";
  return out;
}

// A .vdb file, read whole inside the try: without delayed loading, OpenVDB cannot throw later
// from a worker thread (the NanoVDB conversion) when it reaches a damaged part of the file.
VdbGrids read_vdb(const std::string& path, std::string& error) {
  try {
    openvdb::io::File file(path);
    file.open(/*delayLoad=*/false);
    openvdb::GridPtrVecPtr grids = file.getGrids();
    file.close();
    return pick_grids(grids, path, error);
  } catch (const std::exception& e) {
    error = path + ": " + e.what();
  }
  return {};
}

// .vdb data already in memory (a checked cache entry), read whole, no delayed loading.
VdbGrids parse_vdb(std::string bytes, const std::string& path, std::string& error) {
  try {
    std::istringstream in(std::move(bytes));
    openvdb::io::Stream stream(in, /*delayLoad=*/false);
    return pick_grids(stream.getGrids(), path, error);
  } catch (const std::exception& e) {
    error = path + ": " + e.what();
  }
  return {};
}

// The grids as .vdb bytes; empty with a message on failure.
std::string vdb_bytes(const VdbGrids& g, const std::string& path, std::string& error) {
  try {
    std::ostringstream out(std::ios::binary);
    openvdb::GridPtrVec grids{g.grid};
    if (g.far) grids.push_back(g.far);
    openvdb::io::Stream(out).write(grids);
    return std::move(out).str();
  } catch (const std::exception& e) {
    error = path + ": cannot write: " + e.what();
  }
  return {};
}

// A plain .vdb file (the bake's output), written atomically (sdf_cache.hpp).
std::string write_vdb(const VdbGrids& g, const std::string& path) {
  std::string error;
  const std::string bytes = vdb_bytes(g, path, error);
  return error.empty() ? sim::write_file_atomically(path, {bytes}) : error;
}

// A cache entry: header with checksum and parameters, then the .vdb bytes.
std::string write_cache_entry(const VdbGrids& g, const std::string& path, const detail::SdfCacheKeyParams& params) {
  std::string error;
  const std::string bytes = vdb_bytes(g, path, error);
  return error.empty() ? detail::write_sdf_cache_entry(path, params, bytes) : error;
}

std::shared_ptr<const SdfGrid> to_nanovdb(const VdbGrids& g, bool is_signed) {
  nanovdb::GridHandle<nanovdb::HostBuffer> handle = nanovdb::openToNanoVDB(*g.grid);
  nanovdb::GridHandle<nanovdb::HostBuffer> far;
  if (g.far) far = nanovdb::openToNanoVDB(*g.far);
  return detail::wrap_nanovdb(std::move(handle), std::move(far), is_signed);
}

// Mesh → distance grid at one voxel size (index-space conversion inside OpenVDB).
openvdb::FloatGrid::Ptr mesh_to_grid(openvdb::util::NullInterrupter& interrupter, const std::vector<openvdb::Vec3s>& points,
                                     const std::vector<openvdb::Vec3I>& triangles, double voxel, double band,
                                     bool fill_interior, bool is_signed) {
  const std::vector<openvdb::Vec4I> quads;
  const openvdb::math::Transform::Ptr xform = openvdb::math::Transform::createLinearTransform(voxel);
  openvdb::FloatGrid::Ptr grid;
  if (is_signed) {
    const float interior = fill_interior ? std::numeric_limits<float>::max() : float(band);
    grid = openvdb::tools::meshToSignedDistanceField<openvdb::FloatGrid>(interrupter, *xform, points, triangles, quads,
                                                                         float(band), interior);
    grid->setGridClass(openvdb::GRID_LEVEL_SET);
  } else {
    grid = openvdb::tools::meshToUnsignedDistanceField<openvdb::FloatGrid>(interrupter, *xform, points, triangles,
                                                                           quads, float(band));
    grid->setGridClass(openvdb::GRID_UNKNOWN);
  }
  grid->insertMeta(kSignedMeta, openvdb::BoolMetadata(is_signed));
  return grid;
}

}  // namespace

Result<std::shared_ptr<const SdfGrid>> bake_sdf(const TriangleMesh& mesh, const SdfBakeOptions& options,
                                                SdfBakeReport* report) {
  const Clock::time_point t0 = Clock::now();
  SdfBakeReport local;
  SdfBakeReport& r = report != nullptr ? *report : local;
  r = SdfBakeReport{};
  initialise_openvdb();

  // Check and clean.
  report_progress(options, "check", 0);
  r.diagnostics = check_mesh(mesh);
  if (r.diagnostics.non_finite_vertices > 0)
    return Error{"mesh: " + std::to_string(r.diagnostics.non_finite_vertices) + " vertices with non-finite coordinates"};
  const TriangleMesh clean = detail::without_invalid_triangles(mesh);
  if (clean.triangles.empty()) return Error{"mesh: no valid triangles to bake"};
  const MeshDiagnostics cleaned = check_mesh(clean);
  for (const std::string& w : r.diagnostics.warnings()) r.warnings.push_back("mesh: " + w);
  r.signed_field = cleaned.closed();
  if (!r.signed_field) r.warnings.push_back("mesh: open or non-manifold: baking an unsigned distance field (no inside)");

  Vec3 lo = Vec3::Constant(std::numeric_limits<Real>::max()), hi = -lo;
  for (const auto& t : clean.triangles)
    for (int k = 0; k < 3; ++k) lo = lo.cwiseMin(clean.vertices[t[k]]), hi = hi.cwiseMax(clean.vertices[t[k]]);
  const Real extent = (hi - lo).maxCoeff();
  if (!(extent > 0)) return Error{"mesh: all vertices coincide"};
  const double voxel = options.voxel_size > 0 ? double(options.voxel_size) : double(extent) / std::max(options.resolution, 1);
  if (!(voxel > 0) || !std::isfinite(voxel)) return Error{"sdf: voxel size must be > 0"};
  if (double(extent) / voxel > kMaxVoxelsAlongExtent)
    return Error{"sdf: voxel size " + std::to_string(voxel) + " m gives more than " +
                 std::to_string(int(kMaxVoxelsAlongExtent)) + " voxels along the mesh"};
  const double band = std::max(double(options.band), 1.0);
  if (const double estimate = estimate_sdf_band_voxels(clean.vertices, clean.triangles, Real(voxel), Real(band));
      !(estimate <= limits::kMaxSdfBandVoxels))
    return Error{"sdf: a band of " + std::to_string(std::lround(band)) + " voxels at " + std::to_string(voxel) +
                 " m would hold about " + std::to_string(std::llround(estimate)) + " voxels around this mesh (at most " +
                 std::to_string(std::llround(limits::kMaxSdfBandVoxels)) + "): lower the band or raise the voxel size"};
  if (const double interior = estimate_sdf_interior_voxels(clean.vertices, clean.triangles, Real(voxel));
      options.fill_interior && r.signed_field && !(interior <= limits::kMaxSdfInteriorVoxels))
    return Error{"sdf: the filled interior at " + std::to_string(voxel) + " m would hold about " +
                 std::to_string(std::llround(interior)) + " voxels (at most " +
                 std::to_string(std::llround(limits::kMaxSdfInteriorVoxels)) +
                 "): raise the voxel size, or bake without filling the interior (--no-fill)"};
  r.voxel_size = Real(voxel);
  r.band = Real(band);
  report_progress(options, "check", 1);

  // Cache look-up.
  std::string cache_path;
  const detail::SdfCacheKeyParams cache_params{voxel, band, options.fill_interior, r.signed_field};
  if (options.use_cache) {
    const std::string dir = options.cache_dir.empty() ? default_sdf_cache_dir() : options.cache_dir;
    if (std::string e = detail::ensure_directory(dir); !e.empty()) {
      r.warnings.push_back(e + " (baking without cache)");
    } else {
      cache_path = detail::sdf_cache_path(dir, detail::sdf_cache_key(clean, cache_params));
      r.cache_file = cache_path;
    }
  }
  VdbGrids grids;
  std::error_code exists_error;
  if (!cache_path.empty() && std::filesystem::exists(cache_path, exists_error)) {
    // A damaged, truncated or mismatching entry is reported, deleted and baked again.
    const Clock::time_point t = Clock::now();
    detail::SdfCacheEntry entry = detail::read_sdf_cache_entry(cache_path, cache_params);
    std::string problem = entry.error;
    if (problem.empty()) grids = parse_vdb(std::move(entry.vdb_bytes), cache_path, problem);
    if (problem.empty() && !(grids.far && std::abs(grids.grid->voxelSize()[0] - voxel) <= 1e-9 * voxel &&
                             grid_is_signed(*grids.grid) == r.signed_field))
      problem = cache_path + ": its grids do not match the parameters";
    r.io_seconds = seconds_since(t);
    if (problem.empty()) {
      r.cache_hit = true;
      report_progress(options, "cache", 1);
    } else {
      std::error_code ec;
      std::filesystem::remove(cache_path, ec);
      r.warnings.push_back("sdf cache: " + problem + ": entry deleted, baking again");
      grids = {};
    }
  }

  // Bake: the grid, then its coarse far field (kFarVoxels times coarser, interior filled, a band
  // reaching half the mesh's extent, so a search starting at one end of a long feature still sees
  // a slope towards a contact at its middle; nano_sdf.hpp says why).
  if (!grids.grid) {
    const Clock::time_point t = Clock::now();
    std::vector<openvdb::Vec3s> points;
    points.reserve(clean.vertices.size());
    for (const Vec3& v : clean.vertices) points.emplace_back(float(v.x()), float(v.y()), float(v.z()));
    std::vector<openvdb::Vec3I> triangles;
    triangles.reserve(clean.triangles.size());
    for (const auto& tri : clean.triangles)
      triangles.emplace_back(openvdb::Index32(tri[0]), openvdb::Index32(tri[1]), openvdb::Index32(tri[2]));
    ProgressInterrupter interrupter;
    interrupter.callback = &options.progress;
    try {
      grids.grid = mesh_to_grid(interrupter, points, triangles, voxel, band, options.fill_interior, r.signed_field);
      grids.grid->setName(kGridName);
      const double far_voxel = kFarVoxels * voxel;
      const double far_band = std::max({kFarBand, kFarReach * double(extent) / far_voxel, band / kFarVoxels + 2});
      openvdb::util::NullInterrupter quiet;
      grids.far = mesh_to_grid(quiet, points, triangles, far_voxel, far_band, true, r.signed_field);
      grids.far->setName(kFarName);
    } catch (const std::exception& e) {
      return Error{std::string("sdf: OpenVDB mesh to volume failed: ") + e.what()};
    }
    r.bake_seconds = seconds_since(t);
    report_progress(options, "bake", 1);
    if (!cache_path.empty()) {
      const Clock::time_point tw = Clock::now();
      if (std::string e = write_cache_entry(grids, cache_path, cache_params); !e.empty()) {
        r.cache_error = "sdf cache: " + e;
        r.warnings.push_back(r.cache_error);
      }
      r.io_seconds = seconds_since(tw);
      report_progress(options, "cache", 1);
    }
  }
  if (!options.output_file.empty())
    if (std::string e = write_vdb(grids, options.output_file); !e.empty()) return Error{e};
  r.active_voxels = static_cast<std::size_t>(grids.grid->activeVoxelCount());
  r.openvdb_bytes = static_cast<std::size_t>(grids.grid->memUsage() + (grids.far ? grids.far->memUsage() : 0));

  // NanoVDB for sampling.
  const Clock::time_point tc = Clock::now();
  std::shared_ptr<const SdfGrid> nano;
  try {
    nano = to_nanovdb(grids, r.signed_field);
  } catch (const std::exception& e) {
    return Error{std::string("sdf: NanoVDB conversion failed: ") + e.what()};
  }
  if (!nano) return Error{"sdf: the baked grid has no uniform axis-aligned voxels"};
  r.convert_seconds = seconds_since(tc);
  r.nanovdb_bytes = nano->memory_bytes();
  report_progress(options, "nanovdb", 1);
  r.peak_rss_bytes = detail::peak_resident_bytes();
  r.seconds = seconds_since(t0);
  return nano;
}

Result<std::shared_ptr<const SdfGrid>> load_sdf(const std::string& vdb_path) {
  initialise_openvdb();
  std::string error;
  const VdbGrids grids = read_vdb(vdb_path, error);
  if (!grids.grid) return Error{error};
  std::shared_ptr<const SdfGrid> nano;
  try {
    nano = to_nanovdb(grids, grid_is_signed(*grids.grid));
  } catch (const std::exception& e) {
    return Error{vdb_path + ": NanoVDB conversion failed: " + e.what()};
  }
  if (!nano) return Error{vdb_path + ": the grid has no uniform axis-aligned voxels"};
  return nano;
}

}  // namespace sim
