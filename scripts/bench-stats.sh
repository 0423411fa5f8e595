#!/usr/bin/env bash
# Speed of `gpuscope stats` on a large report, run with the built tree (no GPU needed):
#   scripts/bench-stats.sh [kernels] [repetitions]     (default 10,000,000 and 5)
# Makes a report of <kernels> launch-bound kernels (with their API calls) with the store's
# generator (build/bench/make_synthetic_report <path> <n>), then times
# `gpuscope stats <report>` (the nvprof summary) and each nsys-style table of
# `gpuscope stats --report <name>`, medians of the repetitions. Targets (issue 2): stats on
# 10,000,000 kernels in at most 3 s; the writer sustains at least 1,000,000 records/s
# (the generator's own rate, when it writes through the production writer).
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"

kernels=${1:-10000000}
reps=${2:-5}
[ "$reps" -ge 5 ] 2>/dev/null || bench_die "repetitions must be a number >= 5 (medians of >= 5 runs)"
gpuscope=$build/bin/gpuscope
bench_need "$gpuscope"
generator=""
for candidate in "$build/bench/make_synthetic_report" "$build/bench/store/make_synthetic_report" \
                 "$build/bin/make_synthetic_report"; do
  [ -x "$candidate" ] && generator=$candidate && break
done
[ -n "$generator" ] || bench_die "make_synthetic_report was not built (bench/store, the store's generator)"
bench_scratch
report=$bench_tmp/stats_${kernels}.sqlite

echo "bench-stats: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, build $build"
gen_ns=$(bench_time "$bench_tmp/gen.out" "$bench_tmp/gen.err" "$generator" "$report" "$kernels") ||
  bench_die "the generator failed (usage: $("$generator" 2>&1 | head -3))"
echo "  generator: $kernels kernels in $(ms "$gen_ns") ms, $(stat -c %s "$report") bytes;" \
     "$(awk -v n="$kernels" -v ns="$gen_ns" 'BEGIN{printf "%.0f", n / (ns / 1e9)}') kernels/s"
sed 's/^/  generator says: /' "$bench_tmp/gen.out" | head -5

# The summary and every table, interleaved across repetitions.
tables=$("$gpuscope" stats --help 2>&1 | grep -oE 'cuda_gpu_kern_sum|cuda_api_sum|cuda_gpu_mem_time_sum|cuda_gpu_mem_size_sum|nvtx_sum' | sort -u)
[ -n "$tables" ] || tables="cuda_gpu_kern_sum cuda_api_sum cuda_gpu_mem_time_sum cuda_gpu_mem_size_sum nvtx_sum"
variants=(summary $tables)
for ((rep = 0; rep < reps; rep++)); do
  for variant in "${variants[@]}"; do
    if [ "$variant" = summary ]; then args=(stats "$report"); else args=(stats --report "$variant" "$report"); fi
    bench_time /dev/null "$bench_tmp/stats.err" "$gpuscope" "${args[@]}" >>"$bench_tmp/$variant.ns" ||
      bench_die "gpuscope ${args[*]} failed"
  done
done
printf '  %-24s %10s\n' "gpuscope stats" median_s
for variant in "${variants[@]}"; do
  printf '  %-24s %10.3f\n' "$variant" "$(awk -v ns="$(median <"$bench_tmp/$variant.ns")" 'BEGIN{print ns/1e9}')"
done
echo "  ($reps runs each, interleaved; target <= 3 s for $kernels kernels)"
