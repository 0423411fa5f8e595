"""The multi-rank analyses as Dask tasks: one task reads one report (read_rank), one task
reduces them all (reduce_ranks); only the small per-rank results travel between workers.

Workers import this package by name: a LocalCluster's worker processes inherit this
process's sys.path; workers of a remote scheduler need the package on their own path
(PYTHONPATH=<repository>/python, or the package installed).
"""

from gpuscope.ranks.rank_read import read_rank
from gpuscope.ranks.reduction import reduce_ranks


def analyze_on_dask(paths, scheduler, workers):
    from distributed import Client, LocalCluster

    if isinstance(scheduler, Client):
        return _run(scheduler, paths)
    if scheduler is not None:
        with Client(scheduler) as client:
            return _run(client, paths)
    # No dashboard: it needs bokeh, and a fixed port would clash between concurrent runs.
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        return _run(client, paths)


def _run(client, paths):
    per_rank = client.map(read_rank, paths, pure=False)
    return client.submit(reduce_ranks, per_rank, pure=False).result()
