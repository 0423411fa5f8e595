#!/usr/bin/env bash
# The tracing-overhead benchmark, run on the GPU machine with the built tree:
#   scripts/bench-overhead.sh [repetitions]      (default 7, at least 5)
# For two launch-bound loops - build/examples/launch_loop 100000 (C++) and
# examples/python/torch_add_loop.py (20,000 x.add_(1.0)) - it runs, interleaved:
#   untraced     the program alone
#   gpuscope     gpuscope run --quiet (kernels, copies and API calls traced into a report)
#   bare         the bare CUPTI consumer (bench/bare_consumer.cpp) through
#                CUDA_INJECTION64_PATH: the same activity kinds, records only counted
#   profiler     (torch loop only) the loop under torch.profiler, CPU + CUDA activities
#   metrics      gpuscope run --quiet --gpu-metrics (issue 13: PM sampling at 10 kHz on top of
#                tracing; target metrics/gpuscope <= 1.03)
# and prints medians and the ratios gpuscope/untraced and gpuscope/bare, for the loop itself
# (the program's own loop_ns: launches + final sync) and for the whole process (start-up,
# CUDA initialisation, report finalisation included), plus the report's bytes per event
# (report size / (kernels + API calls + memcpys)). Targets (issue 2): loop ratio <= 1.10
# against untraced, <= 1.05 against bare, <= 64 bytes per event.
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

reps=${1:-7}
[ "$reps" -ge 5 ] 2>/dev/null || bench_die "repetitions must be a number >= 5 (medians of >= 5 runs)"
gpuscope=$build/bin/gpuscope
bare=$build/lib/libbare_consumer.so
loop=$build/examples/launch_loop
report_events=$build/bench/report_events
torch_loop=$bench_root/examples/python/torch_add_loop.py
bench_need "$gpuscope" "$bare" "$loop" "$report_events" "$torch_loop"
bench_scratch

bare_env=(env "CUDA_INJECTION64_PATH=$bare" "NVTX_INJECTION64_PATH=$cupti_dir/libcupti.so.13"
          "LD_LIBRARY_PATH=$cupti_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")

# run_mode <bench> <mode> <rep>: one run; appends its loop and wall times to the bench's files.
run_mode() {
  local bench=$1 mode=$2 rep=$3
  local out=$bench_tmp/$bench.$mode.$rep.out err=$bench_tmp/$bench.$mode.$rep.err
  local report=$bench_tmp/$bench.sqlite
  local program
  if [ "$bench" = launch_loop ]; then program=("$loop" 100000); else program=("$python" "$torch_loop"); fi
  local command
  case $mode in
    untraced) command=("${program[@]}") ;;
    gpuscope) command=("$gpuscope" run --quiet -f -o "$report" -- "${program[@]}") ;;
    metrics) command=("$gpuscope" run --quiet --gpu-metrics -f -o "$bench_tmp/$bench.metrics.sqlite" -- "${program[@]}") ;;
    bare) command=("${bare_env[@]}" "${program[@]}") ;;
    profiler) command=("${program[@]}" --profiler) ;;
  esac
  local wall
  wall=$(bench_time "$out" "$err" "${command[@]}") || exit 1
  local loop_ns
  loop_ns=$(value_of loop_ns "$out")
  [ -n "$loop_ns" ] || bench_die "'${command[*]}' printed no loop_ns"
  echo "$loop_ns" >>"$bench_tmp/$bench.$mode.loop"
  echo "$wall" >>"$bench_tmp/$bench.$mode.wall"
  if [ "$mode" = bare ] && ! grep -q '^bare_consumer: records' "$err"; then
    bench_die "the bare consumer did not report (was it loaded?): $(tail -3 "$err")"
  fi
}

# bench <name> <modes...>: all repetitions, interleaved, the order rotating each time.
bench() {
  local name=$1
  shift
  local modes=("$@") n=$# rep i
  echo "bench-overhead: $name: $reps repetitions of: ${modes[*]}" >&2
  for ((rep = 0; rep < reps; rep++)); do
    for ((i = 0; i < n; i++)); do run_mode "$name" "${modes[(rep + i) % n]}" "$rep"; done
  done
}

# report <name> <modes...>: medians and ratios.
report() {
  local name=$1
  shift
  echo "== $name ($reps runs per mode, interleaved; medians)"
  printf '  %-10s %12s %12s\n' mode loop_ms process_ms
  local mode
  declare -A loop_median wall_median
  for mode in "$@"; do
    loop_median[$mode]=$(median <"$bench_tmp/$name.$mode.loop")
    wall_median[$mode]=$(median <"$bench_tmp/$name.$mode.wall")
    printf '  %-10s %12s %12s\n' "$mode" "$(ms "${loop_median[$mode]}")" "$(ms "${wall_median[$mode]}")"
  done
  echo "  gpuscope/untraced: loop $(ratio "${loop_median[gpuscope]}" "${loop_median[untraced]}")" \
       " process $(ratio "${wall_median[gpuscope]}" "${wall_median[untraced]}")   (target loop <= 1.10)"
  echo "  gpuscope/bare:     loop $(ratio "${loop_median[gpuscope]}" "${loop_median[bare]}")" \
       " process $(ratio "${wall_median[gpuscope]}" "${wall_median[bare]}")   (target loop <= 1.05)"
  echo "  bare/untraced:     loop $(ratio "${loop_median[bare]}" "${loop_median[untraced]}")" \
       " process $(ratio "${wall_median[bare]}" "${wall_median[untraced]}")   (the CUPTI floor)"
  if [ -n "${loop_median[metrics]:-}" ]; then
    echo "  metrics/gpuscope:  loop $(ratio "${loop_median[metrics]}" "${loop_median[gpuscope]}")" \
         " process $(ratio "${wall_median[metrics]}" "${wall_median[gpuscope]}")   (--gpu-metrics; target loop <= 1.03)"
  fi
  if [ -n "${loop_median[profiler]:-}" ]; then
    echo "  profiler/untraced: loop $(ratio "${loop_median[profiler]}" "${loop_median[untraced]}")" \
         " process $(ratio "${wall_median[profiler]}" "${wall_median[untraced]}")   (torch.profiler)"
  fi
  local events=$bench_tmp/$name.events
  if "$report_events" "$bench_tmp/$name.sqlite" >"$events" 2>&1; then
    echo "  report of the last gpuscope run: kernels $(value_of kernels "$events")," \
         "api_calls $(value_of api_calls "$events"), memcpys $(value_of memcpys "$events")," \
         "$(value_of report_bytes "$events") bytes -> $(value_of bytes_per_event "$events")" \
         "bytes/event (target <= 64)"
  else
    echo "  report of the last gpuscope run could not be read: $(tail -1 "$events")"
  fi
}

echo "bench-overhead: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)," \
     "$(date -u +%Y-%m-%dT%H:%MZ), build $build"
bench launch_loop untraced gpuscope bare metrics
if "$python" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  bench torch_add_loop untraced gpuscope bare profiler metrics
  have_torch=1
else
  echo "bench-overhead: torch with CUDA is not importable by $python: the PyTorch loop is skipped" >&2
  have_torch=0
fi
report launch_loop untraced gpuscope bare metrics
[ "$have_torch" = 1 ] && report torch_add_loop untraced gpuscope bare profiler metrics
exit 0
