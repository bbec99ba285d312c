// coulomb: the command-line entry point. Subcommands run headless; with no subcommand the
// default scene runs headless and prints its stats (the desktop window comes with the app).
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/commands.hpp"

namespace {

void print_help() {
  std::printf(
      "coulomb - contact-rich robotics simulator (non-smooth Newton solver)\n\n"
      "usage:\n"
      "  coulomb                          run the default scene headless and print its stats\n"
      "  coulomb run <scene> [options]    step a scene, print per-step time, iterations, residuals\n"
      "      --steps N  --dt s  --set solver.key=value (repeatable)  --trace out.json\n"
      "      --record out.csv  --save-session out.rec  --threads N  --every K  --quiet\n"
      "  coulomb replay <session.rec> [--csv states.csv]   rerun a recorded session, check its hash\n"
      "  coulomb bench <scene|all> [--steps N] [--warmup N] [--repeats N] [--json] [--set ...]\n"
      "  coulomb render <scene> --out dir/ [--frames N] [--width W] [--height H] [--overlay contacts,...]\n"
      "                                   write PNG frames with the Vulkan renderer (offscreen)\n"
      "  coulomb help\n\n"
      "<scene> is a scene file or the name of a shipped scene (assets/scenes/<name>.xml).\n"
      "solver keys: ncp (fischer_burmeister|min_map), preconditioner (identity|h2|effective_mass),\n"
      "  linear_solver (pcr|pcg|jacobi|gauss_seidel|direct), newton_iterations, linear_iterations,\n"
      "  damping, regularization, warm_start, geometric_stiffness, substeps, contact_margin, ...\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    static char run[] = "run", scene[] = "workcell", steps[] = "--steps", count[] = "240", every[] = "--every",
                k[] = "30";
    char* args[] = {argv[0], run, scene, steps, count, every, k};
    std::printf("coulomb: no display session requested; running the default scene headless\n");
    return coulomb::run_command(7, args, 2);
  }
  const std::string cmd = argv[1];
  if (cmd == "run") return coulomb::run_command(argc, argv, 2);
  if (cmd == "bench") return coulomb::bench_command(argc, argv, 2);
  if (cmd == "replay") return coulomb::replay_command(argc, argv, 2);
  if (cmd == "render") return coulomb::render_command(argc, argv, 2);
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    print_help();
    return 0;
  }
  std::fprintf(stderr, "coulomb: unknown command '%s' (try coulomb help)\n", cmd.c_str());
  return 2;
}
