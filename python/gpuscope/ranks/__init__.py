"""Multi-rank analyses of many reports: clock alignment (rank_align), per-rank temporal
breakdown (rank_comm_sum) and the findings, on threads in this process or as Dask tasks.

    result = gpuscope.ranks.analyze(paths, engine="dask")          # LocalCluster(2 workers)
    result = gpuscope.ranks.analyze(paths, engine="dask", scheduler="tcp://host:8786")
    result.rank_align, result.rank_comm_sum, result.findings

Each report is read by one task (rank_read.read_rank: streamed, only the columns needed) and
the small per-rank results are reduced in one task (reduction.reduce_ranks).
"""

import os
from concurrent.futures import ThreadPoolExecutor

from gpuscope.ranks.nccl import collective_kind, is_nccl_kernel, match_collectives
from gpuscope.ranks.rank_read import RankData, read_rank
from gpuscope.ranks.reduction import Finding, RankAnalysis, reduce_ranks

__all__ = ["analyze", "read_rank", "reduce_ranks", "RankAnalysis", "RankData", "Finding",
           "is_nccl_kernel", "collective_kind", "match_collectives"]

ENGINES = ("local", "dask")


def analyze(paths, engine="local", scheduler=None, workers=None):
    """Aligns and analyses the reports at `paths`; returns a RankAnalysis.

    engine "local": threads in this process (`workers` of them, default the CPU count).
    engine "dask": Dask tasks; `scheduler` None starts a distributed.LocalCluster of
    `workers` (default 2) worker processes for this call, a string is a scheduler address
    (Client(scheduler)), a distributed.Client is used as it is.
    """
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError("analyze needs at least one report")
    if engine == "local":
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
            return reduce_ranks(list(pool.map(read_rank, paths)))
    if engine == "dask":
        from gpuscope.ranks.dask_engine import analyze_on_dask
        return analyze_on_dask(paths, scheduler, workers or 2)
    raise ValueError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
