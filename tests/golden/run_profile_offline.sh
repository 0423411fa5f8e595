#!/usr/bin/env bash
# Offline evaluation, end to end: a report recorded by `gpuscope profile` on the H200 loses its
# evaluated metrics (kernel_metrics emptied, as in a report whose program was killed), and
# `gpuscope stats --page details` on this GPU-less machine must evaluate the stored counter
# data again with CUPTI's host API and print exactly what the H200 printed.
#   run_profile_offline.sh <gpuscope> <expected file> <report>
set -uo pipefail
gpuscope=$1 expected=$2 report=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_offline_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
name=$(basename "$report")
cp "$report" "$scratch/$name"
sqlite3 "$scratch/$name" "DELETE FROM kernel_metrics" || exit 1
left=$(sqlite3 "$scratch/$name" "SELECT count(*) FROM kernel_metrics")
[ "$left" = 0 ] || { echo "offline: kernel_metrics not emptied" >&2; exit 1; }
(cd "$scratch" && "$gpuscope" stats --page details "$name" >"$scratch/actual.out" 2>"$scratch/actual.err"; echo "exit $?" >"$scratch/actual.rc")
{ cat "$scratch/actual.out"; echo "--- stderr"; cat "$scratch/actual.err"; cat "$scratch/actual.rc"; } >"$scratch/actual"
evaluated=$(sqlite3 "$scratch/$name" "SELECT count(*) FROM kernel_metrics")
[ "$evaluated" -gt 0 ] || { echo "offline: nothing was evaluated" >&2; exit 1; }
if ! diff -u "$expected" "$scratch/actual"; then
  echo "offline: evaluation here differs from the H200's ($expected)" >&2
  exit 1
fi
