// `coulomb bake <mesh> [--voxel m] [--band n] -o out.vdb`: bakes a triangle mesh (any format
// Assimp reads) into a narrow-band signed distance grid (OpenVDB), through the SDF cache, and
// prints the mesh check, progress, time, memory and voxel count (sim/sdf.hpp).
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "sim/sdf.hpp"

namespace coulomb {

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: coulomb bake <mesh> [-o out.vdb] [--voxel m | --resolution n] [--band voxels]\n"
               "                    [--no-fill] [--cache-dir dir] [--no-cache] [--quiet]\n");
}

}  // namespace

int bake_command(int argc, char** argv, int first) {
  auto args = parse_args_with_short_out(argc, argv, first, {"out", "voxel", "resolution", "band", "cache-dir"},
                                        {"no-fill", "no-cache", "quiet"});
  if (!args || args->positional.size() != 1) {
    if (!args) print_error("bake", args.error());
    usage();
    return 2;
  }
  sim::SdfBakeOptions options;
  double voxel = 0, band = options.band;
  int resolution = options.resolution;
  // --voxel above 0 (absent: from --resolution), --resolution 1 .. 4096 voxels along the
  // largest extent, --band 1 .. 256 voxels (the scene attribute's limit).
  if (!number_option(*args, "voxel", "bake", voxel, {0, 1e6, true}) ||
      !integer_option(*args, "resolution", "bake", resolution, 1, 4096) ||
      !number_option(*args, "band", "bake", band, {1, 256})) {
    usage();
    return 2;
  }
  options.voxel_size = voxel;
  options.resolution = resolution;
  options.band = band;
  options.fill_interior = !args->has_flag("no-fill");
  options.use_cache = !args->has_flag("no-cache");
  options.cache_dir = args->value("cache-dir").value_or("");
  options.output_file = args->value("out").value_or("");
  const bool quiet = args->has_flag("quiet");
  if (!quiet) {
    options.progress = [](const char* stage, double fraction) {
      std::fprintf(stderr, "\r  %-8s %3d%%", stage, static_cast<int>(100 * fraction + 0.5));
      if (fraction >= 1) std::fprintf(stderr, "\n");
      std::fflush(stderr);
    };
  }

  const std::string& path = args->positional[0];
  if (!check_outputs(*args, "bake", {"out"}, {path})) return 2;
  auto mesh = sim::load_triangle_mesh(path);
  if (!mesh) {
    print_error("bake", mesh.error());
    return 1;
  }
  std::printf("%s: %zu vertices, %zu triangles\n", path.c_str(), mesh->vertices.size(), mesh->triangles.size());
  sim::SdfBakeReport report;
  auto grid = sim::bake_sdf(*mesh, options, &report);
  for (const std::string& w : report.warnings) print_error("bake", "warning: " + w);
  if (!grid) {
    print_error("bake", grid.error());
    return 1;
  }
  const sim::SdfGrid& g = *grid.value();
  const sim::Vec3 lo = g.bounds_min(), hi = g.bounds_max();
  std::printf("%s distance field: voxel %.6g m, band %.3g voxels, interior %s\n", g.is_signed() ? "signed" : "unsigned",
              static_cast<double>(g.voxel_size()), static_cast<double>(report.band),
              options.fill_interior && g.is_signed() ? "filled" : "narrow band");
  std::printf("active voxels: %zu   bounds [%.4g %.4g %.4g] - [%.4g %.4g %.4g] m\n", g.active_voxel_count(), lo.x(), lo.y(),
              lo.z(), hi.x(), hi.y(), hi.z());
  std::printf("time: %.3f s total (bake %.3f s, NanoVDB %.3f s, cache I/O %.3f s)%s\n", report.seconds, report.bake_seconds,
              report.convert_seconds, report.io_seconds, report.cache_hit ? "  [cache hit]" : "");
  std::printf("memory: OpenVDB grid %.2f MB, NanoVDB buffer %.2f MB, peak resident %.1f MB\n", report.openvdb_bytes / 1e6,
              report.nanovdb_bytes / 1e6, report.peak_rss_bytes / 1e6);
  if (!report.cache_file.empty()) std::printf("cache: %s\n", report.cache_file.c_str());
  if (!options.output_file.empty()) std::printf("wrote %s\n", options.output_file.c_str());
  if (!report.cache_error.empty()) {  // e.g. a full disk: the grid is fine, the cache holds no entry
    std::fflush(stdout);
    std::fprintf(stderr, "coulomb bake: error: the cache entry was not written\n");
    return 1;
  }
  return 0;
}

}  // namespace coulomb
