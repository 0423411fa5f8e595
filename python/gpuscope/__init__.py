"""gpuscope's reports from Python: pandas DataFrames of one report, multi-rank analyses on
threads or on Dask.

    import gpuscope
    kernels = gpuscope.open("r.sqlite").kernels()
    tables = gpuscope.ranks.analyze(["r0.sqlite", "r1.sqlite"], engine="dask")
"""

from gpuscope._errors import ReportError
from gpuscope.report import Report, open  # noqa: A004 (gpuscope.open is the entry point)
from gpuscope import ranks

__all__ = ["open", "Report", "ReportError", "ranks"]
