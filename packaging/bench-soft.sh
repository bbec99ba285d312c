#!/usr/bin/env bash
# Soft-body benchmark figures (issue 14 item 9): the paper's Table 2 soft rows (`coulomb bench soft`:
# Allegro Ball, PneuNet, Fetch Tomato at h = 8.3 ms, the paper's GPU figures printed after ours)
# and how the cost of a step grows with the tet count: a Neo-Hookean cube (E 0.1 MPa, nu 0.45,
# 1000 kg/m3, the soft_cube scene's material) of n x n x n cells, 6 tets each, dropped onto the
# ground, at about 1k, 10k and 50k tets. The scenes are written to a temporary folder; nothing
# is committed. Process CPU time is printed beside `coulomb bench`'s own wall-clock figures
# because the machine is shared.
#
#   packaging/bench-soft.sh [--build build] [--steps N] [--threads N] [--skip-table2]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
steps=60
threads=""
table2=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --threads) threads="--threads $2"; shift 2 ;;
    --skip-table2) table2=0; shift ;;
    *) echo "usage: packaging/bench-soft.sh [--build dir] [--steps N] [--threads N] [--skip-table2]" >&2; exit 2 ;;
  esac
done
coulomb="$build/app/coulomb"
[ -x "$coulomb" ] || { echo "bench-soft: $coulomb not built (packaging/build.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; $(date -u +%Y-%m-%d)"
cpu_time() {  # runs "$@", prints its process CPU seconds (user + system) on the last line
  /usr/bin/time -f "cpu %U %S" "$@" 2> "$work/time.txt" || { cat "$work/time.txt" >&2; return 1; }
  awk '/^cpu/ { printf "process CPU: %.2f s (user %.2f, system %.2f)\n", $2 + $3, $2, $3 }' "$work/time.txt"
}

if [ "$table2" = 1 ]; then
  echo "== the paper's Table 2 soft rows (h = 8.3 ms, $steps steps, 3 repeats)"
  # shellcheck disable=SC2086
  cpu_time "$coulomb" bench soft --steps "$steps" --warmup 10 --repeats 3 $threads
fi

echo "== cost against the tet count (soft cube, h = 8.3 ms, $steps steps after 10 of warm-up, 1 repeat)"
for n in 6 12 20; do
  # n x n x n cells of 6 tets: 1296, 10368, 48000 tets.
  size=$(awk -v n="$n" 'BEGIN { printf "%.4f", 0.05 * n }')
  z=$(awk -v s="$size" 'BEGIN { printf "%.4f", s / 2 + 0.05 }')
  scene="$work/soft_cube_$n.xml"
  cat > "$scene" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<scene name="soft_cube_${n}" dt="0.0083" gravity="0 0 -9.81">
  <solver linear_iterations="60"/>
  <material name="rubber" friction="0.8"/>
  <world material="rubber"><plane/></world>
  <softbody name="cube" pos="0 0 $z" box="$size $size $size" divisions="$n $n $n" model="neohookean"
            compliance="full" E="1e5" nu="0.45" density="1000" damping="0.01" radius="0.005" material="rubber"/>
</scene>
EOF
  echo "-- $((6 * n * n * n)) tets ($n x $n x $n cells, $(( (n + 1) * (n + 1) * (n + 1) )) particles)"
  # shellcheck disable=SC2086
  cpu_time "$coulomb" bench "$scene" --steps "$steps" --warmup 10 --repeats 1 $threads
done
