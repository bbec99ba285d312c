#!/usr/bin/env bash
# Scaling figures (issue 16 item 6): box pyramids of 10, 20, 40 and 80 rows (55, 210, 820 and
# 3,240 bodies; the shipped pyramid.xml is the 20-row one), written here into a temporary folder
# in pyramid.xml's layout (0.5 m boxes of 125 kg, rows touching, boxes in a row 0.02 m apart,
# mu 0.5, dt 8.3 ms), each run with `coulomb bench` on 1 and on 2 threads, interleaved
# (1, 2, 1, 2, ...) because the machine is shared.
# Prints per pyramid: ms per step (the step's own timing, median of the rounds), rows, ms per
# 1,000 rows, Newton and linear iterations, the 2-thread speedup by wall time and the process CPU
# time per step of both (user + system, /usr/bin/time, loading subtracted: a 1-step run's
# time), and for the largest the effective memory bandwidth of one PCR iteration (the bytes its
# passes over the row, entry and body arrays must touch, over its time; see the comment below).
#
# Usage: packaging/bench-scaling.sh [rounds (default 3)]   COULOMB=path/to/coulomb
#   ROWS="10 20 40 80" (the pyramids to run), WARMUP=10 (warm-up steps per run)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
warmup=${WARMUP:-10}
coulomb=${COULOMB:-build/app/coulomb}
[ -x "$coulomb" ] || { echo "bench-scaling: $coulomb not found (packaging/build.sh first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-scaling: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pyramid <rows> <file>
pyramid() {
  awk -v n="$1" 'BEGIN {
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    printf "<scene name=\"pyramid%d\" dt=\"0.0083\" gravity=\"0 0 -9.81\">\n", n * (n + 1) / 2
    printf "  <material name=\"box\" friction=\"0.5\"/>\n  <world material=\"box\">\n    <plane/>\n  </world>\n"
    for (r = 0; r < n; r++)
      for (i = 0; i < n - r; i++)
        printf "  <body name=\"b%02d_%02d\" pos=\"%.4f 0 %.4f\" material=\"box\"><box size=\"0.5 0.5 0.5\"/></body>\n",
               r, i, (i - (n - r - 1) / 2.0) * 0.52, 0.25 + 0.5 * r
    printf "</scene>\n"
  }' > "$2"
}

timed() {
  /usr/bin/time -f "%U %S %e" -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" ||
    { echo "bench-scaling: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/time"
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
json() { python3 -c "import json,sys; r=json.load(open('$1'))[0]; print($2)"; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "coulomb: $coulomb ($(git rev-parse --short HEAD 2>/dev/null || echo '?')); $rounds rounds, 1 and 2 threads interleaved"
printf "%7s %6s %8s %9s %11s %7s %7s %9s %9s %9s %9s %8s\n" bodies steps rows "ms/step" "ms/1k rows" newton "lin/it" \
  "ms/st 2t" "speedup" "cpu/st 1t" "cpu/st 2t" "cpu 2/1"
for n in ${ROWS:-10 20 40 80}; do
  bodies=$((n * (n + 1) / 2))
  file="$tmp/pyramid$bodies.xml"
  pyramid "$n" "$file"
  case $n in 10) steps=600 ;; 20) steps=200 ;; 40) steps=60 ;; *) steps=${STEPS_LARGEST:-20} ;; esac
  for t in 1 2; do
    : > "$tmp/ms$t"; : > "$tmp/cpu$t"
    base=$(timed "$coulomb" bench "$file" --steps 1 --warmup 0 --repeats 1 --threads "$t" --json)
    echo "$base" > "$tmp/base$t"
  done
  for ((r = 0; r < rounds; r++)); do
    for t in 1 2; do
      cpu=$(timed "$coulomb" bench "$file" --steps "$steps" --warmup "$warmup" --repeats 1 --threads "$t" --json)
      cp "$tmp/out" "$tmp/run$t.json"
      json "$tmp/out" "r['ms_per_step']" >> "$tmp/ms$t"
      # Loading and the warm-up steps are in the run's CPU time; the 1-step run holds the loading.
      awk -v a="$cpu" -v b="$(cat "$tmp/base$t")" -v n="$((steps + warmup - 1))" 'BEGIN { print 1000 * (a - b) / n }' >> "$tmp/cpu$t"
    done
  done
  ms1=$(median < "$tmp/ms1"); ms2=$(median < "$tmp/ms2")
  cpu1=$(median < "$tmp/cpu1"); cpu2=$(median < "$tmp/cpu2")
  rows=$(json "$tmp/run1.json" "'%.0f' % r['rows']")
  newton=$(json "$tmp/run1.json" "'%.2f' % r['newton_per_step']")
  lin=$(json "$tmp/run1.json" "'%.1f' % r['linear_per_newton']")
  awk -v b="$bodies" -v s="$steps" -v rows="$rows" -v ms1="$ms1" -v ms2="$ms2" -v c1="$cpu1" -v c2="$cpu2" \
      -v nw="$newton" -v lin="$lin" 'BEGIN {
    printf "%7d %6d %8d %9.2f %11.3f %7s %7s %9.2f %8.2fx %9.2f %9.2f %8.2f\n",
           b, s, rows, ms1, 1000 * ms1 / rows, nw, lin, ms2, ms1 / ms2, c1, c2, c2 / c1 }'
  if [ "$n" -eq 80 ]; then
    # One PCR iteration's compulsory traffic (bytes its passes must read and write, each array once
    # per pass; 8-byte reals, 4-byte indices), R rows, E entries (~2 R here: box-box contacts have
    # two, box-ground one), B bodies: the Jᵀx gather 64 E + 52 B, H⁻¹ 176 B, the J product and C
    # 104 E + 28 R, the vector updates and reductions 168 R (the unfused loop of 8398eb2: the fused
    # one of linear_solvers.cpp touches fewer vector bytes, so this overstates its traffic)
    # (sim/src/solver/linear_solvers.cpp pcr,
    # schur_system.cpp apply); its time: the solve's ms per step over the linear iterations per step
    # (Newton's own work included: an upper bound on the time, so a lower bound on the bandwidth).
    for t in 1 2; do
      python3 - "$tmp/run$t.json" "$t" "$bodies" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))[0]
R = r['rows']; E = 2 * R; B = int(sys.argv[3])
bytes_ = 168 * E + 196 * R + 228 * B
its = r['newton_per_step'] * r['linear_per_newton']
ms = r['ms']['solve'] / its
print(f"one PCR iteration, {B} bodies, {sys.argv[2]} thread(s): {bytes_ / 1e6:.1f} MB touched in {ms:.3f} ms "
      f"(solve {r['ms']['solve']:.1f} ms / {its:.0f} linear iterations) = {bytes_ / ms / 1e6:.2f} GB/s")
PY
    done
  fi
done
echo "(ms/step: the step's own wall time, median of rounds; cpu/st: process CPU time per step [ms], user + system,"
echo " the 1-step run's subtracted; speedup: ms/step on 1 thread over 2 threads; cpu 2/1: CPU per step on 2 threads"
echo " over 1 thread, the parallel overhead)"
