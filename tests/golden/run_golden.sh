#!/usr/bin/env bash
# A diff test in Perfetto's style: runs `gpuscope <args>` on copies of recorded reports and
# compares what it prints (stdout, then stderr) with an expected file, byte for byte.
#   run_golden.sh <gpuscope> <expected file> <reports dir> <args...>
# Arguments naming a file in <reports dir> (by its bare name) are replaced by a copy in a
# temporary directory, so reading a report never writes next to the checked-in fixture
# (SQLite may create -shm/-wal files beside an unfinalized report).
# GOLDEN_UPDATE=1 rewrites the expected file instead of comparing (review the diff!).
set -uo pipefail
gpuscope=$1 expected=$2 reports=$3
shift 3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_golden_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
args=()
for arg in "$@"; do
  if [ -f "$reports/$arg" ]; then
    cp "$reports/$arg" "$scratch/$arg"
    args+=("$scratch/$arg")
  else
    args+=("$arg")
  fi
done
actual=$scratch/actual.txt
(cd "$scratch" && "$gpuscope" "${args[@]}" >"$actual.out" 2>"$actual.err"; echo "exit $?" >"$actual.rc")
{ cat "$actual.out"; echo "--- stderr"; sed "s#$scratch/##g" "$actual.err"; cat "$actual.rc"; } >"$actual"
if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
  cp "$actual" "$expected"
  echo "golden: wrote $expected"
  exit 0
fi
if ! diff -u "$expected" "$actual"; then
  echo "golden: output differs from $expected (GOLDEN_UPDATE=1 rewrites it; review the diff)" >&2
  exit 1
fi
