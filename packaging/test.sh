#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the test suite (everything but [slow]) with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
packaging/build.sh
cd build
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" --timeout 900
