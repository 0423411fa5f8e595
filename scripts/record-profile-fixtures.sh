#!/usr/bin/env bash
# Records, on the GPU machine, what the GPU-free tests of `gpuscope profile` read back, and
# Nsight Compute's numbers for the same launches:
#   OUT/<card>_metrics_full.sqlite  gpuscope profile --set full of examples/metrics_kernels (h100_, h200_)
#                                 (counter data of 14 launches of 10 kernels)
#   OUT/ours_raw.csv, OUT/ncu_raw.csv   the metrics of tests/data/profile/gh100_section_metrics.txt
#                                 from gpuscope and from `ncu --clock-control none --cache-control
#                                 none` (gpuscope cannot flush caches between passes yet), raw CSV
#   OUT/*.txt, OUT/*.err          what each command printed
# Usage (on the GPU machine, after scripts/pack-for-device.sh here):
#   GPUSCOPE_BUILD_DIR=build-device scripts/record-profile-fixtures.sh OUT
# The fixtures checked in under tests/data/profile/ come from this script (see its README).
set -u
cd "$(dirname "$0")/.."
out=${1:?usage: record-profile-fixtures.sh OUTDIR}
build=${GPUSCOPE_BUILD_DIR:-build}
mkdir -p "$out"
gs=$build/bin/gpuscope
app=$build/examples/metrics_kernels
metrics=$(grep -v '^#' tests/data/profile/gh100_section_metrics.txt | grep -v '^$' | paste -sd, -)
step() { echo "== $*" >&2; }
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[0-9]00' | head -1 | tr 'A-Z' 'a-z')
card=${card:-gpu}

step "gpuscope profile --set full"
GPUSCOPE_DEBUG=${GPUSCOPE_DEBUG:-0} /usr/bin/time -f "wall %e s" \
  "$gs" profile --set full -k 'regex:^k_' -f -o "$out/${card}_metrics_full.sqlite" -- "$app" \
  >"$out/profile_full.txt" 2>"$out/profile_full.err"
echo "exit $?" >>"$out/profile_full.err"
"$gs" stats "$out/${card}_metrics_full.sqlite" >"$out/stats_full.txt" 2>&1

step "gpuscope profile --csv --page raw (comparison list)"
/usr/bin/time -f "wall %e s" "$gs" profile --csv --page raw --metrics "$metrics" -k 'regex:^k_' \
  -f -o "$out/h200_metrics_raw.sqlite" -- "$app" >"$out/ours_raw.csv" 2>"$out/ours_raw.err"
echo "exit $?" >>"$out/ours_raw.err"

step "ncu --csv --page raw (same list)"
/usr/bin/time -f "wall %e s" ncu --csv --page raw --print-units base --clock-control none --cache-control none \
  --metrics "$metrics" -k 'regex:^k_' "$app" >"$out/ncu_raw.csv" 2>"$out/ncu_raw.err"
echo "exit $?" >>"$out/ncu_raw.err"

step "program alone"
/usr/bin/time -f "wall %e s" "$app" >"$out/app_alone.txt" 2>&1
ls -la "$out" >&2
