"""gpuscope's reports from Python: pandas DataFrames of one report, the `gpuscope stats`
tables, multi-rank analyses on threads or on Dask.

    import gpuscope
    r = gpuscope.open("r.sqlite")         # repr: trace or profile report, what it holds
    kernels = r.kernels()                 # an event table, absolute ns; r.table("api_calls")
    metrics = r.kernel_metrics()          # `gpuscope profile`: profiled_kernels, kernel_findings...
    lines = r.source(by="line")           # source counters per source line
    summary = r.stats("cuda_gpu_kern_sum")  # what `gpuscope stats --report ...` prints
    tables = gpuscope.ranks.analyze(["r0.sqlite", "r1.sqlite"], engine="dask")
"""

from gpuscope._errors import ReportError
from gpuscope._stats import stats
from gpuscope._version import __version__
from gpuscope.report import Report, open  # noqa: A004 (gpuscope.open is the entry point)
from gpuscope import ranks

__all__ = ["open", "Report", "ReportError", "ranks", "stats", "__version__"]
