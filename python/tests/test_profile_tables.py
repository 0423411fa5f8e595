"""The package's version, its repr of a report, and the tables of `gpuscope profile` read from
the reports recorded on the H100 (tests/data/reports): h100_metrics_full.sqlite is
`profile --set full` of 14 launches of examples/metrics/metrics_kernels.cu. Older and trace
reports read as no rows, as the C++ reader reads them."""

import os
import shutil
import sqlite3
import warnings

import pandas as pd
import pytest

import gpuscope

REPORTS = os.path.join(os.environ.get("GPUSCOPE_TEST_DATA_DIR", ""), "reports")
FULL = os.path.join(REPORTS, "h100_metrics_full.sqlite")
ADD = os.path.join(REPORTS, "h100_add.sqlite")
LEGACY_FULL = os.path.join(REPORTS, "legacy", "h200_metrics_full_2026-11-21.sqlite")  # schema 2
LEGACY_ADD = os.path.join(REPORTS, "legacy", "h200_add_2026-11-21.sqlite")  # schema 1
PROFILE_TABLES = ["profiled_kernels", "kernel_metrics", "kernel_findings", "kernel_source",
                  "instruction_values", "sass_instructions", "source_files"]
SAXPY = "k_saxpy(long, float, float const*, float*)"
METRICS_CU = "/work/main/examples/metrics/metrics_kernels.cu"  # where it was compiled


@pytest.fixture(scope="module")
def full():
    with gpuscope.open(FULL) as report:
        yield report


def test_the_version_is_the_projects():
    assert gpuscope.__version__ == os.environ["GPUSCOPE_VERSION"], (
        "python/gpuscope/_version.py differs from CMakeLists.txt's project(gpuscope VERSION)")


def test_repr_says_what_the_report_is(full):
    assert repr(full) == (f"<gpuscope.Report {FULL!r}: profile report, 14 profiled kernels "
                          "(14 measured), 26 kernels, 249 API calls, 0 NVTX events; "
                          "schema version 4>")
    with gpuscope.open(ADD) as trace:
        assert trace.kind == "trace"
        assert repr(trace) == (f"<gpuscope.Report {ADD!r}: trace report, 1 kernel, "
                               "124 API calls, 0 NVTX events; schema version 4>")
    assert repr(trace) == f"<gpuscope.Report {ADD!r} (closed)>"


def test_profiled_kernels(full):
    kernels = full.profiled_kernels()
    assert list(kernels["profile_index"]) == list(range(14))
    first = kernels.iloc[0]
    assert (first["name"], first["demangled"]) == ("_Z7k_saxpylfPKfPf", SAXPY)
    assert (first["invocation"], first["correlation_id"], first["chip"], first["passes"]) == \
        (0, 175, "GH100", 23)
    assert (first["replay_mode"], first["outcome"], first["message"]) == ("kernel", "measured", "")
    # Stored relative to meta.time_base_ns (1796639862215914061), read absolute.
    assert (first["start"], first["end"]) == (1796639862364827030, 1796639863502051097)
    assert list(kernels["invocation"][kernels["name"] == "_Z6k_tinyPi"]) == [0, 1, 2]
    assert (kernels["range_kernels"] == 0).all()


def test_kernel_metrics_is_a_table(full):
    metrics = full.table("kernel_metrics")  # "no event table" before the profile tables
    assert len(metrics) == 2436
    saxpy = metrics[metrics["profiled_kernel_id"] == 1].set_index("metric")
    assert saxpy.loc["dram__bytes.sum", "value"] == 798406400.0
    assert saxpy.loc["dram__bytes.sum", "unit"] == "byte"
    wide = metrics.pivot(index="profiled_kernel_id", columns="metric", values="value")
    assert wide.shape == (14, 174)


def test_kernel_findings(full):
    findings = full.kernel_findings()
    assert len(findings) == 51
    first = findings.iloc[0]
    assert (first["profiled_kernel_id"], first["rank"], first["rule_id"], first["severity"],
            first["title"]) == (1, 0, "achieved_occupancy", "OPT", "Achieved Occupancy")
    assert first["speedup_pct"] == pytest.approx(4.118715, abs=1e-6)
    assert first["message"].startswith("The difference between calculated theoretical (100.0%)")
    assert findings["speedup_pct"].isna().sum() == 25  # the INF findings estimate nothing
    assert findings["rule_id"].value_counts()["sol_bound"] == 14


def test_source_counters_and_their_instructions(full):
    source = full.kernel_source()
    assert len(source) == 14
    assert (source.loc[0, "message"], source.loc[0, "total_samples"],
            source.loc[0, "sampling_period"]) == ("", 148502, 9)
    # PC sampling runs once per context: the second launch on gets none, and says why.
    assert source.loc[1, "message"].startswith("warp stall sampling: not sampled")
    values = full.instruction_values()
    assert len(values) == 6633
    assert values.groupby("metric")["value"].sum()["smsp__sass_inst_executed"] == 1020849307
    sass = full.sass_instructions()
    assert len(sass) == 2016
    assert list(sass.loc[0, ["function", "pc_offset", "sass", "file", "line"]]) == \
        ["_Z7k_saxpylfPKfPf", 0, "LDC R1, c[0x0][0x28]", METRICS_CU, 55]
    assert len(full.source_files()) == 2


def test_source_page_by_instruction_and_by_line(full):
    by_sass = full.source()
    assert len(by_sass) == 2200  # every instruction of each profiled kernel's functions
    saxpy = by_sass[by_sass["profiled_kernel_id"] == 1]
    assert list(saxpy.iloc[0][["pc_offset", "sass", "line", "smsp__sass_inst_executed"]]) == \
        [0, "LDC R1, c[0x0][0x28]", 55, 2097152]
    by_line = full.source(by="line")
    assert len(by_line) == 89
    lines = by_line[by_line["profiled_kernel_id"] == 1].set_index("line")
    assert list(lines.index) == [55, 56, 57, 58]
    assert lines.loc[57, "source"] == "  if (i < n) y[i] = a * x[i] + y[i];"
    assert lines.loc[57, "smsp__sass_inst_executed"] == 37748736
    assert pd.isna(lines.loc[57, "smsp__pcsamp_warps_issue_stalled_branch_resolving"])
    with pytest.raises(ValueError, match="by must be one of sass, line"):
        full.source(by="cuda")


@pytest.mark.parametrize("path", [ADD, LEGACY_ADD])
def test_a_trace_has_empty_profile_tables(path):
    with gpuscope.open(path) as report:
        for name in PROFILE_TABLES:
            frame = report.table(name)
            assert frame.empty and len(frame.columns), (path, name)
        assert report.source().empty and report.source(by="line").empty


def test_a_report_older_than_findings_and_source_counters():
    with gpuscope.open(LEGACY_FULL) as report:
        assert len(report.profiled_kernels()) == 14
        assert len(report.kernel_metrics()) == 2366
        assert report.kernel_findings().empty
        assert report.source().empty


def test_unknown_tables_name_the_profile_tables_too(full):
    with pytest.raises(ValueError, match="tables: kernels, .*, profiled_kernels, kernel_metrics"):
        full.table("kernel_metric")
    with pytest.raises(ValueError, match="kernel_metrics has no column 'valeu'"):
        full.kernel_metrics(columns=["valeu"])
    assert list(full.kernel_metrics(columns=["metric"]).columns) == ["metric"]


def test_counts_that_cannot_be_true_are_left_out_and_counted(tmp_path):
    path = str(tmp_path / "damaged.sqlite")
    shutil.copyfile(FULL, path)
    db = sqlite3.connect(path)
    # The 10 counters of saxpy's first instruction (WITHOUT ROWID: by its key).
    db.execute("UPDATE instruction_values SET value = -1 "
               "WHERE profiled_kernel_id = 1 AND pc_offset = 0")
    db.commit()
    db.close()
    with gpuscope.open(path) as report, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert len(report.instruction_values()) == 6623
        assert report.skipped_rows == {("instruction_values", "negative count"): 10}
    assert "10 rows of instruction_values left out (negative count)" in str(caught[0].message)


def test_values_a_crafted_report_stores_read_as_the_cpp_reader_reads_them(tmp_path):
    path = str(tmp_path / "crafted.sqlite")
    shutil.copyfile(FULL, path)
    db = sqlite3.connect(path)
    db.executescript("""
        UPDATE kernel_metrics SET value = 'high'
            WHERE profiled_kernel_id = 1 AND metric = 'dram__bytes.sum';
        UPDATE profiled_kernels SET chip = x'ff00' WHERE id = 2;
    """)
    db.commit()
    with gpuscope.open(path) as report:
        metrics = report.kernel_metrics().set_index(["profiled_kernel_id", "metric"])
        assert pd.isna(metrics.loc[(1, "dram__bytes.sum"), "value"])  # not a number: n/a
        assert report.profiled_kernels().loc[1, "chip"] == "\ufffd\x00"  # bytes read as text
    db.execute("UPDATE profiled_kernels SET passes = 'many' WHERE id = 2")
    db.commit()
    db.close()
    with gpuscope.open(path) as report:
        with pytest.raises(gpuscope.ReportError,
                           match="profiled_kernels.passes: a value that is not an integer"):
            report.profiled_kernels()
