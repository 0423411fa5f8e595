#!/usr/bin/env bash
# Records, on the GPU machine, the reports the GPU-free tests read back (tests/data/reports,
# whose README lists them), named after the card (h100_*, h200_*):
#   <card>_add.sqlite           gpuscope run of reference 002's program (examples/add)
#   <card>_nvtx_ranges.sqlite   gpuscope run of examples/nvtx_ranges (ranges, marks, a domain)
#   <card>_gpu_metrics.sqlite   gpuscope run --gpu-metrics of examples/gpu_metrics_phases, its
#                               PM sampling session recorded too (GPUSCOPE_PM_SAMPLING_RECORD):
#   gpu_metrics_phases.pmrec    -> tests/data/pm_sampling/ (tests/cupti/pm_sampling plays it back)
#   <card>_metrics_full.sqlite  gpuscope profile --set full of examples/metrics_kernels (counter
#                               data of 14 launches with timestamps, SASS, source lines and
#                               warp-stall samples)
#   OUT/*.txt                   what each command printed
# Usage (on the GPU machine, after scripts/pack-for-device.sh here):
#   GPUSCOPE_BUILD_DIR=build-device scripts/record-report-fixtures.sh OUTDIR
# then copy OUTDIR/*.sqlite to tests/data/reports/ and update the expected outputs
# (GOLDEN_UPDATE=1 ctest --test-dir build -R golden_; review that diff like code).
set -u
cd "$(dirname "$0")/.."
out=${1:?usage: record-report-fixtures.sh OUTDIR}
build=${GPUSCOPE_BUILD_DIR:-build}
gs=$build/bin/gpuscope
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[0-9]00' | head -1 | tr 'A-Z' 'a-z')
card=${card:-gpu}
mkdir -p "$out"
status=0
record() {  # record NAME gpuscope-arguments...
  local name=$1
  shift
  echo "== $name: gpuscope $*" >&2
  "$gs" "$@" >"$out/$name.txt" 2>&1 || { echo "   failed: see $out/$name.txt" >&2; status=1; }
}
record add run -f -o "$out/${card}_add.sqlite" -- "$build/examples/add"
record nvtx_ranges run -f -o "$out/${card}_nvtx_ranges.sqlite" -- "$build/examples/nvtx_ranges"
GPUSCOPE_PM_SAMPLING_RECORD="$out/gpu_metrics_phases.pmrec" \
  record gpu_metrics run -f --gpu-metrics -o "$out/${card}_gpu_metrics.sqlite" -- \
  "$build/examples/gpu_metrics_phases"
# One file per device sampled (".<device>"); the tests play device 0's.
mv -f "$out/gpu_metrics_phases.pmrec.0" "$out/gpu_metrics_phases.pmrec" 2>/dev/null ||
  { echo "   no PM sampling recording was written" >&2; status=1; }
record metrics_full profile --set full -k 'regex:^k_' -f -o "$out/${card}_metrics_full.sqlite" -- \
  "$build/examples/metrics_kernels"
ls -la "$out" >&2
exit $status
