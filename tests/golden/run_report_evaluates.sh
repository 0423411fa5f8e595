#!/usr/bin/env bash
# `gpuscope report` (and `view`) evaluate counter data that was never evaluated: the kernel
# pages of the HTML file then carry the profiled kernels' findings. The H200 recording loses its
# evaluated metrics and findings first (a report whose program was killed looks like that).
#   run_report_evaluates.sh <gpuscope> <report>
set -uo pipefail
gpuscope=$1 report=$2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpuscope_report_eval_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp "$report" "$scratch/r.sqlite"
sqlite3 "$scratch/r.sqlite" "DELETE FROM kernel_metrics; DROP TABLE IF EXISTS kernel_findings" || exit 1
"$gpuscope" report -o "$scratch/r.html" "$scratch/r.sqlite" || exit 1
metrics=$(sqlite3 "$scratch/r.sqlite" "SELECT count(*) FROM kernel_metrics")
findings=$(sqlite3 "$scratch/r.sqlite" "SELECT count(*) FROM kernel_findings")
[ "$metrics" -gt 0 ] || { echo "report-evaluates: no metrics were evaluated" >&2; exit 1; }
[ "$findings" -gt 0 ] || { echo "report-evaluates: no findings were stored" >&2; exit 1; }
grep -q 'Shared Memory Bank Conflicts' "$scratch/r.html" ||
  { echo "report-evaluates: the HTML has no bank-conflict finding" >&2; exit 1; }
echo "report-evaluates: $metrics metric values and $findings findings, in the HTML"
