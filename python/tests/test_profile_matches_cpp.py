"""The profile tables and the source page as the package reads them are what the gpuscope
command prints of the same report (h100_metrics_full.sqlite, `profile --set full` on the H100):
- profiled_kernels and kernel_metrics: `stats --page raw --format csv` (ncu's raw page);
- kernel_findings: the findings `stats --page details` prints under each kernel;
- Report.source(): `gpuscope source --format csv`, by SASS instruction and by source line.
The commands read a copy: a report is never an output of a test."""

import collections
import math
import os
import re
import shutil

import pandas as pd
import pytest

import gpuscope
from cpp_output import csv_records, gpuscope_output

# The source page's columns that are one stored counter each (src/analysis/source).
SOURCE_COUNTERS = {
    "Instructions Executed": "smsp__sass_inst_executed",
    "Thread Instructions Executed": "smsp__sass_thread_inst_executed",
    "Predicated-On Thread Instructions Executed": "smsp__sass_thread_inst_executed_pred_on",
    "Divergent Branches": "smsp__sass_branch_targets_threads_divergent",
    "L2 Theoretical Sectors Global": "smsp__sass_sectors_mem_global",
    "L2 Theoretical Sectors Global Ideal": "smsp__sass_sectors_mem_global_ideal",
    "L1 Wavefronts Shared": "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
    "L1 Wavefronts Shared Ideal": "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
    "stall_long_sb": "smsp__pcsamp_warps_issue_stalled_long_scoreboard",
    "stall_wait": "smsp__pcsamp_warps_issue_stalled_wait",
}


@pytest.fixture(scope="module")
def report_copy(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("profile") / "full.sqlite")
    shutil.copyfile(os.path.join(os.environ["GPUSCOPE_TEST_DATA_DIR"], "reports",
                                 "h100_metrics_full.sqlite"), path)
    return path


@pytest.fixture(scope="module")
def report(report_copy):
    with gpuscope.open(report_copy) as opened:
        yield opened


def number(text):
    return math.nan if text in ("", "n/a") else float(text)


def test_profiled_kernels_and_metrics_are_the_raw_page(report, report_copy):
    printed = csv_records("stats", "--page", "raw", "--format", "csv", report_copy)
    kernels = report.profiled_kernels().set_index("id")
    # The launch's stream is the traced kernel's: profiled_kernels.stream_id is 0 unless
    # --kernel-id named one; join by correlation id, as the command does.
    streams = report.kernels().set_index("correlation_id")["stream_id"]
    metrics = report.kernel_metrics().join(kernels, on="profiled_kernel_id")
    assert len(printed) == len(metrics) == 2436
    for row, (_, metric) in zip(printed, metrics.iterrows()):
        assert (int(row["ID"]), row["Kernel Name"], int(row["Invocation"]),
                int(row["Context"]), int(row["Stream"]), int(row["Device"])) == \
            (metric["profile_index"], metric["demangled"], metric["invocation"],
             metric["context_id"], streams[metric["correlation_id"]], metric["device_id"])
        assert (row["Metric Name"], row["Metric Unit"]) == (metric["metric"], metric["unit"])
        printed_value = number(row["Metric Value"])
        assert printed_value == metric["value"] or (math.isnan(printed_value) and
                                                    math.isnan(metric["value"])), row


FINDING = re.compile(r"^    (OPT|INF|WRN)\s{2,}(\S.*)$")
KERNEL_HEADER = re.compile(r"^  \S.*, Context \d+, Stream \d+, Device \d+")


def test_findings_are_those_the_details_page_prints(report, report_copy):
    page = gpuscope_output("stats", "--page", "details", report_copy).splitlines()
    printed = []  # per kernel, in the page's (profile_index) order
    for line in page:
        if KERNEL_HEADER.match(line):
            printed.append([])
        elif (found := FINDING.match(line)):
            printed[-1].append(f"{found[1]} {found[2]}")
    kernels = report.profiled_kernels()
    findings = report.kernel_findings()
    expected = []
    for kernel_id in kernels["id"]:
        lines = []
        for _, f in findings[findings["profiled_kernel_id"] == kernel_id].iterrows():
            shown = (f"Est. Speedup: {f['speedup_pct']:.2f}% ({f['title']})"
                     if not math.isnan(f["speedup_pct"]) else f["title"])
            lines.append(f"{f['severity']} {shown}")
        expected.append(sorted(lines))
    assert [sorted(lines) for lines in printed] == expected
    assert sum(map(len, expected)) == 51


def source_rows(report, by):
    """Report.source(by) keyed as the source page's rows: (profile index, function, address
    or file and line)."""
    index = report.profiled_kernels().set_index("id")["profile_index"]
    frame = report.source(by=by)
    frame.insert(0, "ID", frame["profiled_kernel_id"].map(index))
    where = ["pc_offset"] if by == "sass" else ["file", "line"]
    return {(row["ID"], row["function"], *(row[w] for w in where)): row
            for _, row in frame.iterrows()}


def assert_counters(row, ours, where):
    for column, counter in SOURCE_COUNTERS.items():
        value = ours[counter]
        if row[column] == "":
            assert pd.isna(value), (where, column)
        else:
            assert int(row[column]) == value, (where, column)


def test_source_page_by_instruction(report, report_copy):
    printed = csv_records("source", "--format", "csv", report_copy)
    ours = source_rows(report, "sass")
    assert len(printed) == len(ours) == 2200
    for row in printed:
        key = (int(row["ID"]), row["Function"], int(row["Address"], 16))
        mine = ours[key]
        assert (row["Source"], row["File"], row["Line"]) == \
            (mine["sass"], mine["file"], str(mine["line"])), key
        assert_counters(row, mine, key)


def test_source_page_by_line(report, report_copy):
    printed = csv_records("source", "--format", "csv", "--print-source", "cuda", report_copy)
    ours = source_rows(report, "line")
    assert len(printed) == len(ours) == 89
    for row in printed:
        key = (int(row["ID"]), row["Function"], row["File"], int(row["Line"]))
        mine = ours[key]
        assert row["Source"] == (mine["source"] or ""), key
        assert_counters(row, mine, key)
    files = collections.Counter(key[2] for key in ours)
    assert files["/work/main/examples/metrics/metrics_kernels.cu"] > 0
