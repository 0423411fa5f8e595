#!/usr/bin/env bash
# Scale of the multi-rank analysis on the Python package's engines (issue 16), with the built
# tree (no GPU needed):
#   scripts/bench-ranks-python.sh [ranks] [kernels-per-rank]     (default 512 and 100,000)
# Makes one synthetic job (bench/make_rank_reports when built, else the Python tests'
# generator, python/tests/report_fixtures.py: one report per rank, 8 ranks per host, host
# clocks off by up to +-2 ms, a straggler), then times the analysis of the whole set and its
# peak RSS (bench/maxrss: the largest single process of the tree), one run each:
#   gpuscope-ranks: `gpuscope ranks` in-process (threads), when this gpuscope has the command;
#   python-local:   gpuscope.ranks.analyze(engine="local"), threads in one Python process;
#   dask-2:         gpuscope.ranks.analyze(engine="dask"), a distributed.LocalCluster of 2
#                   worker processes, one task per report and one reduction.
# The set is written under $TMPDIR (default /tmp) and removed at exit (BENCH_KEEP=1 keeps it);
# the script refuses to start when the file system lacks room (about 10 MB per 100,000 kernels).
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
  bench_die "$python lacks pandas, dask or distributed: run scripts/setup.sh --deps"

need_bytes=$((ranks * kernels * 100 * 3 / 2))
free_bytes=$(df -B1 --output=avail "${TMPDIR:-/tmp}" | tail -1)
[ "$free_bytes" -gt "$need_bytes" ] ||
  bench_die "${TMPDIR:-/tmp} has $free_bytes bytes free; the set needs about $need_bytes"

bench_scratch
set_dir=$bench_tmp/ranks
mkdir -p "$set_dir"
echo "bench-ranks-python: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), build $build, $("$python" --version)"
if [ -x "$generator" ]; then
  made_by="bench/make_rank_reports"
  make_set=("$generator" -o "$set_dir")
else
  made_by="python/tests/report_fixtures.py"
  make_set=("$python" "$bench_root/python/tests/report_fixtures.py" -o "$set_dir")
fi
gen_ns=$(bench_time "$bench_tmp/gen.out" "$bench_tmp/gen.err" "${make_set[@]}" --ranks "$ranks" \
  --kernels-per-rank "$kernels" --host-offset-spread-ns 2000000 \
  --straggler-rank $((ranks / 3)) --straggler-delay-ns 200000) || bench_die "the generator failed"
echo "  set: $ranks reports of $kernels kernels (+ their API calls, NVTX), $(du -sb "$set_dir" | cut -f1) bytes," \
     "written by $made_by in $(ms "$gen_ns") ms"

# measure <label> <command...>: one run (the set is too large to repeat); prints
# "<label> <wall_s> <maxrss_mb>" and keeps the output in $bench_tmp/<label>.out.
measure() {
  local label=$1
  shift
  local out=$bench_tmp/$label.out err=$bench_tmp/$label.err
  if ! "$maxrss" "$@" >"$out" 2>"$err"; then
    echo "bench-ranks-python: '$label' failed; its stderr:" >&2
    tail -20 "$err" >&2
    exit 1
  fi
  awk -v label="$label" -v ms="$(value_of wall_ms "$err")" -v kb="$(value_of maxrss_kb "$err")" \
    'BEGIN { printf "  %-15s %10.1f s %10.1f MB peak RSS\n", label, ms / 1000, kb / 1024 }'
}

reports=("$set_dir"/rank*.sqlite)
if "$gpuscope" ranks --help >/dev/null 2>&1; then
  measure gpuscope-ranks "$gpuscope" ranks "${reports[@]}"
else
  echo "  gpuscope-ranks: this gpuscope has no 'ranks' command (issue 16's C++ side not merged)"
fi
measure python-local "$python" -m gpuscope.ranks --engine local --format json "${reports[@]}"
measure dask-2 "$python" -m gpuscope.ranks --engine dask --workers 2 --format json "${reports[@]}"
if cmp -s <("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["findings"]; print(d)' "$bench_tmp/python-local.out") \
          <("$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["findings"]; print(d)' "$bench_tmp/dask-2.out"); then
  echo "  python-local and dask-2: the same rank_align and rank_comm_sum"
else
  bench_die "python-local and dask-2 disagree (BENCH_KEEP=1 keeps $bench_tmp)"
fi
"$python" -c 'import json,sys; [print("  " + f["rule_id"] + ": " + f["message"]) for f in json.load(open(sys.argv[1]))["findings"] if f["rule_id"] == "rank_straggler"]' \
  "$bench_tmp/dask-2.out"
