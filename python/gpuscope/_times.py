"""Times as the C++ reader computes and judges them, so that both readers keep and leave out the
same rows of a damaged report, and no hostile value ends in an OverflowError.

A stored time is relative to meta.time_base_ns (0 to 2^64 - 1); the absolute time is their
sum modulo 2^64, as the C++ reader's unsigned arithmetic makes it (src/store/
event_row_decoder.h, query_rows.h ColumnTime); 0 stands for "no time" (NULL), as there.
A row is damaged as src/store/damaged_rows.cpp TimestampDamage says.

The DataFrames hold absolute times as int64: a time past 2^63 - 1 ns (the year 2262), which
only a damaged report of a run without a recorded end can keep, cannot be held, and its row is
left out and counted too ("time past 2^63 ns").
"""

import numpy as np
import pandas as pd

_MASK = (1 << 64) - 1
INT64_MAX = (1 << 63) - 1

ENDS_BEFORE_START = "end before start"
OUTSIDE_THE_RUN = "outside the run"
PAST_INT64 = "time past 2^63 ns"


def absolute(relative, time_base):
    """One stored time (an int, or None: no time) as the C++ reader's absolute time (0: none)."""
    return 0 if relative is None else (relative + time_base) & _MASK


def absolute_column(relative, time_base):
    """A column of stored times (pandas Int64, NA: no time) as uint64 absolute times, 0 for
    none, wrapping modulo 2^64 as the C++ reader's do."""
    stored = relative.fillna(0).to_numpy(dtype=np.int64).view(np.uint64)
    with np.errstate(over="ignore"):
        result = stored + np.uint64(time_base)
    result[np.asarray(pd.isna(relative), dtype=bool)] = 0
    return result


def damage(start, end, run):
    """{kind: mask} of the rows TimestampDamage calls damaged; `start`, `end` uint64 (0: none),
    `run` the (start, end) of the process as absolute times (end 0: not recorded)."""
    timed = start != 0
    ends_before = timed & (end != 0) & (end < start)
    outside = np.zeros_like(timed)
    run_start, run_end = (np.uint64(t) for t in run)
    # A run whose recorded start lies after its end is damaged itself: no row is judged by it.
    if run_end != 0 and run_start <= run_end:
        last = np.where(end != 0, end, start)
        outside = timed & ~ends_before & ((start < run_start) | (last > run_end))
    return {ENDS_BEFORE_START: ends_before, OUTSIDE_THE_RUN: outside}


def as_int64(absolute_times, missing):
    """uint64 absolute times as a nullable Int64 column (NA where `missing`); the caller has
    left out the times past INT64_MAX (`past_int64`)."""
    values = np.where(missing, np.uint64(0), absolute_times).astype(np.int64)  # all fit
    return pd.arrays.IntegerArray(values, np.asarray(missing, dtype=bool).copy())


def past_int64(absolute_times):
    return absolute_times > np.uint64(INT64_MAX)


def scalar_as_int64(value):
    """An absolute time as an int, or None past INT64_MAX (a DataFrame of int64 cannot hold it)."""
    return value if value <= INT64_MAX else None
