"""The Dask engine (a LocalCluster of 2 worker processes) gives the same tables and findings
as the in-process engine."""

import pandas as pd
import pytest

import gpuscope
from report_fixtures import RankJob, write_rank_reports


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    from report_fixtures import schema_sql
    job = RankJob(ranks=8, ranks_per_host=2, host_clock_offset_ns=[0, 5_000, -90_000, 3_000_000],
                  steps=5, kernels_per_step=8, straggler_rank=6, straggler_delay_ns=250_000)
    return write_rank_reports(job, str(tmp_path_factory.mktemp("ranks")), schema_sql())


def test_dask_equals_local(reports):
    local = gpuscope.ranks.analyze(reports, engine="local")
    dask = gpuscope.ranks.analyze(reports, engine="dask")
    pd.testing.assert_frame_equal(local.rank_align, dask.rank_align)
    pd.testing.assert_frame_equal(local.rank_comm_sum, dask.rank_comm_sum)
    assert local.findings == dask.findings
    assert [f.rank for f in dask.findings if f.rule_id == "rank_straggler"] == [6]


def test_dask_on_a_given_client(reports):
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        result = gpuscope.ranks.analyze(reports, engine="dask", scheduler=client)
        by_address = gpuscope.ranks.analyze(reports, engine="dask",
                                            scheduler=cluster.scheduler_address)
    local = gpuscope.ranks.analyze(reports, engine="local")
    pd.testing.assert_frame_equal(local.rank_comm_sum, result.rank_comm_sum)
    pd.testing.assert_frame_equal(local.rank_align, by_address.rank_align)


def test_a_damaged_report_fails_the_dask_run_with_its_name(reports, tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a report" * 100)
    with pytest.raises(gpuscope.ReportError, match="bad.sqlite"):
        gpuscope.ranks.analyze(list(reports) + [str(bad)], engine="dask")
