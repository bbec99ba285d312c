#!/bin/sh
# Runs one libFuzzer target for a bounded time on a scratch copy of its seed corpus (CTest's
# fuzz_* tests, packaging/fuzz.sh, docs/FUZZING.md). A finding (crash, sanitizer report, leak,
# time-out, memory over the limit) exits 1 and prints the reproducer's path and how to rerun it.
# Usage: run_fuzz.sh <target binary> <seed corpus dir> <work dir> <seconds> [libFuzzer options...]
set -u
target=$1 seeds=$2 work=$3 seconds=$4
shift 4
name=$(basename "$target")
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"
# The mesh_file target forks Assimp with a 5 s deadline per file; the others answer in
# milliseconds, so 10 s is a hang.
per_input=10
case "$name" in *mesh_file*) per_input=30 ;; esac
dict=$(dirname "$0")/dict/${name#fuzz_}.dict
[ -f "$dict" ] && set -- -dict="$dict" "$@"
"$target" -max_total_time="$seconds" -timeout="$per_input" -rss_limit_mb=2560 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" > "$work/log" 2>&1
status=$?
# The figures: executions, executions per second, corpus growth.
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$work/log"
# Findings are crash-, leak-, timeout- and oom- files; slow-unit- files (an input over 10 s, as
# mesh_file's Assimp hang is until the child's deadline) are not.
findings=$(ls "$work/artifacts" | grep -v '^slow-unit-')
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
  tail -n 60 "$work/log"
  for f in "$work"/artifacts/*; do
    [ -e "$f" ] || continue
    case "$f" in */slow-unit-*) continue ;; esac
    echo "FUZZ FINDING: $name: reproducer $f"
    echo "  rerun: $target $f"
  done
  echo "FAIL: $name exited $status (log: $work/log)"
  exit 1
fi
echo "PASS: $name ran ${seconds} s without a finding"
