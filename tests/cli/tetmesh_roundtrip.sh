#!/bin/sh
# `coulomb tetmesh` end to end (issue 14): tetrahedralise a closed surface into a .msh, then read
# that .msh back and write it again: the two files must be byte-identical (the reader returns the
# mesh the writer was given). Prints both runs' output and "read back identical" or FAIL.
# usage: tetmesh_roundtrip.sh COULOMB SURFACE OUTDIR
set -u
coulomb=$1
surface=$2
dir=$3
rm -rf "$dir" && mkdir -p "$dir" || exit 1
"$coulomb" tetmesh "$surface" -o "$dir/first.msh" --max-volume 0.05 --quality 1.5 || { echo "FAIL: exit $?"; exit 1; }
"$coulomb" tetmesh "$dir/first.msh" -o "$dir/second.msh" || { echo "FAIL: reading back, exit $?"; exit 1; }
if cmp -s "$dir/first.msh" "$dir/second.msh"; then echo "read back identical"; else echo "FAIL: the files differ"; exit 1; fi
