#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the main job: `coulomb` with the default scene
# (headless for now: it prints the scene's per-step stats). Extra arguments go to coulomb.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
packaging/build.sh
exec build/app/coulomb "$@"
