// coulomb: the command-line entry point. Subcommands run headless. With no subcommand, or with
// `coulomb open <file>`, the desktop app opens when it is built in (Qt 6) and a display is
// available; otherwise the scene (the default one without a file) runs headless and prints its
// stats, saying why no window opened.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "cli/backend.hpp"
#include "cli/cli_common.hpp"
#include "cli/commands.hpp"
#ifdef COULOMB_HAVE_GUI
#include "gui/gui_main.hpp"
#endif

namespace {

void print_help() {
  std::printf(
      "coulomb - contact-rich robotics simulator (non-smooth Newton solver; --set solver.kind=pgs for PGS)\n\n"
      "usage:\n"
      "  coulomb                          open the desktop app with the last (or default) scene; without\n"
      "                                   a display, run the default scene headless and print its stats\n"
      "  coulomb open <scene> [--backend cpu|cuda|auto]\n"
      "                                   open a scene in the desktop app (headless run without a display)\n"
      "  coulomb run <scene> [options]    step a scene, print per-step time, iterations, residuals\n"
      "      --steps N  --dt s  --set solver.key=value (repeatable)  --trace out.json\n"
      "      --record out.csv  --save-session out.rec  --threads N  --every K  --quiet\n"
      "      --backend cpu|cuda|auto   where large PCR solves run (auto: CUDA where built and a GPU is present)\n"
      "      --capture-step N --capture dir/ [--capture-system K]   keep every Newton iterate of step N\n"
      "  coulomb replay <session.rec> [--csv states.csv]   rerun a recorded session, check its hash\n"
      "  coulomb solve-captured <dir> [--set ...] [--export-system K --out dir/]   re-solve a captured step:\n"
      "                                   same iterates bit for bit, or an A/B comparison with --set\n"
      "  coulomb bench <scene|all|soft> [--steps N] [--warmup N] [--repeats N] [--json] [--set ...] [--backend ...]\n"
      "  coulomb bench <scene> --sweep [--steps N] [--budgets 1,2,4,...] [--plot file.svg]\n"
      "                                   every solver kind at each iteration budget: error against CPU time\n"
      "  coulomb render <scene> --out dir/ [options]   step a scene and write PNG frames (offscreen Vulkan)\n"
      "      --frames N  --width W  --height H  --steps-per-frame K  --validation  --samples S\n"
      "      --overlay contacts,normals,forces,joints,frames,bounds|all  --select body  --yaw/--pitch deg  --zoom f\n"
      "      --color-by speed|contact_force|mass|volumetric_strain|max_stretch|von_mises|min_dihedral\n"
      "                                            colour bodies and particles (soft surfaces) by a field\n"
      "      --geometry visual|collision|both   robots' visual shapes (default), collision shapes, or both\n"
      "      --overlay sdf_slice,sdf_samples  --slice-axis x|y|z  --slice-pos 0..1   SDF slice and contact samples\n"
      "  coulomb bake <mesh> [-o out.vdb] [--voxel m | --resolution n] [--band voxels]   mesh -> SDF (.vdb)\n"
      "      --no-fill  --cache-dir dir  --no-cache  --quiet\n"
      "  coulomb tetmesh <surface> [-o out.msh] [--max-volume m3 | --edge m] [--quality ratio]   closed surface -> tets (TetGen)\n"
      "      --min-dihedral deg  --time-limit s  --quiet;  a .msh/.node/.ele/.vtk/.vtu is checked, reported, converted\n"
      "  coulomb help\n\n"
      "loading (run, replay, bench, render, open): files a scene, robot or mesh names must lie in the\n"
      "  referencing file's folder tree or a package root (the shipped assets are one):\n"
      "      --package-root DIR (repeatable; also $COULOMB_PACKAGE_PATH)  --allow-outside-paths\n"
      "  sizes and counts read from files are bounded (docs/LIMITS.md)\n\n"
      "<scene> is a scene file, a URDF or MJCF robot (placed on a ground plane), or the name of a\n"
      "shipped scene (assets/scenes/<name>.xml).\n"
      "solver keys: kind (nsn: non-smooth Newton | pgs: projected Gauss-Seidel | dual: dual ascent,\n"
      "  XPBD-style | primal: primal descent), pgs_iterations, pgs_relaxation, dual_iterations,\n"
      "  dual_relaxation, dual_gauss_seidel, dual_consistent, primal_iterations, primal_step,\n"
      "  primal_stiffness, primal_contact_stiffness, primal_friction_stiffness,\n"
      "  ncp (fischer_burmeister|min_map), preconditioner (identity|h2|effective_mass),\n"
      "  linear_solver (auto|pcr|pcg|jacobi|gauss_seidel|direct), newton_iterations, linear_iterations,\n"
      "  damping, regularization, warm_start, geometric_stiffness, substeps, contact_margin, ...\n");
}

}  // namespace

namespace {

// The desktop app when it can open a window, else a headless run of the scene, on `backend`
// (choose_backend: --backend cpu|cuda|auto, auto by default).
int open_scene(int argc, char** argv, const std::string& scene, const coulomb::Backend& backend) {
#ifdef COULOMB_HAVE_GUI
  const coulomb::gui::DisplayCheck display = coulomb::gui::check_display();
  if (display.available) return coulomb::gui::run_gui(argc, argv, scene, !backend.device);
  const std::string why = display.reason;
#else
  (void)argc;
  const std::string why = "this build has no desktop app (Qt 6 was not found)";
#endif
  static char run[] = "run", steps[] = "--steps", count[] = "240", every[] = "--every", k[] = "30",
              backend_option[] = "--backend", cpu[] = "cpu", cuda[] = "cuda";
  std::string name = scene.empty() ? std::string("workcell") : scene;
  char* args[] = {argv[0], run, name.data(), steps, count, every, k, backend_option, backend.device ? cuda : cpu};
  std::printf("coulomb: no window (%s); running %s headless\n", why.c_str(),
              scene.empty() ? "the default scene" : scene.c_str());
  return coulomb::run_command(9, args, 2);
}

int open_command(int argc, char** argv) {
  auto args = coulomb::parse_args(argc, argv, 2, {"backend"}, {});
  coulomb::Backend backend;
  if (!args || args->positional.size() != 1 || !coulomb::choose_backend(*args, "open", backend)) {
    if (!args) std::fprintf(stderr, "coulomb open: %s\n", args.error().c_str());
    std::fprintf(stderr, "usage: coulomb open <scene> [--backend cpu|cuda|auto]\n");
    return 2;
  }
  return open_scene(argc, argv, args->positional[0], backend);
}

}  // namespace

namespace {

int dispatch(int argc, char** argv) {
  if (argc < 2) return open_scene(argc, argv, "", coulomb::detect_backend());
  const std::string cmd = argv[1];
  if (cmd == "open") return open_command(argc, argv);
  if (cmd == "run") return coulomb::run_command(argc, argv, 2);
  if (cmd == "bench") return coulomb::bench_command(argc, argv, 2);
  if (cmd == "replay") return coulomb::replay_command(argc, argv, 2);
  if (cmd == "render") return coulomb::render_command(argc, argv, 2);
  if (cmd == "bake") return coulomb::bake_command(argc, argv, 2);
  if (cmd == "solve-captured") return coulomb::solve_captured_command(argc, argv, 2);
  if (cmd == "tetmesh") return coulomb::tetmesh_command(argc, argv, 2);
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    print_help();
    return 0;
  }
  std::fprintf(stderr, "coulomb: unknown command '%s' (try coulomb help)\n", cmd.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // The loaders bound what they allocate (docs/LIMITS.md); should anything still throw, it is an
  // error message and exit code 1, never std::terminate.
  try {
    return coulomb::with_thread_limit(argc, argv, 2, [&] { return dispatch(argc, argv); });
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "coulomb: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "coulomb: %s\n", e.what());
  }
  return 1;
}
