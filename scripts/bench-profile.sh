#!/usr/bin/env bash
# The speed benchmarks of `gpuscope profile` (issue 3), run on the GPU machine with the built
# tree (after scripts/gpu-tests.sh or scripts/setup.sh --build-all):
#   scripts/bench-profile.sh OUTDIR [repetitions]      (default 3, at least 1)
#
# (a) One kernel of the Numba convolution (examples/python/numba_convolve.py, the program of
#     reference 000), side by side, interleaved (the order rotates each repetition):
#       alone            python3 numba_convolve.py
#       ncu              ncu --set full --import-source yes --clock-control none -k regex:convolve
#                        -c 1 python3 ...  (source counters on both sides: issue 11)
#       ncu_nomatch      the same with -k regex:NO_SUCH_KERNEL (ncu's one-time start cost)
#       gpuscope         gpuscope profile --set full -k regex:convolve -c 1 -- python3 ...
#       gpuscope_nomatch the same with -k regex:NO_SUCH_KERNEL (gpuscope's one-time start cost)
#     Goals: gpuscope / ncu <= 0.5 in total wall time (issue 3), <= 0.4 with the source counters
#     that --set full includes on both sides (issue 11). Start cost = <tool>_nomatch - alone;
#     per-kernel cost = <tool> - <tool>_nomatch.
# (b) many_kernels (10,000 launches, one of them k_target): `gpuscope run` against
#     `gpuscope profile -k k_target -c 1`, best of the repetitions each. Goal: <= 1.2x, for the
#     whole process and for the program's own launch loop (loop_ns).
#
# Writes to OUTDIR: bench-profile.md (the RESULTS-ready block, also printed), times.tsv (every
# run: part, mode, repetition, wall ns, loop ns), logs/ (each run's stdout and stderr).
# Exit status: 0 every measurement ran and every goal was met; 1 they ran and a goal was
# missed; 2 something could not run (missing tool, failed command: the reason is printed).
# Environment: GPUSCOPE_BUILD_DIR (default build), GPUSCOPE_PYTHON (default python3),
# GPUSCOPE_NCU (default ncu on PATH, else /usr/local/cuda/bin/ncu).
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || bench_die "usage: scripts/bench-profile.sh OUTDIR [repetitions]"
outdir=$1
reps=${2:-3}
[ "$reps" -ge 1 ] 2>/dev/null || bench_die "repetitions must be a number >= 1"
mkdir -p "$outdir/logs" || bench_die "cannot create $outdir/logs"
outdir=$(cd "$outdir" && pwd)

gpuscope=$build/bin/gpuscope
many=$build/examples/many_kernels
conv=$bench_root/examples/python/numba_convolve.py
ncu=${GPUSCOPE_NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
bench_need "$gpuscope" "$many" "$conv"
bench_scratch
times=$outdir/times.tsv
printf 'part\tmode\trep\twall_ns\tloop_ns\n' >"$times"
status=0           # worst outcome so far: 0 ok, 1 goal missed, 2 could not run
results=()         # lines of the RESULTS block

note() { echo "bench-profile: $*" >&2; }
worsen() { [ "$1" -gt "$status" ] && status=$1; }

# run_once <part> <mode> <rep> <command...>: one timed run; logs kept; appends to times.tsv.
run_once() {
  local part=$1 mode=$2 rep=$3
  shift 3
  local log=$outdir/logs/$part.$mode.$rep
  local wall
  wall=$(bench_time "$log.out" "$log.err" "$@") || return 1
  local loop
  loop=$(value_of loop_ns "$log.out")
  printf '%s\t%s\t%s\t%s\t%s\n' "$part" "$mode" "$rep" "$wall" "${loop:-}" >>"$times"
}

# column <part> <mode> <wall_ns|loop_ns>: that column of the part's runs, one per line.
column() {
  local field=4
  [ "$3" = loop_ns ] && field=5
  awk -F'\t' -v p="$1" -v m="$2" -v f="$field" '$1 == p && $2 == m && $f != "" { print $f }' \
    "$times"
}
best() { column "$@" | sort -g | head -1; }
med() { column "$@" | median; }
seconds() { awk -v ns="$1" 'BEGIN { if (ns == "") print "nan"; else printf "%.3f", ns / 1e9 }'; }
difference() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", a - b }'; }
meets() { awk -v r="$1" -v g="$2" 'BEGIN { exit !(r != "nan" && r + 0 <= g + 0) }'; }

# ---- (a) one kernel of the Numba convolution: gpuscope against ncu -------------------------
bench_convolution() {
  if [ ! -x "$ncu" ]; then
    note "(a) skipped: ncu not found (PATH, /usr/local/cuda/bin, GPUSCOPE_NCU)"
    results+=("(a) not run: ncu not found")
    worsen 2
    return
  fi
  # The kernel's name, as gpuscope's trace summary shows it (Numba mangles it).
  if ! "$gpuscope" run -f -o "$bench_tmp/conv_trace.sqlite" -- "$python" "$conv" \
      >"$outdir/logs/a.trace.out" 2>"$outdir/logs/a.trace.err"; then
    note "(a) skipped: the convolution failed under gpuscope run: $(tail -3 "$outdir/logs/a.trace.err")"
    results+=("(a) not run: the convolution failed under gpuscope run (logs/a.trace.err)")
    worsen 2
    return
  fi
  if ! grep -q convolve "$outdir/logs/a.trace.err" "$outdir/logs/a.trace.out"; then
    note "(a) skipped: no kernel named like 'convolve' in gpuscope run's summary"
    results+=("(a) not run: no 'convolve' kernel in the trace summary (logs/a.trace.err)")
    worsen 2
    return
  fi
  local kernel=regex:convolve
  local -A command
  command[alone]="$python $conv"
  command[ncu]="$ncu --set full --import-source yes --clock-control none -k $kernel -c 1 $python $conv"
  command[ncu_nomatch]="$ncu --set full --import-source yes --clock-control none -k regex:NO_SUCH_KERNEL $python $conv"
  command[gpuscope]="$gpuscope profile -f -o $bench_tmp/a_%p.sqlite --set full -k $kernel -c 1 -- $python $conv"
  command[gpuscope_nomatch]="$gpuscope profile -f -o $bench_tmp/a_%p.sqlite --set full -k regex:NO_SUCH_KERNEL -- $python $conv"
  local modes=(alone ncu ncu_nomatch gpuscope gpuscope_nomatch) n=5 rep i mode
  note "(a) numba convolution: $reps repetitions of: ${modes[*]}"
  for ((rep = 0; rep < reps; rep++)); do
    for ((i = 0; i < n; i++)); do
      mode=${modes[(rep + i) % n]}
      # Paths have no spaces (checked by bench_need's callers' layout); word splitting is meant.
      # shellcheck disable=SC2086
      if ! run_once a "$mode" "$rep" ${command[$mode]}; then
        results+=("(a) failed: $mode (logs/a.$mode.$rep.err)")
        worsen 2
        return
      fi
    done
  done
  # ncu must really have profiled the kernel, gpuscope too: else the times mean nothing.
  if ! grep -q 'Profiling "' "$outdir/logs/a.ncu.0.out" "$outdir/logs/a.ncu.0.err"; then
    results+=("(a) ncu profiled no kernel (logs/a.ncu.0.*)")
    worsen 2
  fi
  if ! grep -q 'Profiling "' "$outdir/logs/a.gpuscope.0.err" "$outdir/logs/a.gpuscope.0.out"; then
    results+=("(a) gpuscope profiled no kernel (logs/a.gpuscope.0.*)")
    worsen 2
  fi

  local -A m
  for mode in "${modes[@]}"; do m[$mode]=$(med a "$mode" wall_ns); done
  local ratio
  ratio=$(ratio "${m[gpuscope]}" "${m[ncu]}")
  results+=("(a) \`numba_convolve.py\`, one \`convolve\` launch, \`--set full\`, $reps runs per mode, interleaved; median wall times:")
  results+=("")
  results+=("| mode | wall (s) | best (s) |")
  results+=("|---|---:|---:|")
  for mode in "${modes[@]}"; do
    results+=("| $mode | $(seconds "${m[$mode]}") | $(seconds "$(best a "$mode" wall_ns)") |")
  done
  results+=("")
  results+=("- gpuscope / ncu (total wall): **$ratio** (goal <= 0.4 with source counters: $(meets "$ratio" 0.4 && echo met || echo MISSED))")
  results+=("- start cost (nomatch - alone): gpuscope $(seconds "$(difference "${m[gpuscope_nomatch]}" "${m[alone]}")") s, ncu $(seconds "$(difference "${m[ncu_nomatch]}" "${m[alone]}")") s")
  results+=("- per-kernel cost (one kernel - nomatch): gpuscope $(seconds "$(difference "${m[gpuscope]}" "${m[gpuscope_nomatch]}")") s, ncu $(seconds "$(difference "${m[ncu]}" "${m[ncu_nomatch]}")") s")
  meets "$ratio" 0.4 || worsen 1
}

# ---- (b) 10,000 launches, one profiled: profile against run ---------------------------------
bench_many_kernels() {
  local -A command
  command[alone]="$many"
  command[run]="$gpuscope run --quiet -f -o $bench_tmp/b_run.sqlite -- $many"
  command[profile]="$gpuscope profile -q -f -o $bench_tmp/b_%p.sqlite -k k_target -c 1 -- $many"
  local modes=(alone run profile) n=3 rep i mode
  [ ${#results[@]} -gt 0 ] && results+=("")
  note "(b) many_kernels: $reps repetitions of: ${modes[*]}"
  for ((rep = 0; rep < reps; rep++)); do
    for ((i = 0; i < n; i++)); do
      mode=${modes[(rep + i) % n]}
      # shellcheck disable=SC2086
      if ! run_once b "$mode" "$rep" ${command[$mode]}; then
        results+=("(b) failed: $mode (logs/b.$mode.$rep.err)")
        worsen 2
        return
      fi
    done
  done
  # The checksum must not depend on the tool (replay restored k_target's buffer).
  local sums
  sums=$(grep -h '^checksum all' "$outdir"/logs/b.*.out | sort -u | wc -l)
  if [ "$sums" -ne 1 ]; then
    results+=("(b) the program's checksum differs between modes: $(grep -H '^checksum all' "$outdir"/logs/b.*.0.out | tr '\n' ' ')")
    worsen 2
  fi
  local wall_ratio loop_ratio
  wall_ratio=$(ratio "$(best b profile wall_ns)" "$(best b run wall_ns)")
  loop_ratio=$(ratio "$(best b profile loop_ns)" "$(best b run loop_ns)")
  results+=("(b) \`many_kernels\` (10,000 launches, \`-k k_target -c 1\`), best of $reps:")
  results+=("")
  results+=("| mode | process (s) | launch loop (ms) |")
  results+=("|---|---:|---:|")
  for mode in "${modes[@]}"; do
    results+=("| $mode | $(seconds "$(best b "$mode" wall_ns)") | $(ms "$(best b "$mode" loop_ns)") |")
  done
  results+=("")
  results+=("- profile / run: process **$wall_ratio**, loop **$loop_ratio** (goal <= 1.2: $(meets "$wall_ratio" 1.2 && meets "$loop_ratio" 1.2 && echo met || echo MISSED))")
  { meets "$wall_ratio" 1.2 && meets "$loop_ratio" 1.2; } || worsen 1
}

bench_convolution
bench_many_kernels

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
ncu_version=$(timeout 30 "$ncu" --version 2>/dev/null | tail -1)
commit=$(git -C "$bench_root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "## $(date -u '+%Y-%m-%d %H:%M UTC') · gpuscope profile speed · ${gpu:-unknown GPU}"
  echo
  echo "Command: \`scripts/bench-profile.sh OUTDIR $reps\` on $(hostname) ($(nproc) CPUs), tree at" \
       "commit $commit (plus uncommitted changes: $(git -C "$bench_root" status --porcelain 2>/dev/null | wc -l) files)," \
       "ncu ${ncu_version:-not found}, $($python --version 2>&1)."
  echo
  printf '%s\n' "${results[@]}"
  echo
  case $status in
    0) echo "Outcome: every measurement ran; every goal met." ;;
    1) echo "Outcome: every measurement ran; a goal was MISSED (see above)." ;;
    *) echo "Outcome: something could NOT run (see above and $outdir/logs)." ;;
  esac
} | tee "$outdir/bench-profile.md"
exit "$status"
