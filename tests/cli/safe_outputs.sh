#!/usr/bin/env bash
# Issue 19 end to end through the CLI: outputs that never lie. Prints what happened; CTest
# matches the lines.
#   safe_outputs.sh COULOMB SCENE input      --trace / --record / --save-session onto the scene or an
#                                            included file or a mesh, replay --csv onto the recording: refused
#                                            (exit 2), the inputs unchanged
#   safe_outputs.sh COULOMB SCENE efbig MESH every output with files limited to 1 KiB (a write fails
#                                            part way): exit 1, the previous file kept, no temporary
#   safe_outputs.sh COULOMB SCENE tmpfs MESH the same on a real full 64 KiB tmpfs (ENOSPC), in a private
#                                            mount namespace (unshare -rm); "skipped: ..." where unavailable
#   safe_outputs.sh COULOMB usage ARGS...    a bad argument: exit 2 with a usage message
set -u
coulomb=$1
if [ "$2" = usage ]; then
  shift 2
  out=$("$coulomb" "$@" 2>&1)
  rc=$?
  printf '%s\nexit %d\n' "$out" "$rc"
  case $out in *usage:*) echo "usage shown" ;; esac
  exit 0
fi
scene=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$scene" "$dir/scene.xml"

# Runs a command, prints "<label>: exit N" and the command's stderr.
run() {
  label=$1
  shift
  "$@" >/dev/null 2>"$dir/.stderr"
  rc=$?
  echo "$label: exit $rc"
  cat "$dir/.stderr"
}
# "<file>: kept" when it still holds "previous", and the count of other files in its folder.
check_kept() {
  if [ "$(cat "$1")" = previous ]; then echo "$(basename "$1"): kept"; else echo "$(basename "$1"): REPLACED"; fi
}
leftovers() { echo "leftovers: $(ls -A "$1" | grep -v -x -e .stderr -e scene.xml -e mesh.obj -e out.csv -e out.json \
  -e out.rec -e out.vdb | wc -l)"; }

case $3 in
  input)
    printf '<scene>\n  <include file="part.xml"/>\n  <body name="b" pos="0 0 1"><box size="0.1 0.1 0.1"/></body>\n</scene>\n' >"$dir/scene.xml"
    printf '<scene>\n  <body name="c" pos="0 0 2"><sphere radius="0.1"/></body>\n</scene>\n' >"$dir/part.xml"
    cp "$dir/scene.xml" "$dir/scene.orig"
    cp "$dir/part.xml" "$dir/part.orig"
    run "trace onto the scene" "$coulomb" run "$dir/scene.xml" --steps 2 --trace "$dir/scene.xml"
    run "record onto the include" "$coulomb" run "$dir/scene.xml" --steps 2 --record "$dir/part.xml"
    run "session onto the scene via ./" "$coulomb" run "$dir/scene.xml" --steps 2 --save-session "$dir/./scene.xml"
    run "session" "$coulomb" run "$dir/scene.xml" --steps 2 --save-session "$dir/session.rec"
    cp "$dir/session.rec" "$dir/session.orig"
    run "replay csv onto the recording" "$coulomb" replay "$dir/session.rec" --csv "$dir/session.rec"
    # A file the scene references (a convex hull's OBJ) is an input too.
    printf 'v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' >"$dir/hull.obj"
    printf '<scene>\n  <body name="h" pos="0 0 1"><convex file="hull.obj"/></body>\n</scene>\n' >"$dir/hull_scene.xml"
    cp "$dir/hull.obj" "$dir/hull.orig"
    run "trace onto a mesh" "$coulomb" run "$dir/hull_scene.xml" --steps 2 --trace "$dir/hull.obj"
    cmp -s "$dir/scene.xml" "$dir/scene.orig" && cmp -s "$dir/part.xml" "$dir/part.orig" &&
      cmp -s "$dir/session.rec" "$dir/session.orig" && cmp -s "$dir/hull.obj" "$dir/hull.orig" && echo "inputs unchanged"
    ;;
  efbig | tmpfs)
    mode=$3
    mesh=$4
    cp "$mesh" "$dir/mesh.obj"
    out=$dir
    if [ "$mode" = tmpfs ]; then
      # Re-run this script's outputs inside a private mount namespace with a full tmpfs at $dir/full.
      mkdir -p "$dir/full"
      if ! unshare -rm true 2>/dev/null; then
        echo "skipped: unshare -rm is not allowed here (no private tmpfs)"
        exit 0
      fi
      exec unshare -rm bash -c '
        set -u
        dir=$1; coulomb=$2
        mount -t tmpfs -o size=64k tmpfs "$dir/full" || { echo "skipped: cannot mount a tmpfs"; exit 0; }
        for f in out.csv out.json out.rec out.vdb; do echo previous >"$dir/full/$f"; done
        run() { label=$1; shift; "$@" >/dev/null 2>"$dir/.stderr"; echo "$label: exit $?"; cat "$dir/.stderr"; }
        run record "$coulomb" run "$dir/scene.xml" --steps 1500 --quiet --record "$dir/full/out.csv"
        run trace "$coulomb" run "$dir/scene.xml" --steps 400 --quiet --trace "$dir/full/out.json"
        run session "$coulomb" run "$dir/scene.xml" --steps 4000 --quiet --save-session "$dir/full/out.rec"
        run bake "$coulomb" bake "$dir/mesh.obj" --resolution 64 --no-cache --quiet -o "$dir/full/out.vdb"
        for f in out.csv out.json out.rec out.vdb; do
          if [ "$(cat "$dir/full/$f")" = previous ]; then echo "$f: kept"; else echo "$f: REPLACED"; fi
        done
        echo "files on the tmpfs: $(ls -A "$dir/full" | wc -l)"
      ' tmpfs "$dir" "$coulomb"
    fi
    for f in out.csv out.json out.rec out.vdb; do echo previous >"$out/$f"; done
    # A write past 1 KiB fails (EFBIG) as on a full disk; SIGXFSZ ignored so write() returns.
    limited() { (trap "" XFSZ; ulimit -f 1; "$@"); }
    run record limited "$coulomb" run "$dir/scene.xml" --steps 200 --quiet --record "$out/out.csv"
    run trace limited "$coulomb" run "$dir/scene.xml" --steps 200 --quiet --trace "$out/out.json"
    run session limited "$coulomb" run "$dir/scene.xml" --steps 400 --quiet --save-session "$out/out.rec"
    run bake limited "$coulomb" bake "$dir/mesh.obj" --resolution 32 --no-cache --quiet -o "$out/out.vdb"
    for f in out.csv out.json out.rec out.vdb; do check_kept "$out/$f"; done
    leftovers "$out"
    ;;
esac
