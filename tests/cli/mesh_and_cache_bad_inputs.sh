#!/usr/bin/env bash
# Issue 13's mesh and SDF-cache reproducers end to end, under a 1.5 GB address-space limit (the
# CTest tests add a time limit). Prints the command's output and "exit N"; CTest matches both.
#   mesh_and_cache_bad_inputs.sh COULOMB bake FILE         coulomb bake FILE (no cache)
#   mesh_and_cache_bad_inputs.sh COULOMB zeroed MESH       bake, zero 64 bytes at 75 % of the entry, bake twice
#   mesh_and_cache_bad_inputs.sh COULOMB replaced MESH VDB bake, replace the entry by VDB, bake twice
#   mesh_and_cache_bad_inputs.sh COULOMB full-disk MESH    bake with files limited to 1 KiB, list the cache
#   mesh_and_cache_bad_inputs.sh COULOMB run-zeroed SCENE  vdb_cache_corrupt.sh: run, zero 64 bytes of an entry, run
set -u
coulomb=$1
mode=$2
ulimit -v 1500000
run() {
  "$@" 2>&1
  echo "exit $?"
}
if [ "$mode" = bake ]; then
  run "$coulomb" bake "$3" --no-cache --quiet
  exit 0
fi
mesh=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bake() { run "$coulomb" bake "$mesh" --resolution 16 --cache-dir "$dir" --quiet; }
case $mode in
  zeroed | replaced)
    bake >/dev/null
    entry=$(ls "$dir"/*.vdb)
    if [ "$mode" = zeroed ]; then
      size=$(stat -c %s "$entry")
      dd if=/dev/zero of="$entry" bs=1 seek=$((size * 75 / 100)) count=64 conv=notrunc 2>/dev/null
    else
      cp "$4" "$entry"
    fi
    echo "--- damaged entry"
    bake
    echo "--- again"
    bake
    ;;
  run-zeroed)
    export COULOMB_CACHE=$dir
    "$coulomb" run "$mesh" --steps 2 --quiet >/dev/null 2>&1
    entry=$(ls "$dir"/sdf/*.vdb | head -1)
    size=$(stat -c %s "$entry")
    dd if=/dev/zero of="$entry" bs=1 seek=$((size * 75 / 100)) count=64 conv=notrunc 2>/dev/null
    echo "--- damaged entry"
    run "$coulomb" run "$mesh" --steps 2 --quiet
    ;;
  full-disk)
    # A write past 1 KiB fails (EFBIG) as on a full disk; SIGXFSZ ignored so write() returns.
    (trap "" XFSZ; ulimit -f 1; bake) | cat  # through a pipe: the limit is for files
    echo "cache files: $(ls -A "$dir" | wc -l)"
    ;;
esac
