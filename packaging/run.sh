#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the main job: `coulomb`. On a machine with a display
# ($DISPLAY or $WAYLAND_DISPLAY reachable) it opens the desktop app with the last (or default)
# scene; without one it runs the default scene headless and prints its per-step stats (coulomb
# itself decides, see app/cli/main.cpp). Extra arguments go to coulomb, e.g.
# `packaging/run.sh open arch` or `packaging/run.sh run pyramid --steps 100`.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
packaging/build.sh
exec build/app/coulomb "$@"
