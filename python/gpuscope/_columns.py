"""Columns of SQL values as the C++ reader reads them, for every table the package reads:
whatever a damaged or crafted report stores, a column becomes one dtype or one ReportError."""

import math

import numpy as np
import pandas as pd

from gpuscope import _times
from gpuscope._errors import ReportError


def integers(values, where, nullable):
    """A column of SQL integers as int64, NULL read as 0 as the C++ reader reads it (or, when
    `nullable`, Int64 with NA for NULL); anything else stored there is a damaged report."""
    try:
        if nullable:
            return pd.array(values, dtype="Int64")
        return np.array([0 if v is None else v for v in values], dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise ReportError(f"{where}: a value that is not an integer") from None


def reals(values):
    """A column of SQL numbers as float64; NULL, or anything stored that is not a number, is
    NaN (the C++ reader's "not a number", shown as n/a)."""
    return np.array([float(v) if isinstance(v, (int, float)) else math.nan for v in values],
                    dtype=np.float64)


def texts(values, nullable):
    """A column of SQL text (the queries CAST it, so a BLOB reads as text too); NULL is ''
    as C++ reads it, or stays None (NA) when `nullable`."""
    return pd.Series([v if v is not None or nullable else "" for v in values], dtype=object)


def absolute_times(values, where, time_base):
    """Stored times (relative; NULL: none) as absolute ns, Int64 with NA for none and for a
    time past INT64_MAX (a damaged row), as Report.process() reads its start and end."""
    relative = integers(values, where, True)
    return pd.array([pd.NA if pd.isna(v) else
                     _times.scalar_as_int64(_times.absolute(int(v), time_base))
                     for v in relative], dtype="Int64")
