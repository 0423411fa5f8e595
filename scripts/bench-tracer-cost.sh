#!/usr/bin/env bash
# What each activity kind and each API-capture method costs (issue 15), on the GPU machine
# with the built tree, every variant side by side in one run, interleaved (the order rotates
# each repetition), medians with their spread, loop times measured inside the programs:
#   scripts/bench-tracer-cost.sh [--reps N] [--only a,b,c,d] [--variants v1,v2,...]
#                                [--budget-s S] [--list]
# Workloads (what is reported):
#   a  build/examples/launch_loop 100000: tiny kernels from C++      (ns per launch)
#   b  20,000 x.add_(1.0) (examples/python/torch_add_loop.py)        (ns per launch)
#   c  MNIST-shaped training loop, batch 64, 200 steps               (us per step)
#      (examples/python/torch_mnist_loop.py); b and c run in ONE python process per run
#      (bench/torch_cost_loops.py), so torch's import and CUDA's start are paid once
#   d  build/examples/graph_replay 20000: one 6-node graph replayed  (ns per graph launch)
# Variants (--list prints them; a variant that does not apply to a workload is skipped):
#   untraced   the program alone
#   kernel     the bare CUPTI consumer (bench/bare_consumer.cpp) with kernel records only:
#              the floor no CUPTI tracer goes below
#   copies     + MEMCPY, MEMCPY2, MEMSET records
#   runtime    + RUNTIME API records
#   driver     + DRIVER API records
#   gpuscope   `gpuscope run`, its default capture
#   activity   `gpuscope run --api-capture activity`   (API activity records)
#   callback   `gpuscope run --api-capture callback`   (callback API, own timestamps,
#              hot no-op calls counted in aggregate)
#   graph      `gpuscope run --cuda-graph-trace graph` (d only)
#   cuda-only  `gpuscope run --trace cuda` (no NVTX)
#   backtrace  `gpuscope run --backtrace`, only when `gpuscope run --help` lists it
#   gpu-metrics `gpuscope run --gpu-metrics` (issue 13: PM sampling at the default rate; with
#              gpuscope chosen too, the ratio gpu-metrics/gpuscope is printed: target <= 1.03,
#              e.g. --only a,b,c --variants untraced,gpuscope,gpu-metrics)
#   profiler   torch.profiler, CPU + CUDA activities (b and c only)
# Defaults: 15 repetitions, every workload, the variants untraced kernel copies runtime driver
# gpuscope callback graph profiler (add others by name, e.g. --variants ...,backtrace).
# A run of b+c costs ~3 s (torch's import and CUDA start), one of a or d under 1 s, so all four
# take ~9 minutes: run `--only a,d` (~3 min) and `--only b,c` (~6 min) as two commands (each
# workload's variants stay interleaved within its command). --budget-s (default 450) stops
# after the repetition that would otherwise run past it, and says so: medians of fewer runs.
# GPUSCOPE_BUILD_DIR (default build/), GPUSCOPE_PYTHON (default /opt/torch/.venv/bin/python3
# when it exists, else python3), GPUSCOPE_CUPTI_DIR as for the other bench scripts;
# BENCH_KEEP=1 keeps the scratch directory (every run's output).
set -uo pipefail
[ -z "${GPUSCOPE_PYTHON:-}" ] && [ -x /opt/torch/.venv/bin/python3 ] &&
  export GPUSCOPE_PYTHON=/opt/torch/.venv/bin/python3
source "$(dirname "$0")/bench-common.sh"

all_variants=(untraced kernel copies runtime driver gpuscope activity callback graph cuda-only
              backtrace gpu-metrics profiler)
reps=15
only=a,b,c,d
variants=untraced,kernel,copies,runtime,driver,gpuscope,callback,graph,profiler
budget_s=450
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=${2:-}; shift 2 ;;
    --only) only=${2:-}; shift 2 ;;
    --variants) variants=${2:-}; shift 2 ;;
    --budget-s) budget_s=${2:-}; shift 2 ;;
    --list) printf '%s\n' "${all_variants[@]}"; exit 0 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) bench_die "unknown argument '$1' (see --help)" ;;
  esac
done
[ "$reps" -ge 5 ] 2>/dev/null || bench_die "--reps must be a number >= 5"
[ "$budget_s" -gt 0 ] 2>/dev/null || bench_die "--budget-s must be a positive number of seconds"
IFS=, read -ra workloads <<<"$only"
IFS=, read -ra chosen <<<"$variants"
for w in "${workloads[@]}"; do
  case $w in a|b|c|d) ;; *) bench_die "unknown workload '$w' (valid: a, b, c, d)" ;; esac
done
for v in "${chosen[@]}"; do
  [[ " ${all_variants[*]} " == *" $v "* ]] || bench_die "unknown variant '$v' (valid: ${all_variants[*]})"
done

gpuscope=$build/bin/gpuscope
bare=$build/lib/libbare_consumer.so
loop=$build/examples/launch_loop
graph=$build/examples/graph_replay
torch_loops=$bench_root/bench/torch_cost_loops.py
bench_need "$gpuscope" "$bare" "$loop" "$graph" "$torch_loops"
bench_scratch

# Options of `gpuscope run` that this build may not have yet: a variant that needs one is
# skipped with a note instead of failing the whole run.
run_help=$("$gpuscope" run --help 2>&1)
has_option() { [[ "$run_help" == *"$1"* ]]; }

# Workload b and c share one process: "bc" is what runs, b and c are what is reported.
runs=()
for w in "${workloads[@]}"; do
  case $w in
    a) runs+=(a) ;;
    d) runs+=(d) ;;
    b|c) [[ " ${runs[*]} " == *" bc "* ]] || runs+=(bc) ;;
  esac
done
if [[ " ${runs[*]} " == *" bc "* ]] &&
   ! "$python" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
  echo "bench-tracer-cost: torch with CUDA is not importable by $python: b and c are skipped" >&2
  runs=("${runs[@]/bc/}")
fi

# applies <run> <variant>: whether the variant is measured on that run ("" = yes, else why not)
applies() {
  case $2 in
    profiler) [ "$1" = bc ] || echo "torch.profiler: PyTorch workloads only" ;;
    graph) [ "$1" = d ] || echo "graph launches: workload d only"
           has_option --cuda-graph-trace || echo "this gpuscope has no --cuda-graph-trace" ;;
    activity|callback) has_option --api-capture || echo "this gpuscope has no --api-capture" ;;
    cuda-only) has_option '--trace' || echo "this gpuscope has no --trace" ;;
    backtrace) has_option --backtrace || echo "this gpuscope has no --backtrace (gpuscope run --help)" ;;
    gpu-metrics) has_option --gpu-metrics || echo "this gpuscope has no --gpu-metrics (gpuscope run --help)" ;;
  esac
}

bare_env() { # bare_env <kinds>: the bare consumer with only those CUpti_ActivityKind numbers
  echo env "CUDA_INJECTION64_PATH=$bare" "LD_LIBRARY_PATH=$cupti_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "BARE_CONSUMER_KINDS=$1"
}

# run_one <run> <variant> <rep>: one run; appends its loop values to the files of its workloads.
run_one() {
  local run=$1 variant=$2 rep=$3
  local out=$bench_tmp/$run.$variant.$rep.out err=$bench_tmp/$run.$variant.$rep.err
  local report=$bench_tmp/$run.$variant.sqlite
  local program
  case $run in
    a) program=("$loop" 100000) ;;
    d) program=("$graph" 20000) ;;
    bc) program=("$python" "$torch_loops") ;;
  esac
  local gs=("$gpuscope" run --quiet -f -o "$report")
  local command
  case $variant in
    untraced) command=("${program[@]}") ;;
    kernel) command=($(bare_env 10) "${program[@]}") ;;
    copies) command=($(bare_env 10,1,22,2) "${program[@]}") ;;
    runtime) command=($(bare_env 10,1,22,2,5) "${program[@]}") ;;
    driver) command=($(bare_env 10,1,22,2,5,4) "${program[@]}") ;;
    gpuscope) command=("${gs[@]}" -- "${program[@]}") ;;
    activity) command=("${gs[@]}" --api-capture activity -- "${program[@]}") ;;
    callback) command=("${gs[@]}" --api-capture callback -- "${program[@]}") ;;
    graph) command=("${gs[@]}" --cuda-graph-trace graph -- "${program[@]}") ;;
    cuda-only) command=("${gs[@]}" --trace cuda -- "${program[@]}") ;;
    backtrace) command=("${gs[@]}" --backtrace -- "${program[@]}") ;;
    gpu-metrics) command=("${gs[@]}" --gpu-metrics -- "${program[@]}") ;;
    profiler) command=("${program[@]}" --profiler) ;;
  esac
  bench_time "$out" "$err" "${command[@]}" >/dev/null || exit 1
  case $run in
    a) record a "$(value_of loop_ns "$out")" 100000 ;;
    d) record d "$(value_of loop_ns "$out")" 20000 ;;
    bc) record b "$(value_of add_loop_ns "$out")" 20000
        record c "$(value_of mnist_loop_ns "$out")" 200000 ;;  # us per step
  esac
}

# record <workload> <loop ns> <divisor>: the loop per unit (ns per launch, us per step)
record() {
  [ -n "$2" ] || bench_die "workload $1, variant $variant: the program printed no loop time (see ${BENCH_KEEP:+$bench_tmp}${BENCH_KEEP:-BENCH_KEEP=1})"
  awk -v ns="$2" -v n="$3" 'BEGIN { printf "%.1f\n", ns / n }' >>"$bench_tmp/$1.$variant.values"
}

# stats < values: "median q1 q3 min max"
stats() {
  sort -g | awk '{v[NR] = $1}
    function q(p,  h, l) { h = (NR - 1) * p + 1; l = int(h); return v[l] + (h - l) * (v[l + 1 < NR ? l + 1 : NR] - v[l]) }
    END { if (NR == 0) { print "nan nan nan nan nan"; exit }
          printf "%.1f %.1f %.1f %.1f %.1f\n", q(0.5), q(0.25), q(0.75), v[1], v[NR] }'
}

declare -A active notes
for run in "${runs[@]}"; do
  [ -n "$run" ] || continue
  list=()
  for v in "${chosen[@]}"; do
    why=$(applies "$run" "$v")
    if [ -z "$why" ]; then list+=("$v"); else notes[$run.$v]=$why; fi
  done
  active[$run]="${list[*]}"
done

echo "bench-tracer-cost: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)," \
     "$(date -u +%Y-%m-%dT%H:%MZ), build $build, python $python, $reps repetitions, interleaved"
started=$(date +%s)
for ((rep = 0; rep < reps; rep++)); do
  for run in "${runs[@]}"; do
    [ -n "$run" ] || continue
    read -ra list <<<"${active[$run]}"
    n=${#list[@]}
    for ((i = 0; i < n; i++)); do run_one "$run" "${list[(rep + i) % n]}" "$rep"; done
  done
  elapsed=$(( $(date +%s) - started ))
  echo "bench-tracer-cost: repetition $((rep + 1))/$reps done, $elapsed s" >&2
  if [ $((rep + 1)) -lt "$reps" ] && [ $((elapsed + elapsed / (rep + 1))) -gt "$budget_s" ]; then
    echo "bench-tracer-cost: NOTE: stopped after $((rep + 1)) of $reps repetitions: another would pass --budget-s $budget_s"
    reps=$((rep + 1))
    break
  fi
done

unit_of() { case $1 in a|b) echo "ns/launch" ;; c) echo "us/step" ;; d) echo "ns/graph" ;; esac; }
title_of() {
  case $1 in
    a) echo "(a) launch_loop 100000 tiny kernels" ;;
    b) echo "(b) 20,000 x.add_(1.0)" ;;
    c) echo "(c) MNIST-shaped training loop, batch 64, 200 steps" ;;
    d) echo "(d) graph_replay: 20,000 launches of a 6-node graph" ;;
  esac
}
for w in a b c d; do
  case $w in a) run=a ;; d) run=d ;; *) run=bc ;; esac
  [[ " ${workloads[*]} " == *" $w "* ]] && [[ " ${runs[*]} " == *" $run "* ]] || continue
  echo
  echo "== $(title_of $w): medians of $reps interleaved runs, loop time inside the program"
  printf '  %-10s %12s %12s %12s %12s %12s %9s %9s\n' variant "median" q1 q3 min max x_untraced x_kernel
  base=$(stats <"$bench_tmp/$w.untraced.values" 2>/dev/null | cut -d' ' -f1)
  floor=$(stats <"$bench_tmp/$w.kernel.values" 2>/dev/null | cut -d' ' -f1)
  for v in "${chosen[@]}"; do
    file=$bench_tmp/$w.$v.values
    if [ ! -s "$file" ]; then
      [ -n "${notes[$run.$v]:-}" ] && [ "$v" != profiler ] && [ "$v" != graph ] &&
        printf '  %-10s skipped: %s\n' "$v" "${notes[$run.$v]}"
      continue
    fi
    read -r med q1 q3 lo hi <<<"$(stats <"$file")"
    printf '  %-10s %12s %12s %12s %12s %12s %9s %9s\n' "$v" "$med" "$q1" "$q3" "$lo" "$hi" \
      "$(ratio "$med" "${base:-0}")" "$(ratio "$med" "${floor:-0}")"
  done
  echo "  ($(unit_of $w); x_untraced, x_kernel: median / median of untraced, of kernel records only)"
  # Issue 13's budget: PM sampling at the default rate on top of `gpuscope run`.
  if [ -s "$bench_tmp/$w.gpu-metrics.values" ] && [ -s "$bench_tmp/$w.gpuscope.values" ]; then
    echo "  gpu-metrics/gpuscope: $(ratio "$(stats <"$bench_tmp/$w.gpu-metrics.values" | cut -d' ' -f1)" \
      "$(stats <"$bench_tmp/$w.gpuscope.values" | cut -d' ' -f1)")   (--gpu-metrics over run; target <= 1.03)"
  fi
done
echo
echo "bench-tracer-cost: $(( $(date +%s) - started )) s in all"
exit 0
