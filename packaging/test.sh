#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the test suite (everything but [slow]) with CTest;
# then the sanitizer build: the engine's unit tests under ASan/UBSan and a bounded run of each
# fuzz target (packaging/fuzz.sh, docs/FUZZING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/install-deps.sh
packaging/build.sh
cd build
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" --timeout 900
cd ..
packaging/fuzz.sh
