#!/usr/bin/env bash
# Configures and builds Coulomb (Release, Ninja) into build/. Usage: packaging/build.sh [cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" > build-configure.log 2>&1 || { cat build-configure.log; exit 1; }
cmake --build build -j "$jobs"
