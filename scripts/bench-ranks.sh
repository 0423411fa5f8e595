#!/usr/bin/env bash
# Scale of the multi-rank analysis (issue 16), run with the built tree (no GPU needed):
#   scripts/bench-ranks.sh [ranks] [kernels-per-rank]     (default 512 and 100,000)
# Makes one synthetic job (bench/make_rank_reports when built, else the Python tests'
# generator python/tests/report_fixtures.py: one report per rank, host clocks off by up to
# +-2 ms, a straggler), then times the analysis of the whole set and its peak RSS
# (bench/maxrss: the largest single process of the tree), one run each (the set is too large
# to repeat):
#   in-process:   `gpuscope ranks` (alignment, per-rank breakdown, NCCL, findings; threads over
#                 the reports, each streamed), when this gpuscope has the command;
#   python-local: gpuscope.ranks on threads in one Python process (only with
#                 BENCH_RANKS_PYTHON_LOCAL=1: it adds a third pass over the set);
#   dask-2:       gpuscope.ranks on a distributed.LocalCluster of 2 worker processes (one task
#                 per report, one reduction; Debian's python3-dask/-distributed/-pandas,
#                 installed by `scripts/setup.sh --test-deps`).
# With python-local, its tables are checked equal to dask-2's. The set is written under
# $TMPDIR (default /tmp) and removed at exit (BENCH_KEEP=1 keeps it); the script refuses to
# start when the file system lacks room. The default size is large (about 5.5 GB, see
# bench/RESULTS.md): run it once, not in a loop.
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

ranks=${1:-512}
kernels=${2:-100000}
python=${GPUSCOPE_PYTHON:-/usr/bin/python3}  # Debian's, with python3-pandas/-dask/-distributed
gpuscope=$build/bin/gpuscope
maxrss=$build/bench/maxrss
generator=$build/bench/make_rank_reports
bench_need "$gpuscope" "$maxrss" "$build/bin/print_report_schema"
export PYTHONPATH=$bench_root/python${PYTHONPATH:+:$PYTHONPATH}
export GPUSCOPE_PRINT_REPORT_SCHEMA=$build/bin/print_report_schema
"$python" -c "import pandas, dask, distributed" 2>/dev/null ||
  bench_die "$python lacks pandas, dask or distributed: run scripts/setup.sh --test-deps"

if [ -x "$generator" ]; then
  made_by="bench/make_rank_reports"
  make_set=("$generator")
else
  made_by="python/tests/report_fixtures.py"
  make_set=("$python" "$bench_root/python/tests/report_fixtures.py")
fi

# Room: measured on a small set of the same shape (bytes per kernel), with a 50% margin.
probe=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_bench_probe_XXXXXX")
"${make_set[@]}" -o "$probe" --ranks 4 --kernels-per-rank 10000 >/dev/null 2>"$probe/err" ||
  { cat "$probe/err" >&2; rm -rf "$probe"; bench_die "$made_by failed"; }
probe_bytes=$(du -sb "$probe" | cut -f1)
rm -rf "$probe"
need_bytes=$(awk -v b="$probe_bytes" -v r="$ranks" -v k="$kernels" \
  'BEGIN { printf "%.0f", b / 40000 * r * k * 1.5 }')
free_bytes=$(df -B1 --output=avail "${TMPDIR:-/tmp}" | tail -1)
[ "$free_bytes" -gt "$need_bytes" ] ||
  bench_die "${TMPDIR:-/tmp} has $free_bytes bytes free; the set needs about $need_bytes"

bench_scratch
set_dir=$bench_tmp/ranks
mkdir -p "$set_dir"
echo "bench-ranks: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), load $(cut -d' ' -f1-3 /proc/loadavg), build $build, $("$python" --version)"
gen_ns=$(bench_time "$bench_tmp/gen.out" "$bench_tmp/gen.err" "${make_set[@]}" -o "$set_dir" \
  --ranks "$ranks" --kernels-per-rank "$kernels" --host-offset-spread-ns 2000000 \
  --straggler-rank $((ranks / 3)) --straggler-delay-ns 200000) || bench_die "the generator failed"
echo "  set: $ranks reports of $kernels kernels (+ their API calls, NVTX), $(du -sb "$set_dir" | cut -f1) bytes," \
     "written by $made_by in $(ms "$gen_ns") ms"

# measure <label> <command...>: one run; prints "<label> <wall_s> <maxrss_mb>" and keeps the
# output in $bench_tmp/<label>.out.
measure() {
  local label=$1
  shift
  local out=$bench_tmp/$label.out err=$bench_tmp/$label.err
  echo "  $label: started $(date -u +%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
  if ! "$maxrss" "$@" >"$out" 2>"$err"; then
    echo "bench-ranks: '$label' failed; its stderr:" >&2
    tail -20 "$err" >&2
    exit 1
  fi
  awk -v label="$label" -v ms="$(value_of wall_ms "$err")" -v kb="$(value_of maxrss_kb "$err")" \
    'BEGIN { printf "  %-13s %10.1f s %10.1f MB peak RSS\n", label, ms / 1000, kb / 1024 }'
}

# straggler <json file>: the rank_straggler finding of gpuscope.ranks --format json.
straggler() {
  "$python" -c 'import json,sys; [print("    " + f["rule_id"] + ": " + f["message"]) for f in json.load(open(sys.argv[1]))["findings"] if f["rule_id"] == "rank_straggler"]' "$1"
}

reports=("$set_dir"/rank*.sqlite)
if "$gpuscope" ranks --help >/dev/null 2>&1; then
  measure in-process "$gpuscope" ranks "${reports[@]}"
  grep -A3 "rank_straggler\]" "$bench_tmp/in-process.out" | head -4 | sed 's/^/    /'
else
  echo "  in-process: this gpuscope has no 'ranks' command"
fi
if [ -n "${BENCH_RANKS_PYTHON_LOCAL:-}" ]; then
  measure python-local "$python" -m gpuscope.ranks --engine local --format json "${reports[@]}"
fi
measure dask-2 "$python" -m gpuscope.ranks --engine dask --workers 2 --format json "${reports[@]}"
straggler "$bench_tmp/dask-2.out"
if [ -n "${BENCH_RANKS_PYTHON_LOCAL:-}" ]; then
  tables() {
    "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["findings"]; print(d)' "$1"
  }
  if cmp -s <(tables "$bench_tmp/python-local.out") <(tables "$bench_tmp/dask-2.out"); then
    echo "  python-local and dask-2: the same rank_align and rank_comm_sum"
  else
    bench_die "python-local and dask-2 disagree (BENCH_KEEP=1 keeps $bench_tmp)"
  fi
fi
