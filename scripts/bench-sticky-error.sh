#!/usr/bin/env bash
# After a sticky CUDA error, and at what cost, run on the GPU machine with the built tree:
#   scripts/bench-sticky-error.sh [repetitions]      (default 15, at least 5)
# With build/bench/sticky_error_probe (a bare CUPTI client, not gpuscope), for CUPTI's timestamp
# buffers in device memory (CUPTI's default) and in pinned host memory (what gpuscope sets):
#   recovered   kernels and timed kernels delivered by a forced flush inside the failed
#               cudaDeviceSynchronize, after 100 completed kernels and an illegal address / a
#               failed device assert
#   loop        a 100,000-kernel launch loop under kernel tracing, interleaved, the order
#               rotating each repetition: medians, min-max, and pinned/device
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

reps=${1:-15}
[ "$reps" -ge 5 ] 2>/dev/null || bench_die "repetitions must be a number >= 5"
probe=$build/bench/sticky_error_probe
bench_need "$probe"
bench_scratch

echo "bench-sticky-error: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ)"
for fault in illegal assert; do
  for where in device pinned; do
    echo "  recovered $fault $where: $("$probe" recover "$fault" "$where" 2>/dev/null | sed -n 's/.*recovered: //p')"
  done
done
for rep in $(seq "$reps"); do
  order=(device pinned)
  [ $((rep % 2)) -eq 0 ] && order=(pinned device)
  for where in "${order[@]}"; do
    "$probe" loop 100000 "$where" >"$bench_tmp/out" 2>&1 || bench_die "the loop failed: $(tail -3 "$bench_tmp/out")"
    value_of loop_ns "$bench_tmp/out" >>"$bench_tmp/$where"
  done
done
for where in device pinned; do
  echo "  loop $where: median $(ms "$(median <"$bench_tmp/$where")") ms, min $(ms "$(sort -g "$bench_tmp/$where" | head -1)") max $(ms "$(sort -g "$bench_tmp/$where" | tail -1)") (n=$reps)"
done
echo "  pinned/device: $(ratio "$(median <"$bench_tmp/pinned")" "$(median <"$bench_tmp/device")")"
