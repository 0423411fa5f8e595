"""python3 -m gpuscope.ranks [--engine local|dask] [--scheduler ADDRESS] [--workers N]
[--format text|json] REPORT...: the multi-rank analyses of the reports, printed (text: the
two tables and the findings; json: {"rank_align": [...], "rank_comm_sum": [...],
"findings": [...]}, the shape of `gpuscope stats --format json`)."""

import argparse
import dataclasses
import json
import sys

import pandas as pd

from gpuscope._connection import ReportError
from gpuscope.ranks import ENGINES, analyze


def _records(frame):
    # pd.isna: a missing value of an Int64 column is pd.NA, whose truth value is an error.
    return [{k: (None if pd.isna(v) else v) for k, v in row.items()}
            for row in frame.astype(object).to_dict(orient="records")]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m gpuscope.ranks", description=__doc__)
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--engine", choices=ENGINES, default="local")
    parser.add_argument("--scheduler", help="Dask scheduler address (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, help="threads (local) or LocalCluster workers")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    options = parser.parse_args(argv)
    try:
        result = analyze(options.reports, engine=options.engine, scheduler=options.scheduler,
                         workers=options.workers)
    except (ReportError, OSError) as error:
        print(f"gpuscope.ranks: error: {error}", file=sys.stderr)
        return 1
    if options.format == "json":
        json.dump({"rank_align": _records(result.rank_align),
                   "rank_comm_sum": _records(result.rank_comm_sum),
                   "findings": [dataclasses.asdict(f) for f in result.findings]},
                  sys.stdout, indent=1)
        print()
        return 0
    print(result.rank_align.to_string(index=False), end="\n\n")
    print(result.rank_comm_sum.to_string(index=False), end="\n\n")
    for finding in result.findings:
        print(f"[{finding.severity}] {finding.rule_id}: {finding.message}")
    if not result.findings:
        print("Findings: none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
