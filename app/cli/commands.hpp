// The headless subcommands of the `coulomb` executable.
#pragma once

namespace coulomb {

int run_command(int argc, char** argv, int first);
int bench_command(int argc, char** argv, int first);
int replay_command(int argc, char** argv, int first);
int render_command(int argc, char** argv, int first);
int bake_command(int argc, char** argv, int first);
int solve_captured_command(int argc, char** argv, int first);
int tetmesh_command(int argc, char** argv, int first);

}  // namespace coulomb
