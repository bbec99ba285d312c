#!/bin/sh
# Runs a command that must fail on a bad input (issue 13): non-zero exit (not a crash or signal),
# an error matching a regular expression, within 10 s and under 1 GiB peak resident memory.
# usage: expect_error.sh <extended regex> <command> [args...]
pattern=$1
shift
log=$(mktemp)
rss=$(mktemp)
trap 'rm -f "$log" "$rss"' EXIT
if [ -x /usr/bin/time ]; then
  timeout -s KILL 10 /usr/bin/time -f "%M" -o "$rss" "$@" >"$log" 2>&1
else
  timeout -s KILL 10 "$@" >"$log" 2>&1
fi
rc=$?
cat "$log"
if [ "$rc" -eq 0 ]; then echo "FAIL: exit status 0 (expected an error)"; exit 1; fi
if [ "$rc" -ge 124 ]; then echo "FAIL: exit status $rc (timeout, crash or signal)"; exit 1; fi
if ! grep -E -q -- "$pattern" "$log"; then echo "FAIL: no line matches: $pattern"; exit 1; fi
if [ -s "$rss" ]; then
  peak=$(tail -n 1 "$rss")
  echo "peak resident memory: $peak KiB"
  case "$peak" in ''|*[!0-9]*) ;; *)
    if [ "$peak" -gt 1048576 ]; then echo "FAIL: peak resident memory above 1 GiB"; exit 1; fi ;;
  esac
fi
echo "PASS: exit status $rc"
