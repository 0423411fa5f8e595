#!/usr/bin/env bash
# Which CUPTI activity kinds cost what on the launch path: build/examples/launch_loop 100000
# untraced and under the bare CUPTI consumer (bench/bare_consumer.cpp) with subsets of the
# kinds gpuscope enables (BARE_CONSUMER_KINDS, CUpti_ActivityKind numbers), interleaved,
# medians of the loop time (launches + final sync) and the ratio to untraced.
#   scripts/bench-kinds.sh [repetitions]      (default 5)
# Kinds: 10 CONCURRENT_KERNEL, 1 MEMCPY, 2 MEMSET, 5 RUNTIME, 4 DRIVER, 22 MEMCPY2,
# 49 MEMORY2, 38 SYNCHRONIZATION, 12 MARKER, 13 MARKER_DATA, 17 OVERHEAD, 8 DEVICE,
# 9 CONTEXT, 37 STREAM. "all" is the full list of src/cupti/tracing/README.md.
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

reps=${1:-5}
loop=$build/examples/launch_loop
bare=$build/lib/libbare_consumer.so
bench_need "$loop" "$bare"
bench_scratch

# name:kinds ("-" = untraced, "all" = the bare consumer's default list)
variants=(untraced:- kernel:10 runtime:5 driver:4 kernel+runtime:10,5 kernel+runtime+driver:10,5,4
          kernel+copies+api:10,1,2,5,4 all:all)

run_variant() {
  local name=${1%%:*} kinds=${1#*:} rep=$2
  local out=$bench_tmp/$name.$rep.out err=$bench_tmp/$name.$rep.err
  local command=("$loop" 100000)
  if [ "$kinds" != - ]; then
    command=(env "CUDA_INJECTION64_PATH=$bare" "LD_LIBRARY_PATH=$cupti_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    [ "$kinds" != all ] && command+=("BARE_CONSUMER_KINDS=$kinds")
    command+=("$loop" 100000)
  fi
  bench_time "$out" "$err" "${command[@]}" >/dev/null || exit 1
  value_of loop_ns "$out" >>"$bench_tmp/$name.loop"
}

echo "bench-kinds: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)," \
     "$(date -u +%Y-%m-%dT%H:%MZ), build $build, $reps repetitions, interleaved"
n=${#variants[@]}
for ((rep = 0; rep < reps; rep++)); do
  for ((i = 0; i < n; i++)); do run_variant "${variants[(rep + i) % n]}" "$rep"; done
done
base=$(median <"$bench_tmp/untraced.loop")
printf '  %-26s %10s %8s\n' variant loop_ms ratio
for v in "${variants[@]}"; do
  name=${v%%:*}
  m=$(median <"$bench_tmp/$name.loop")
  printf '  %-26s %10s %8s\n' "$name (${v#*:})" "$(ms "$m")" "$(ratio "$m" "$base")"
done
