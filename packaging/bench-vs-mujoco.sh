#!/usr/bin/env bash
# Coulomb against MuJoCo on MuJoCo's own models (issue 16 item 5): humanoid.xml and humanoid100.xml
# from Debian's libmujoco-samples (MuJoCo 2.2.2), each simulator on one thread, at the file's time
# step, the runs interleaved (Coulomb, MuJoCo, Coulomb, MuJoCo, ...) because the machine is shared.
# Prints per model: steps/s by process CPU time (user + system, /usr/bin/time) and by wall time,
# the ratio Coulomb / MuJoCo, contacts per step and Coulomb's residuals.
#
# Process CPU per step is measured as a difference, (t(N steps) - t(1 step)) / (N - 1), so that
# loading and compiling the model (and MuJoCo's thread start) are not counted as stepping.
# MuJoCo runs with ctrlnoise 0 (Coulomb applies the initial control: none).
#
# MuJoCo runs 10 times as many steps as Coulomb (the tenth of a second its 2,000 steps of humanoid
# take is too close to /usr/bin/time's 10 ms resolution and to its own loading time).
#
# Usage: packaging/bench-vs-mujoco.sh [Coulomb's steps per run (default 1000)] [rounds (default 3)]
#   COULOMB=path/to/coulomb (default build/app/coulomb)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-1000}
mujoco_steps=$((10 * steps))
rounds=${2:-3}
coulomb=${COULOMB:-build/app/coulomb}
[ -x "$coulomb" ] || { echo "bench-vs-mujoco: $coulomb not found (packaging/build.sh first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-vs-mujoco: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }

if ! command -v mujoco-testspeed > /dev/null; then
  echo "bench-vs-mujoco: installing libmujoco-samples (mujoco-testspeed and the model files)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y libmujoco-samples > /dev/null
fi

model_file() {
  local f
  f=$(dpkg -L libmujoco-samples libmujoco-dev 2>/dev/null | grep "/$1\.xml\$" | head -n 1 || true)
  [ -n "$f" ] || { echo "bench-vs-mujoco: $1.xml not found in libmujoco-samples (dpkg -L)" >&2; exit 1; }
  echo "$f"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs a command under /usr/bin/time; prints "cpu_seconds wall_seconds" and leaves stdout in $tmp/out.
timed() {
  /usr/bin/time -f "%U %S %e" -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" ||
    { echo "bench-vs-mujoco: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
  awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$tmp/time"
}

coulomb_run() { timed "$coulomb" bench "$1" --steps "$2" --warmup 0 --repeats 1 --threads 1 --json; }
mujoco_run() { timed mujoco-testspeed "$1" "$2" 1 0 0; }

# Steps per second from a run's time `a` less the 1-step run's `b`, or nan where that difference is
# under 50 ms (5 ticks of /usr/bin/time's 10 ms; a 500-step humanoid run is about 0.15 s, and its
# wall time less the loading run's came out negative): too short to time.
rate() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { d = a - b; if (d < 0.05) print "nan"; else print (n - 1) / d }'; }

# The median of the timed runs (nan lines left out; nan if none is left).
median() {
  grep -v nan | sort -g |
    awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "coulomb: $coulomb ($(git rev-parse --short HEAD 2>/dev/null || echo '?')); mujoco: $(dpkg-query -W -f '${Version}' libmujoco-samples)"
echo "$steps Coulomb steps and $mujoco_steps MuJoCo steps per run, $rounds rounds, interleaved, 1 thread each; CPU = user + system of the process"
for name in humanoid humanoid100; do
  file=$(model_file "$name")
  # The cost of loading (1 step), subtracted from every run's times.
  read -r c_cpu1 c_wall1 < <(coulomb_run "$file" 1)
  read -r m_cpu1 m_wall1 < <(mujoco_run "$file" 1)
  : > "$tmp/c_cpu"; : > "$tmp/c_wall"; : > "$tmp/m_cpu"; : > "$tmp/m_wall"
  for ((r = 0; r < rounds; r++)); do
    read -r cpu wall < <(coulomb_run "$file" "$steps")
    cp "$tmp/out" "$tmp/coulomb.json"
    rate "$cpu" "$c_cpu1" "$steps" >> "$tmp/c_cpu"
    rate "$wall" "$c_wall1" "$steps" >> "$tmp/c_wall"
    read -r cpu wall < <(mujoco_run "$file" "$mujoco_steps")
    cp "$tmp/out" "$tmp/mujoco.txt"
    rate "$cpu" "$m_cpu1" "$mujoco_steps" >> "$tmp/m_cpu"
    rate "$wall" "$m_wall1" "$mujoco_steps" >> "$tmp/m_wall"
  done
  c_cpu=$(median < "$tmp/c_cpu"); c_wall=$(median < "$tmp/c_wall")
  m_cpu=$(median < "$tmp/m_cpu"); m_wall=$(median < "$tmp/m_wall")
  m_dt=$(sed -n 's/.*at dt = \([0-9.e-]*\).*/\1/p' "$tmp/mujoco.txt")
  m_contacts=$(sed -n 's/.*Contacts per step *: *//p' "$tmp/mujoco.txt")
  m_own=$(sed -n 's/.*Steps per second *: *//p' "$tmp/mujoco.txt")
  python3 - "$tmp/coulomb.json" "$name" "$c_cpu" "$c_wall" "$m_cpu" "$m_wall" "$m_dt" "$m_contacts" "$m_own" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))[0]
name, c_cpu, c_wall, m_cpu, m_wall = sys.argv[2], *map(float, sys.argv[3:7])
m_dt, m_contacts, m_own = sys.argv[7], sys.argv[8], sys.argv[9]
print(f"\n{name}.xml (Coulomb dt {r['dt']:g} s, MuJoCo dt {m_dt} s; Coulomb: {r['bodies']} bodies, {r['joints']} joints)")
def rate(x):  # nan: the runs were too short to time (rate() in the script)
    return f"{x:9.0f}" if x == x else "      n/a"
def ratio(a, b):
    return f"{a / b:.2f}" if a == a and b == b else "n/a (too short to time: more steps)"
print(f"  steps/s by CPU time : Coulomb {rate(c_cpu)}   MuJoCo {rate(m_cpu)}   ratio {ratio(c_cpu, m_cpu)}")
print(f"  steps/s by wall time: Coulomb {rate(c_wall)}   MuJoCo {rate(m_wall)}   ratio {ratio(c_wall, m_wall)}"
      f"   (MuJoCo's own figure {m_own})")
print(f"  contacts per step   : Coulomb {r['contacts']:9.1f}   MuJoCo {m_contacts}")
print(f"  Coulomb: {r['rows']:.0f} rows, {r['newton_per_step']:.2f} Newton iterations per step (max {r['newton_max']}), "
      f"{r['linear_per_newton']:.1f} linear per Newton, {r['unconverged_steps']} steps above tolerance, "
      f"{r['diverged_steps']} diverged")
mf = r['mean_final']
print(f"  Coulomb residuals (mean of each step's final): normal {mf['normal_max']:.2e} m, friction "
      f"{mf['friction_max']:.2e} m/s, bilateral {mf['bilateral_max']:.2e} m; complementarity max "
      f"{r['max_complementarity']:.2e} m")
EOF
done
