"""gpuscope.open(path): the event tables as DataFrames with absolute times, resolved and
demangled names, and damaged rows left out and counted."""

import warnings

import pytest

import gpuscope
from gpuscope.report import output_columns
from gpuscope._tables import DECLARATIONS
from report_fixtures import BASE_NS, GEMM, GEMM_DEMANGLED, ReportFile


@pytest.fixture
def report_path(schema, tmp_path):
    path = tmp_path / "r.sqlite"
    report = ReportFile(path, schema, pid=4242, hostname="nodeA", start=100, end=10_000_000)
    report.add_launch(GEMM, 900, 1_000, 51_000, demangled=GEMM_DEMANGLED)
    report.add_launch("plain_c_kernel", 52_000, 60_000, 61_000)
    report.add_memcpy(70_000, 80_000, bytes_=1 << 20)
    report.add_memset(81_000, 82_000)
    report.add_range("step 0", 500, 90_000)
    report.add_range("in a domain", 600, 700, domain="NCCL")
    report.close()
    return path


def test_kernels_have_absolute_times_and_resolved_names(report_path):
    with gpuscope.open(report_path) as report:
        kernels = report.kernels()
    assert list(kernels.columns) == output_columns(DECLARATIONS.tables["kernels"])
    assert list(kernels["start"]) == [BASE_NS + 1_000, BASE_NS + 60_000]
    assert list(kernels["end"]) == [BASE_NS + 51_000, BASE_NS + 61_000]
    assert list(kernels["name"]) == [GEMM, "plain_c_kernel"]
    assert list(kernels["demangled"]) == [GEMM_DEMANGLED, "plain_c_kernel"]
    assert list(kernels["grid_x"]) == [80, 80]


def test_launch_calls_join_their_kernels_by_correlation_id(report_path):
    with gpuscope.open(report_path) as report:
        kernels = report.kernels(columns=["correlation_id", "start"])
        calls = report.api_calls()
    joined = kernels.merge(calls, on="correlation_id", suffixes=("_kernel", "_call"))
    assert list(joined["name"]) == ["cudaLaunchKernel", "cudaLaunchKernel"]
    assert (joined["start_call"] < joined["start_kernel"]).all()
    assert not calls["nested"].any()


def test_copies_memsets_nvtx_and_process(report_path):
    with gpuscope.open(report_path) as report:
        memcpys, memsets, nvtx = report.memcpys(), report.memsets(), report.nvtx()
        process = report.process()
    assert list(memcpys["bytes"]) == [1 << 20]
    assert list(memcpys["start"]) == [BASE_NS + 70_000]
    assert list(memsets["end"]) == [BASE_NS + 82_000]
    assert list(nvtx["name"]) == ["step 0", "in a domain"]
    assert list(nvtx["domain"]) == ["", "NCCL"]  # NULL: NVTX's default domain
    assert process.loc[0, "pid"] == 4242
    assert process.loc[0, "hostname"] == "nodeA"
    assert process.loc[0, "start"] == BASE_NS + 100


def test_unknown_table_or_column_is_refused(report_path):
    with gpuscope.open(report_path) as report:
        with pytest.raises(ValueError, match="no table .kernel.; tables: kernels"):
            report.table("kernel")
        with pytest.raises(ValueError, match="has no column 'nmae'"):
            report.kernels(columns=["nmae"])


def test_damaged_rows_are_left_out_and_counted(schema, tmp_path):
    path = tmp_path / "damaged.sqlite"
    report = ReportFile(path, schema, start=0, end=1_000_000)
    report.add_launch("good", 10, 100, 200)
    report.add_launch("ends_before_it_starts", 10, 300, 250)
    report.add_launch("after_the_run", 10, 2_000_000, 2_000_100)
    report.add_launch("zero_grid", 10, 400, 500, grid_x=0)
    report.close()
    with gpuscope.open(path) as opened, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernels = opened.kernels()
        assert list(kernels["name"]) == ["good"]
        assert opened.skipped_rows == {("kernels", "end before start"): 1,
                                       ("kernels", "outside the run"): 1,
                                       ("kernels", "bad launch dimension"): 1}
    assert len(caught) == 3 and "left out" in str(caught[0].message)
