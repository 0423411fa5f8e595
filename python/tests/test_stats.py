"""Every `gpuscope stats --report` table as a DataFrame (Report.stats, gpuscope.stats) is what
`gpuscope stats --report NAME --format csv` prints for the same reports, cell for cell, with
the types its columns have; the names are the command's own list, so a table added there is
tested here. Some recorded values are asserted too, so that an empty table cannot pass."""

import glob
import os
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest

import gpuscope
from cpp_output import csv_rows

REPORTS = sorted(glob.glob(os.path.join(os.environ.get("GPUSCOPE_TEST_DATA_DIR", ""),
                                        "reports", "*.sqlite")))


def report_path(name):
    return os.path.join(os.environ["GPUSCOPE_TEST_DATA_DIR"], "reports", name)


def printed_csv(name, paths):
    return csv_rows("stats", "--report", name, "--format", "csv", *paths)


def assert_frame_is_csv(frame, rows, what):
    header, cells = rows[0], rows[1:]
    assert list(frame.columns) == header, what
    assert len(frame) == len(cells), what
    for column in header:
        values, printed = list(frame[column]), [row[header.index(column)] for row in cells]
        dtype = frame[column].dtype
        for value, text in zip(values, printed):
            where = (what, column, text)
            if text == "":
                assert value is None or pd.isna(value) or value == "", where
            elif pd.api.types.is_integer_dtype(dtype):
                assert int(text) == value, where
            elif pd.api.types.is_float_dtype(dtype):
                assert float(text) == value, where
            else:
                assert text == value, where


def stats_table_names():
    """The command's tables, from its answer to an unknown name (which the package raises
    as ValueError with the command's message)."""
    with gpuscope.open(report_path("h100_add.sqlite")) as report:
        with pytest.raises(ValueError, match=r"unknown report 'no_such_table' \(known: ") as error:
            report.stats("no_such_table")
    names = str(error.value).split("(known: ", 1)[1].split(")")[0].split(", ")
    assert len(names) >= 17 and "cuda_gpu_kern_sum" in names and "nccl_sum" in names
    return names


def test_every_stats_table_of_every_recorded_report_is_what_csv_prints():
    names = stats_table_names()
    assert REPORTS
    for path in REPORTS:
        with gpuscope.open(path) as report, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the profile report's notes on its replay
            for name in names:
                assert_frame_is_csv(report.stats(name), printed_csv(name, [path]),
                                    (os.path.basename(path), name))


def test_recorded_values_and_types():
    with gpuscope.open(report_path("h100_add.sqlite")) as report:
        kernels = report.stats("cuda_gpu_kern_sum")
    assert kernels.to_dict("records") == [{
        "Time (%)": 100.0, "Total Time (ns)": 1088, "Instances": 1, "Avg (ns)": 1088.0,
        "Med (ns)": 1088.0, "Min (ns)": 1088, "Max (ns)": 1088, "StdDev (ns)": 0.0,
        "Name": "add(int, int, int*)"}]
    assert kernels["Total Time (ns)"].dtype == np.int64
    assert kernels["Avg (ns)"].dtype == np.float64
    with gpuscope.open(report_path("h100_nvtx_ranges.sqlite")) as report:
        ranges = report.stats("nvtx_sum").set_index("Range")
        empty = report.stats("nccl_sum")
    assert ranges.loc[":inner", "Instances"] == 2
    assert ranges.loc[":inner", "Total Time (ns)"] == 230878
    assert ranges.loc["gpuscope-test:domain_range", "Style"] == "PushPop"
    # A table without rows still has its columns (from the CSV header).
    assert empty.empty and len(empty.columns) > 0


def test_a_null_cell_is_missing_not_zero():
    with gpuscope.open(report_path("h100_add.sqlite")) as report:
        align = report.stats("rank_align")  # a report without a rank variable
    assert align.loc[0, "Rank"] is None
    assert align.loc[0, "Host"] == "vm" and align["PID"].dtype == np.int64


def test_several_reports_aggregated_and_options_passed_on():
    paths = [report_path("h100_add.sqlite"), report_path("h100_nvtx_ranges.sqlite")]
    frame = gpuscope.stats("cuda_gpu_kern_sum", paths)
    assert_frame_is_csv(frame, printed_csv("cuda_gpu_kern_sum", paths), "two reports")
    with gpuscope.open(paths[0]) as report:
        with pytest.raises(ValueError, match="--no-such-option"):
            report.stats("cuda_gpu_kern_sum", options=["--no-such-option"])


def test_errors_are_the_commands(monkeypatch, tmp_path):
    with pytest.raises(gpuscope.ReportError, match="cannot open report"):
        gpuscope.stats("cuda_gpu_kern_sum", ["/no/such/report.sqlite"])
    with pytest.raises(ValueError, match="one stats table at a time"):
        gpuscope.stats("cuda_gpu_kern_sum,nvtx_sum", [report_path("h100_add.sqlite")])
    monkeypatch.delenv("GPUSCOPE_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))  # no gpuscope there
    with pytest.raises(FileNotFoundError, match="put it on PATH, set GPUSCOPE_BIN"):
        gpuscope.stats("cuda_gpu_kern_sum", [report_path("h100_add.sqlite")])


def test_the_command_is_the_packages_version():
    done = subprocess.run([os.environ["GPUSCOPE_BIN"], "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines()[0] == f"gpuscope {gpuscope.__version__}"
