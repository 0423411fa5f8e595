#!/usr/bin/env bash
# Peak memory that tracing adds, run on the GPU machine with the built tree:
#   scripts/bench-rss.sh [kernels]      (default 10,000,000)
# Runs build/examples/launch_loop <kernels> untraced, under `gpuscope run --quiet` and under
# `gpuscope run` (summary printed), each through build/bench/maxrss, which reports the peak
# RSS of the process tree (the largest single process: the traced program, or the launcher
# while it reads the report for the summary). Target (issue 2): tracing adds under 200 MB
# for 10 million kernels.
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

kernels=${1:-10000000}
gpuscope=$build/bin/gpuscope
loop=$build/examples/launch_loop
maxrss=$build/bench/maxrss
bench_need "$gpuscope" "$loop" "$maxrss"
bench_scratch

# measure <label> <command...>: prints "<label> <maxrss_kb> <wall_ms>".
measure() {
  local label=$1
  shift
  local out=$bench_tmp/$label.out err=$bench_tmp/$label.err
  if ! "$maxrss" "$@" >"$out" 2>"$err"; then
    echo "bench-rss: '$*' failed; its stderr:" >&2
    tail -20 "$err" >&2
    exit 1
  fi
  echo "$label $(value_of maxrss_kb "$err") $(value_of wall_ms "$err")"
}

echo "bench-rss: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)," \
     "$(date -u +%Y-%m-%dT%H:%MZ), launch_loop $kernels, build $build"
# One run each (peak RSS hardly varies), interleaving is moot; each may take a minute.
untraced=$(measure untraced "$loop" "$kernels") || exit 1
quiet=$(measure gpuscope_quiet "$gpuscope" run --quiet -f -o "$bench_tmp/rss.sqlite" -- "$loop" "$kernels") ||
  exit 1
summary=$(measure gpuscope_summary "$gpuscope" run -f -o "$bench_tmp/rss.sqlite" -- "$loop" "$kernels") ||
  exit 1
report_bytes=$(stat -c %s "$bench_tmp/rss.sqlite" 2>/dev/null || echo 0)

printf '  %-18s %12s %12s\n' run peak_rss_MB wall_s
for line in "$untraced" "$quiet" "$summary"; do
  read -r label kb wall_ms <<<"$line"
  printf '  %-18s %12.1f %12.1f\n' "$label" "$(awk -v k="$kb" 'BEGIN{print k/1024}')" \
         "$(awk -v w="$wall_ms" 'BEGIN{print w/1000}')"
done
base_kb=$(awk '{print $2}' <<<"$untraced")
for line in "$quiet" "$summary"; do
  read -r label kb _ <<<"$line"
  echo "  added by $label: $(awk -v a="$kb" -v b="$base_kb" 'BEGIN{printf "%.1f", (a-b)/1024}') MB" \
       "(target < 200 MB)"
done
echo "  report: $report_bytes bytes for $kernels kernels"
