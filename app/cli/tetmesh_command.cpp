// `coulomb tetmesh <surface> -o out.msh [--max-volume V | --edge L] [--quality Q] [--min-dihedral D]`:
// tetrahedralises a closed surface (any format Assimp reads) with TetGen (sim/tet_mesh_generate.hpp),
// printing each stage (reading, checking, tetrahedralising, writing) and the mesh's quality
// report, and writes Gmsh MSH 4.1. Given a tet mesh (.msh, .node/.ele, .vtk, .vtu) instead, it
// reads and checks it, prints what the reader repaired and the quality report, and converts it
// with -o.
#include <chrono>
#include <cstdio>
#include <string>

#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#include "sim/atomic_file.hpp"
#include "sim/tet_mesh_generate.hpp"
#include "sim/tet_mesh_io.hpp"
#include "sim/tet_mesh_quality.hpp"

namespace coulomb {

namespace {

void usage() {
  std::fprintf(stderr,
               "usage: coulomb tetmesh <surface> [-o out.msh] [--max-volume m3 | --edge m] [--quality ratio]\n"
               "                       [--min-dihedral deg] [--time-limit s] [--quiet]\n"
               "       coulomb tetmesh <mesh.msh|.node|.ele|.vtk|.vtu> [-o out.msh]   (check, report, convert)\n");
}

class Stages {
 public:
  Stages(bool quiet, int total) : quiet_(quiet), total_(total) {}
  void begin(const char* stage, const std::string& what) {
    start_ = std::chrono::steady_clock::now();
    if (!quiet_) {
      std::printf("[%d/%d] %-16s %s ...\n", ++index_, total_, stage, what.c_str());
      std::fflush(stdout);
    }
  }
  void end(const std::string& result) {
    if (quiet_) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::printf("      %s (%.3f s)\n", result.c_str(), s);
    std::fflush(stdout);
  }

 private:
  bool quiet_;
  int total_;
  int index_ = 0;
  std::chrono::steady_clock::time_point start_;
};

int fail(const std::string& message) {
  std::fflush(stdout);
  print_error("tetmesh", message);
  return 1;
}

std::string ends_with_msh(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".msh") == 0 ? "" : "-o: " + path + ": the output is Gmsh .msh";
}

}  // namespace

int tetmesh_command(int argc, char** argv, int first) {
  auto args = parse_args_with_short_out(argc, argv, first,
                                        {"out", "max-volume", "edge", "quality", "min-dihedral", "time-limit"}, {"quiet"});
  if (!args || args->positional.size() != 1) {
    if (!args) print_error("tetmesh", args.error());
    usage();
    return 2;
  }
  sim::TetGenOptions options;
  double max_volume = 0, edge = 0, quality = options.radius_edge_ratio, min_dihedral = 0, time_limit = options.time_limit_seconds;
  if (!number_option(*args, "max-volume", "tetmesh", max_volume) || !number_option(*args, "edge", "tetmesh", edge) ||
      !number_option(*args, "quality", "tetmesh", quality) || !number_option(*args, "min-dihedral", "tetmesh", min_dihedral) ||
      !number_option(*args, "time-limit", "tetmesh", time_limit))
    return 2;
  std::string bad;
  if (args->value("max-volume") && args->value("edge")) bad = "give --max-volume or --edge, not both";
  else if (args->value("max-volume") && !(max_volume > 0)) bad = "--max-volume must be > 0";
  else if (args->value("edge") && !(edge > 0)) bad = "--edge must be > 0";
  else if (quality != 0 && !(quality >= 1.05 && quality <= 100)) bad = "--quality must be 0 (none) or within 1.05 .. 100";
  else if (!(min_dihedral >= 0 && min_dihedral <= 30)) bad = "--min-dihedral must be within 0 .. 30 degrees";
  else if (!(time_limit > 0)) bad = "--time-limit must be > 0";
  const std::string out = args->value("out").value_or("");
  if (bad.empty() && !out.empty()) bad = ends_with_msh(out);
  if (bad.empty() && !out.empty()) bad = sim::refuse_input_as_output(out, {args->positional[0]});
  if (!bad.empty()) {
    print_error("tetmesh", bad);
    usage();
    return 2;
  }
  options.max_volume = edge > 0 ? sim::tet_volume_for_edge(edge) : max_volume;
  options.radius_edge_ratio = quality;
  options.min_dihedral_deg = min_dihedral;
  options.time_limit_seconds = time_limit;
  const bool quiet = args->has_flag("quiet");
  const std::string& path = args->positional[0];
  const bool tet_input = sim::is_tet_mesh_path(path);
  // reading (and writing) a tet mesh; reading, checking, tetrahedralising (and writing) a surface
  Stages stages(quiet, (tet_input ? 1 : 3) + (out.empty() ? 0 : 1));
  sim::TetMesh mesh;

  if (tet_input) {
    stages.begin("reading", path);
    sim::TetMeshReadReport report;
    auto read = sim::read_tet_mesh(path, &report);
    if (!read) return fail(read.error());
    for (const std::string& n : report.notes) std::printf("      note: %s\n", n.c_str());
    stages.end(report.format + ": " + std::to_string(read->points.size()) + " nodes, " + std::to_string(read->tets.size()) +
               " tets");
    mesh = std::move(*read);
  } else {
    stages.begin("reading", path);
    auto surface = sim::load_triangle_mesh(path);
    if (!surface) return fail(surface.error());
    stages.end(std::to_string(surface->vertices.size()) + " vertices, " + std::to_string(surface->triangles.size()) +
               " triangles");
    stages.begin("checking", "closed, manifold, consistently oriented");
    if (std::string problem = sim::check_closed_surface(*surface); !problem.empty()) {
      std::string indented;
      for (char c : problem) indented += c == '\n' ? std::string("\n  ") : std::string(1, c);
      return fail(path + ": cannot tetrahedralise:\n  " + indented);
    }
    stages.end("closed surface");
    char what[160], volume[40] = "none";
    if (options.max_volume > 0) std::snprintf(volume, sizeof volume, "%.4g m^3", static_cast<double>(options.max_volume));
    std::snprintf(what, sizeof what, "TetGen, radius-edge ratio <= %g, min dihedral %g deg, max volume %s", quality,
                  min_dihedral, volume);
    stages.begin("tetrahedralising", what);
    sim::TetGenReport report;
    auto generated = sim::tetrahedralize_surface(*surface, options, path, &report);
    for (const std::string& n : report.notes) std::printf("      note: %s\n", n.c_str());
    if (!generated) return fail(generated.error());
    stages.end(std::to_string(generated->tets.size()) + " tets, " + std::to_string(generated->points.size()) +
               " nodes (TetGen -" + report.switches + ")");
    mesh = std::move(*generated);
  }
  const sim::TetQualityReport quality_report = sim::tet_mesh_quality(mesh);
  std::printf("%s", sim::format_tet_quality(quality_report).c_str());
  if (!out.empty()) {
    stages.begin("writing", out);
    if (std::string e = sim::write_gmsh_msh(mesh, out); !e.empty()) return fail(e);
    stages.end("Gmsh MSH 4.1 ASCII");
    std::printf("wrote %s\n", out.c_str());
  }
  return 0;
}

}  // namespace coulomb
