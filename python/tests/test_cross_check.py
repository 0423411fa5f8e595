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

import pandas as pd
import pytest

import gpuscope
from report_fixtures import RankJob, write_rank_reports


def gpuscope_json(*arguments):
    command = [os.environ["GPUSCOPE_BIN"], *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"{' '.join(command[:6])} ... failed: {done.stderr.strip()}"
    return json.loads(done.stdout)


def as_records(frame):
    """DataFrame rows as lists of plain values (None for a missing rank or GPU column: pd.NA,
    whose truth value is an error)."""
    return [[None if pd.isna(v) else (int(v) if isinstance(v, (int,)) or
             hasattr(v, "__index__") else v) for v in row]
            for row in frame.astype(object).itertuples(index=False)]


def cpp_table(tables, name):
    rows = tables[name]
    assert rows, f"gpuscope printed no rows of {name}"
    headers = list(rows[0])
    return headers, [[row[h] for h in headers] for row in rows]


@pytest.fixture(scope="module")
def rank_reports(tmp_path_factory):
    """The synthetic job written by the C++ generator (bench/make_rank_reports, through the
    production writer) when it is built, else by the tests' own generator."""
    from report_fixtures import schema_sql
    directory = str(tmp_path_factory.mktemp("ranks"))
    generator = os.environ.get("GPUSCOPE_MAKE_RANK_REPORTS")
    if generator:
        subprocess.run([generator, "-o", directory, "--ranks", "8", "--ranks-per-host", "4",
                        "--steps", "6", "--kernels-per-step", "12", "--host-offsets-ns",
                        "0,6500000", "--straggler-rank", "6", "--straggler-delay-ns", "300000"],
                       check=True, capture_output=True, timeout=120)
        return sorted(glob.glob(os.path.join(directory, "*.sqlite")))
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


def summed_rows(name, report):
    """The rows `gpuscope stats --report name` sums, from the DataFrames, by its rules
    (analysis/stats_builders.cpp): timed rows; the API summary counts a driver call made inside
    a runtime call once (the outer call); NVTX ranges only (no marks), named domain:range, with
    the default domain empty (":range", as nsys prints it)."""
    if name == "cuda_gpu_kern_sum":
        frame = report.kernels()
        labels = frame["demangled"]
    elif name == "cuda_api_sum":
        frame = report.api_calls()
        frame = frame[(frame["domain"] == 1) | ~frame["nested"]]
        labels = frame["name"]
    else:
        frame = report.nvtx()
        frame = frame[frame["kind"] != 0]
        labels = frame["domain"] + ":" + frame["name"]
    timed = frame["start"].notna() & frame["end"].notna() & (frame["end"] >= frame["start"])
    return frame[timed], set(labels[timed])


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(
    os.environ.get("GPUSCOPE_TEST_DATA_DIR", ""), "reports", "*.sqlite"))))
def test_recorded_report_frames_add_up_to_gpuscope_stats(path):
    names = {"cuda_gpu_kern_sum": ("Instances", "Name"), "cuda_api_sum": ("Num Calls", "Name"),
             "nvtx_sum": ("Instances", "Range")}
    tables = gpuscope_json("stats", "--report", ",".join(names), "--format", "json", path)
    with gpuscope.open(path) as report:
        for name, (count, label) in names.items():
            rows = tables[name]
            frame, labels = summed_rows(name, report)
            assert sum(row[count] for row in rows) == len(frame), (path, name)
            assert sum(row["Total Time (ns)"] for row in rows) == \
                int((frame["end"] - frame["start"]).sum()), (path, name)
            assert {row[label] for row in rows} == labels, (path, name)


def test_the_recorded_reports_are_there():
    assert glob.glob(os.path.join(os.environ["GPUSCOPE_TEST_DATA_DIR"], "reports", "*.sqlite"))
