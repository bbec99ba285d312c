#!/bin/sh
# Ctrl+C during `coulomb run` (issue 19 item 5): the run stops within a step, writes what it has
# and exits 130. Twice: between ordinary steps (the pyramid, ~50 ms a step), and inside one step
# of 1,000 Newton x 4,000 PCR iterations that would otherwise run for minutes (the solver reads
# the flag between iterations; 1,000 x 4,000 stays within the trace's bound per step). Each must end within 10 s of the signal.
# usage: interrupt_run.sh <coulomb> <output folder>
coulomb=$1
out=$2
mkdir -p "$out"

# run_and_interrupt <name> <seconds before the signal> <coulomb run arguments...>
run_and_interrupt() {
  name=$1
  delay=$2
  shift 2
  rm -f "$out/$name.csv" "$out/$name.log"
  "$coulomb" run "$@" --record "$out/$name.csv" --quiet >"$out/$name.log" 2>&1 &
  pid=$!
  sleep "$delay"
  if ! kill -INT "$pid" 2>/dev/null; then cat "$out/$name.log"; echo "FAIL ($name): ended before the signal"; exit 1; fi
  i=0
  while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    echo "FAIL ($name): still running 10 s after Ctrl+C"
    exit 1
  fi
  wait "$pid"
  rc=$?
  cat "$out/$name.log"
  if [ "$rc" -ne 130 ]; then echo "FAIL ($name): exit status $rc (expected 130)"; exit 1; fi
  if ! grep -q "interrupted (Ctrl+C) after" "$out/$name.log"; then echo "FAIL ($name): no interruption message"; exit 1; fi
  lines=$(wc -l <"$out/$name.csv")
  echo "$name: exit 130 after $((i / 10)).$((i % 10)) s, $lines lines in the record"
}

run_and_interrupt between_steps 3 pyramid --steps 1000000
if [ "$lines" -lt 4 ]; then echo "FAIL (between_steps): the record holds no step ($lines lines)"; exit 1; fi
run_and_interrupt inside_a_step 2 pyramid --steps 5 --set solver.newton_iterations=1000 \
  --set solver.linear_iterations=4000 --set solver.linear_iterations_max=4000 --set solver.newton_tolerance=0
if [ "$lines" -lt 2 ]; then echo "FAIL (inside_a_step): the record lost its initial state ($lines lines)"; exit 1; fi
echo "PASS: interrupted cleanly"
