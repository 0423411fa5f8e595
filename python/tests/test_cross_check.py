"""The package and the gpuscope command give the same numbers.

- Multi-rank: the same synthetic reports through `gpuscope stats --report
  rank_align,rank_comm_sum --format json` (C++, in-process) and through
  gpuscope.ranks.analyze on a distributed.LocalCluster of 2 workers: identical tables.
- One report: the recorded reports' DataFrames add up to what `gpuscope stats` sums.
A gpuscope without these tables (or any failure of the command) fails the test.
"""

import glob
import json
import os
import subprocess

import pytest

import gpuscope
from report_fixtures import RankJob, write_rank_reports


def gpuscope_json(*arguments):
    command = [os.environ["GPUSCOPE_BIN"], *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"{' '.join(command[:6])} ... failed: {done.stderr.strip()}"
    return json.loads(done.stdout)


def as_records(frame):
    """DataFrame rows as lists of plain values (None for a missing rank)."""
    return [[None if v is None or v != v else (int(v) if isinstance(v, (int,)) or
             hasattr(v, "__index__") else v) for v in row]
            for row in frame.astype(object).itertuples(index=False)]


def cpp_table(tables, name):
    rows = tables[name]
    assert rows, f"gpuscope printed no rows of {name}"
    headers = list(rows[0])
    return headers, [[row[h] for h in headers] for row in rows]


@pytest.fixture(scope="module")
def rank_reports(tmp_path_factory):
    from report_fixtures import schema_sql
    directory = str(tmp_path_factory.mktemp("ranks"))
    job = RankJob(ranks=8, ranks_per_host=4, host_clock_offset_ns=[0, 6_500_000], steps=6,
                  kernels_per_step=12, straggler_rank=6, straggler_delay_ns=300_000)
    return write_rank_reports(job, directory, schema_sql())


def test_rank_tables_equal_gpuscope_stats(rank_reports):
    tables = gpuscope_json("stats", "--report", "rank_align,rank_comm_sum", "--format", "json",
                           *rank_reports)
    result = gpuscope.ranks.analyze(rank_reports, engine="dask")  # LocalCluster, 2 workers
    for name, frame in (("rank_align", result.rank_align),
                        ("rank_comm_sum", result.rank_comm_sum)):
        headers, rows = cpp_table(tables, name)
        assert headers == list(frame.columns), name
        assert rows == as_records(frame), name


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(
    os.environ.get("GPUSCOPE_TEST_DATA_DIR", ""), "reports", "*.sqlite"))))
def test_recorded_report_frames_add_up_to_gpuscope_stats(path):
    tables = gpuscope_json("stats", "--report", "cuda_gpu_kern_sum,cuda_api_sum,nvtx_sum",
                           "--format", "json", path)
    with gpuscope.open(path) as report:
        frames = {"cuda_gpu_kern_sum": report.kernels(), "cuda_api_sum": report.api_calls(),
                  "nvtx_sum": report.nvtx()}
    counts = {"cuda_gpu_kern_sum": "Instances", "cuda_api_sum": "Num Calls",
              "nvtx_sum": "Instances"}
    for name, frame in frames.items():
        rows = tables[name]
        timed = frame.dropna(subset=["start", "end"])
        if name == "cuda_api_sum":  # nvprof/nsys count a driver call inside a runtime call once
            timed = timed[~timed["nested"]]
        if name == "nvtx_sum":  # ranges, not marks
            timed = timed[timed["end"] > timed["start"]]
        assert sum(row[counts[name]] for row in rows) == len(timed), (path, name)
        assert sum(row["Total Time (ns)"] for row in rows) == \
            int((timed["end"] - timed["start"]).sum()), (path, name)
        names = {row["Name"] for row in rows}
        column = "demangled" if name == "cuda_gpu_kern_sum" else "name"
        assert names == set(timed[column]), (path, name)


def test_the_recorded_reports_are_there():
    assert glob.glob(os.path.join(os.environ["GPUSCOPE_TEST_DATA_DIR"], "reports", "*.sqlite"))
