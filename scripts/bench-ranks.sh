#!/usr/bin/env bash
# Scale of the multi-rank analysis (issue 16), run with the built tree (no GPU needed):
#   scripts/bench-ranks.sh [ranks] [kernels-per-rank]     (default 512 and 100,000)
# Makes one synthetic job (bench/make_rank_reports: one report per rank, 4 ranks per host,
# host clocks off by up to +-2 ms, a straggler), then times the analysis of the whole set and
# its peak RSS (bench/maxrss):
#   in-process: `gpuscope ranks` (alignment, per-rank breakdown, NCCL, findings; threads over
#               the reports, each streamed);
#   dask-2:     the Python package (python/gpuscope) on a distributed.LocalCluster of 2 workers.
# The set is written under $TMPDIR (default /tmp) and removed at exit (BENCH_KEEP=1 keeps it);
# the script refuses to start when the file system lacks room for it. The default size is
# large (about 2.5 GB, see bench/RESULTS.md): run it once, not in a loop.
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

ranks=${1:-512}
kernels=${2:-100000}
gpuscope=$build/bin/gpuscope
maxrss=$build/bench/maxrss
generator=$build/bench/make_rank_reports
bench_need "$gpuscope" "$maxrss" "$generator"

# Room: measured on a small set of the same shape (bytes per kernel), with a 50% margin.
probe=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_bench_probe_XXXXXX")
"$generator" -o "$probe" --ranks 4 --kernels-per-rank 10000 >/dev/null 2>"$probe/err" ||
  { cat "$probe/err" >&2; rm -rf "$probe"; bench_die "make_rank_reports failed"; }
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
echo "bench-ranks: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), build $build"
gen_ns=$(bench_time "$bench_tmp/gen.out" "$bench_tmp/gen.err" "$generator" -o "$set_dir" \
  --ranks "$ranks" --kernels-per-rank "$kernels" --host-offset-spread-ns 2000000 \
  --straggler-rank $((ranks / 3)) --straggler-delay-ns 200000) ||
  bench_die "the generator failed"
echo "  set: $ranks reports of $kernels kernels (+ API calls, NVTX), $(du -sb "$set_dir" | cut -f1) bytes," \
     "written in $(ms "$gen_ns") ms"

# measure <label> <command...>: one run (the set is too large to repeat); prints
# "<label> <wall_s> <maxrss_mb>".
measure() {
  local label=$1
  shift
  local out=$bench_tmp/$label.out err=$bench_tmp/$label.err
  if ! "$maxrss" "$@" >"$out" 2>"$err"; then
    echo "bench-ranks: '$label' failed; its stderr:" >&2
    tail -20 "$err" >&2
    exit 1
  fi
  awk -v label="$label" -v ms="$(value_of wall_ms "$err")" -v kb="$(value_of maxrss_kb "$err")" \
    'BEGIN { printf "  %-12s %10.1f s %10.1f MB peak RSS\n", label, ms / 1000, kb / 1024 }'
}

reports=("$set_dir"/rank*.sqlite)
measure in-process "$gpuscope" ranks "${reports[@]}"
grep -A3 "rank_straggler\]" "$bench_tmp/in-process.out" | head -4 | sed 's/^/  /'
# On Dask: the Python package's engine, a distributed.LocalCluster of 2 worker processes
# (Debian's python3-dask/-distributed, installed by scripts/setup.sh).
if [ -d "$bench_root/python/gpuscope/ranks" ]; then
  measure dask-2 env PYTHONPATH="$bench_root/python" "${GPUSCOPE_PYTHON:-/usr/bin/python3}" \
    -m gpuscope.ranks --engine dask --workers 2 "${reports[@]}"
else
  echo "  dask-2: skipped (no python/gpuscope/ranks in this tree)"
fi
