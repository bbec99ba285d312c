#!/usr/bin/env bash
# The fused linear solver against an earlier build (issue 16 item 2): two `coulomb` binaries on
# the same scenes, interleaved (base, new, base, new, ...) because the machine is shared.
# Prints per scene and thread count: the solve's wall ms per linear iteration (the step's solve
# timing over the step's linear iterations: PCR's iterations with their share of the Newton
# iteration's set-up pass and diagonal), process CPU ms per step (user + system, /usr/bin/time,
# the loading subtracted: a 1-step run's time), both binaries' medians over the rounds and their
# ratios (base / new: > 1 is faster). The state hashes of both runs are compared: the fused
# solver has the same arithmetic, so they agree bit for bit (printed "hash same").
#
# Usage: packaging/bench-linear.sh BASE_COULOMB [rounds (default 3)]   COULOMB=path/to/new
#   SCENES="heavy_stack pyramid table_pile humanoid" THREADS="1 2"
#   (pyramid55: a 10-row box pyramid written here as bench-scaling.sh does, at rest: no linear
#   iterations; humanoid, humanoid100: MuJoCo's
#   /usr/share/mujoco/model/humanoid*/ from libmujoco-samples, skipped if absent)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: packaging/bench-linear.sh BASE_COULOMB [rounds]}
rounds=${2:-3}
new=${COULOMB:-build/app/coulomb}
for b in "$base" "$new"; do [ -x "$b" ] || { echo "bench-linear: $b not found" >&2; exit 1; }; done
[ -x /usr/bin/time ] || { echo "bench-linear: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scene_file() {
  case $1 in
    pyramid55)
      awk -v n=10 'BEGIN {
        printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scene name=\"pyramid55\" dt=\"0.0083\" gravity=\"0 0 -9.81\">\n"
        printf "  <material name=\"box\" friction=\"0.5\"/>\n  <world material=\"box\">\n    <plane/>\n  </world>\n"
        for (r = 0; r < n; r++)
          for (i = 0; i < n - r; i++)
            printf "  <body name=\"b%02d_%02d\" pos=\"%.4f 0 %.4f\" material=\"box\"><box size=\"0.5 0.5 0.5\"/></body>\n",
                   r, i, (i - (n - r - 1) / 2.0) * 0.52, 0.25 + 0.5 * r
        printf "</scene>\n" }' > "$tmp/pyramid55.xml"
      echo "$tmp/pyramid55.xml" ;;
    humanoid) echo /usr/share/mujoco/model/humanoid/humanoid.xml ;;
    humanoid100) echo /usr/share/mujoco/model/humanoid100/humanoid100.xml ;;
    *) echo "assets/scenes/$1.xml" ;;
  esac
}

# heavy_stack as the paper runs it (§10.2: 6 Newton x 20 PCR, no warm start, no tolerance, no line
# search): warm started it converges in 0.2 Newton iterations per step, too little to time.
extra_args() {
  case $1 in
    heavy_stack) echo --set solver.warm_start=false --set solver.newton_tolerance=0 --set solver.newton_iterations=6 \
                      --set solver.linear_iterations=20 --set solver.line_search=false ;;
  esac
}

timed() {
  /usr/bin/time -f "%U %S %e" -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" ||
    { echo "bench-linear: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  awk '{ printf "%.4f\n", $1 + $2 }' "$tmp/time"
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
per_iteration() {
  python3 -c "import json; r = json.load(open('$1'))[0]; its = r['newton_per_step'] * r['linear_per_newton']; print(r['ms']['solve'] / its if its > 0 else 0)"
}
hash_of() { { "$1" run "$2" --steps "$3" --threads "$4" --quiet $5 2>&1 || true; } | sed -n 's/.*hash[ :=]*\([0-9a-f]\{16\}\).*/\1/p' | tail -n 1; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "base: $base; new: $new ($(git rev-parse --short HEAD 2>/dev/null || echo '?')); $rounds rounds, interleaved"
printf "%-12s %3s %6s %6s %11s %11s %8s %11s %11s %8s %s\n" scene thr steps "lin/st" "base ms/it" "new ms/it" "it x" \
  "base cpu/st" "new cpu/st" "step x" "hash"
for name in ${SCENES:-heavy_stack pyramid table_pile humanoid}; do
  file=$(scene_file "$name")
  [ -f "$file" ] || { echo "bench-linear: skipping $name ($file not found)"; continue; }
  case $name in heavy_stack) steps=1000 ;; pyramid55) steps=200 ;; pyramid) steps=30 ;; table_pile) steps=400 ;; *) steps=1000 ;; esac
  for t in ${THREADS:-1 2}; do
    for which in base new; do
      bin=$([ $which = base ] && echo "$base" || echo "$new")
      timed "$bin" bench "$file" --steps 1 --warmup 0 --repeats 1 --threads "$t" --json $(extra_args "$name") > "$tmp/load_$which"
      : > "$tmp/it_$which"; : > "$tmp/cpu_$which"
    done
    for ((r = 0; r < rounds; r++)); do
      for which in base new; do
        bin=$([ $which = base ] && echo "$base" || echo "$new")
        cpu=$(timed "$bin" bench "$file" --steps "$steps" --warmup 5 --repeats 1 --threads "$t" --json $(extra_args "$name"))
        cp "$tmp/out" "$tmp/run_$which.json"
        per_iteration "$tmp/out" >> "$tmp/it_$which"
        awk -v a="$cpu" -v b="$(cat "$tmp/load_$which")" -v n="$((steps + 4))" 'BEGIN { print 1000 * (a - b) / n }' >> "$tmp/cpu_$which"
      done
    done
    lin=$(python3 -c "import json; r = json.load(open('$tmp/run_new.json'))[0]; print('%.0f' % (r['newton_per_step'] * r['linear_per_newton']))")
    hb=$(hash_of "$base" "$file" 50 "$t" "$(extra_args "$name")"); hn=$(hash_of "$new" "$file" 50 "$t" "$(extra_args "$name")")
    same=$([ -n "$hb" ] && [ "$hb" = "$hn" ] && echo "same $hn" || echo "DIFFERENT $hb / $hn")
    python3 - "$tmp" "$name" "$t" "$steps" "$lin" "$same" <<'PY'
import statistics, sys
tmp, name, t, steps, lin, same = sys.argv[1:]
read = lambda f: [float(x) for x in open(f"{tmp}/{f}").read().split()]
ib, in_, cb, cn = read("it_base"), read("it_new"), read("cpu_base"), read("cpu_new")
def ratio(a, b):  # per round: adjacent runs; nan where nothing was measured (no linear iterations)
    r = [x / y for x, y in zip(a, b) if y > 0]
    return statistics.median(r) if r else float("nan")
med = statistics.median
print(f"{name:<12} {int(t):3d} {int(steps):6d} {lin:>6} {med(ib):11.4f} {med(in_):11.4f} {ratio(ib, in_):7.2f}x "
      f"{med(cb):11.3f} {med(cn):11.3f} {ratio(cb, cn):7.2f}x {same}")
PY
  done
done
echo "(ms/it: the step's solve wall time over its linear iterations, median of rounds; cpu/st: process CPU ms per step,"
echo " median of rounds; it x, step x: base over new, the median over the rounds of each round's ratio (adjacent runs);"
echo " hash: state hash after 50 steps, base and new)"
