#!/usr/bin/env bash
# Issue 12's cache-control measurement, on the GPU machine with the built tree:
#   scripts/bench-replay-cache.sh
# Runs build/bench/replay_cache_probe in each replay design (see its header) and Nsight Compute
# (--clock-control none, --cache-control all and none) on the same four kernels, then prints one
# table: a row per kernel and metric, a column per design, ncu's first.
set -uo pipefail
source "$(dirname "$0")/bench-common.sh"
probe=$build/bench/replay_cache_probe
bench_need "$probe"
bench_scratch
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
[ -x "$ncu" ] || bench_die "ncu not found"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
echo "bench-replay-cache: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(date -u +%Y-%m-%dT%H:%MZ)"
for mode in kernel user-noflush user-flush auto-flush auto-discard; do
  "$probe" "$mode" >"$bench_tmp/$mode.txt" 2>&1 || bench_die "$mode failed: $(tail -3 "$bench_tmp/$mode.txt")"
  grep '^kernel ' "$bench_tmp/$mode.txt" | sed "s/^/  $mode: /"
done
for cache in all none; do
  "$ncu" --clock-control none --cache-control "$cache" --metrics "$metrics" --csv "$probe" plain \
    >"$bench_tmp/ncu-$cache.txt" 2>&1 || bench_die "ncu failed: $(tail -3 "$bench_tmp/ncu-$cache.txt")"
done
python3 - "$bench_tmp" <<'PY'
import csv, re, sys, collections
d = sys.argv[1]
values = collections.defaultdict(dict)
modes = ["ncu-all", "ncu-none", "kernel", "user-noflush", "user-flush", "auto-flush", "auto-discard"]
for mode in modes[2:]:
    for line in open(f"{d}/{mode}.txt"):
        p = line.split()
        if line.startswith("  ") and len(p) == 3: values[(p[0], p[1])][mode] = float(p[2])
for cache in ("all", "none"):
    rows = [l for l in open(f"{d}/ncu-{cache}.txt") if l.startswith('"')]
    header = None
    for r in csv.reader(rows):
        if r[0] == "ID": header = r; continue
        row = dict(zip(header, r))
        values[(row["Kernel Name"].split("(")[0], row["Metric Name"])][f"ncu-{cache}"] = float(row["Metric Value"].replace(",", ""))
print("%-15s %-52s" % ("kernel", "metric") + "".join("%13s" % m for m in modes))
for (kernel, metric), v in sorted(values.items()):
    if "ncu-all" not in v: continue
    print("%-15s %-52s" % (kernel, metric) + "".join("%13.4g" % v.get(m, float("nan")) for m in modes))
PY
