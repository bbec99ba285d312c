#!/usr/bin/env bash
# The sanitizer build and its tests (docs/FUZZING.md): configures build-sanitize/ with clang,
# AddressSanitizer and UBSan (COULOMB_SANITIZE: the engine, the libFuzzer targets of tests/fuzz
# and the engine's unit tests; no app, UI or renderer), builds it, and runs its CTest tests: the
# unit tests under the sanitizers and each fuzz target for COULOMB_FUZZ_SECONDS (default 20) on
# its seed corpus. A finding fails with the reproducer's path. Usage: packaging/fuzz.sh [cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
seconds=${COULOMB_FUZZ_SECONDS:-20}
start=$(date +%s)
cmake -G Ninja -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCOULOMB_SANITIZE=ON -DCOULOMB_FUZZ_SECONDS="$seconds" "$@" > build-sanitize-configure.log 2>&1 ||
  { cat build-sanitize-configure.log; exit 1; }
cmake --build build-sanitize -j "$jobs"
built=$(date +%s)
echo "fuzz.sh: sanitizer build took $((built - start)) s"
cd build-sanitize
ctest --output-on-failure -j "$jobs" --timeout 1800
echo "fuzz.sh: sanitizer tests took $(($(date +%s) - built)) s"
