"""One rank's report read in one task: who it is, its clock samples, its NCCL kernels and its
temporal breakdown, streamed in start order (a chunk of rows at a time, only the columns the
analysis needs), so a task's memory does not grow with the report.

Everything here is independent of the clock offset the alignment finds later (a constant
shift of one report), except the collectives' starts and ends, which the reduction aligns.
"""

from dataclasses import dataclass, field
from statistics import median_low

import numpy as np
import pandas as pd

from gpuscope import _times
from gpuscope._connection import Connection
from gpuscope._errors import ReportError
from gpuscope._report_rules import check_name_ids
from gpuscope.ranks.intervals import UnionMeasure
from gpuscope.ranks.nccl import Collective, collective_kind, is_nccl_kernel

CHUNK_ROWS = 65536

_LAUNCH_DIMENSIONS = ("grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z")
# On equal starts: kernels, then copies, then memsets (as the C++ side's activity stream).
_TABLE_ORDER = ("kernels", "memcpys", "memsets")


@dataclass
class Breakdown:
    """ns; span = last end - first start of GPU activity; busy = |union of all of it|."""
    span: int = 0
    compute: int = 0  # |union of non-NCCL kernels|
    communication: int = 0  # |union of NCCL kernels|
    overlap: int = 0  # |union(communication) ∩ union(compute)|
    busy: int = 0
    idle_host: int = 0  # gaps closed by an activity whose launch call began inside the gap
    idle_other: int = 0

    @property
    def exposed(self):
        return self.communication - self.overlap

    @property
    def idle(self):
        return self.span - self.busy


@dataclass
class RankData:
    """What one report contributes to the multi-rank analyses (small: no event rows)."""
    path: str
    rank: object  # int, or None when unknown
    host: str  # hostname
    host_key: str  # boot id when recorded, else hostname
    pid: int
    clock_offset: object  # median of (cupti - realtime) over the clock samples; None: none
    clock_spread: int  # max - min of the same (0 without samples)
    # The GPU pairs (device_id and gpu_ns set): lower median of gpu_ns - realtime_ns over all of
    # them and the largest max - min of it over one device's pairs; None without GPU pairs.
    gpu_minus_realtime: object = None
    gpu_spread: object = None
    collectives: list = field(default_factory=list)  # NCCL kernels (Collective), start order
    breakdown: Breakdown = field(default_factory=Breakdown)


def read_rank(path):
    """Reads what the analyses need from the report at `path` (one task)."""
    connection = Connection(path)
    try:
        return _RankReader(connection).read()
    finally:
        connection.close()


class _RankReader:
    def __init__(self, connection):
        self.db = connection
        self.base = connection.time_base_ns

    def read(self):
        rank, host, host_key, pid, run = self._identity()
        offset, spread, gpu_offset, gpu_spread = self._clock_samples()
        data = RankData(self.db.path, rank, host, host_key, pid, offset, spread, gpu_offset,
                        gpu_spread)
        self._stream_activity(data, run)
        return data

    def _identity(self):
        columns = set(self.db.table_columns("process"))
        wanted = ["pid", "hostname", "start", '"end"']
        wanted += ["boot_id" if "boot_id" in columns else "''"]
        wanted += ["rank" if "rank" in columns else "NULL"]
        rows = self.db.rows(f"SELECT {', '.join(wanted)} FROM process LIMIT 1")
        if not rows:
            raise ReportError(f"{self.db.path}: the process row is missing")
        pid, hostname, start, end, boot_id, rank = rows[0]
        for value, what in ((pid, "pid"), (start, "start"), (end, "end"), (rank, "rank")):
            if value is not None and not isinstance(value, int):
                raise ReportError(f"{self.db.path}: process.{what} is not an integer")
        hostname = hostname if isinstance(hostname, str) else ""
        boot_id = boot_id if isinstance(boot_id, str) else ""
        run = (_times.absolute(start, self.base), _times.absolute(end, self.base))
        return rank, hostname, boot_id or hostname, pid or 0, run

    def _clock_samples(self):
        """Median and spread of (cupti - realtime): how the report's clock stands to the
        host's CLOCK_REALTIME (schema version 3; older reports have no samples); and of the GPU
        pairs' (gpu - realtime), the spread per device (the C++ SummarizeClockSamples)."""
        if not self.db.has_table("clock_samples"):
            return None, 0, None, None
        differences = []
        gpu_differences = []
        gpu_ranges = {}
        for cupti, realtime, monotonic, device, gpu in self.db.rows(
                "SELECT cupti_ns, realtime_ns, monotonic_ns, device_id, gpu_ns "
                "FROM clock_samples ORDER BY id"):
            # Left out like the C++ reader leaves them out: a missing clock, a device id
            # that is no device.
            if not all(isinstance(v, int) for v in (cupti, realtime, monotonic)) or not (
                    device is None or (isinstance(device, int) and 0 <= device < 2**32)):
                continue
            differences.append(cupti + self.base - realtime)
            if device is not None and isinstance(gpu, int):
                gpu_differences.append(gpu - realtime)
                low, high = gpu_ranges.get(device, (gpu - realtime, gpu - realtime))
                gpu_ranges[device] = (min(low, gpu - realtime), max(high, gpu - realtime))
        if not differences:
            return None, 0, None, None
        gpu_offset = median_low(gpu_differences) if gpu_differences else None
        gpu_spread = max(high - low for low, high in gpu_ranges.values()) if gpu_ranges else None
        return (median_low(differences), max(differences) - min(differences), gpu_offset,
                gpu_spread)

    def _activity_sql(self):
        """Kernels, copies and memsets with both times, in start order, each with the start of
        the API call that launched it (by correlation id). Kernels the C++ readers leave out
        for their launch dimensions are left out here; rows with damaged times, by
        `_damaged_times` (store/damaged_rows.h)."""
        valid = 'x.start IS NOT NULL AND x."end" IS NOT NULL'
        parameters = []
        kernel_valid = valid + "".join(f" AND x.{d} > 0" for d in _LAUNCH_DIMENSIONS)
        parts = []
        for what, table in enumerate(_TABLE_ORDER):
            name = "x.name_id" if table == "kernels" else "-1"
            where = kernel_valid if table == "kernels" else valid
            parts.append((f'SELECT x.start, x."end", {name} AS name_id, x.correlation_id, '
                          f'{what} AS what, x.id FROM {table} x WHERE {where}', parameters))
        union = " UNION ALL ".join(sql for sql, _ in parts)
        # The launch call that counts: the latest outer call (not a driver call nested in a
        # runtime call) of the activity's correlation id that began by the activity's start;
        # a gap is the host's when that call began inside it. Looked up in the TEMP index
        # _index_launch_calls made (the report has no index on correlation ids).
        launch = ('(SELECT max(c.start) FROM temp.launch_calls c WHERE c.correlation_id = '
                  'a.correlation_id AND c.start <= a.start)')
        sql = (f'SELECT a.start, a."end", a.name_id, {launch}, a.what FROM ({union}) a '
               'ORDER BY a.start, a.what, a.id')
        return sql, [p for _, ps in parts for p in ps]

    def _nccl_names(self):
        """name_id -> collective kind, for the NCCL kernels among the report's kernel names."""
        kinds = {}
        for name_id, value, demangled in self.db.rows(
                "SELECT s.id, s.value, s.demangled FROM strings s "
                "WHERE s.id IN (SELECT DISTINCT name_id FROM kernels)"):
            name = demangled if isinstance(demangled, str) and demangled else value
            if isinstance(name, str) and is_nccl_kernel(name):
                kinds[name_id] = collective_kind(name)
        return kinds

    def _index_launch_calls(self):
        """The outer API calls' (correlation id, start) in a TEMP table with an index, in
        SQLite's temporary storage (on disk past its cache: bounded memory)."""
        self.db.rows("CREATE TEMP TABLE launch_calls AS SELECT correlation_id, start "
                     "FROM api_calls WHERE nested = 0 AND start IS NOT NULL")
        self.db.rows("CREATE INDEX temp.launch_calls_by_correlation "
                     "ON launch_calls(correlation_id, start)")

    def _damaged_times(self, starts, ends, run):
        """Rows whose times the C++ readers leave out as damaged (and, as the DataFrames do,
        times past 2^63 ns): _times.py."""
        absolute = [_times.absolute_column(pd.array(t, dtype="Int64"), self.base)
                    for t in (starts, ends)]
        bad = np.zeros(len(starts), dtype=bool)
        for mask in _times.damage(absolute[0], absolute[1], run).values():
            bad |= mask
        return bad | _times.past_int64(absolute[0]) | _times.past_int64(absolute[1])

    def _stream_activity(self, data, run):
        self._index_launch_calls()
        nccl_kinds = self._nccl_names()
        nccl_ids = np.array(sorted(nccl_kinds), dtype=np.int64)
        compute, communication, kernels, everything = (UnionMeasure() for _ in range(4))
        breakdown = data.breakdown
        sql, parameters = self._activity_sql()
        for rows in self.db.rows(sql, parameters, chunk=CHUNK_ROWS):
            try:
                starts = np.fromiter((r[0] for r in rows), np.int64, len(rows))
                ends = np.fromiter((r[1] for r in rows), np.int64, len(rows))
                names = np.fromiter((r[2] for r in rows), np.int64, len(rows))
                api = np.fromiter((np.iinfo(np.int64).min if r[3] is None else r[3]
                                   for r in rows), np.int64, len(rows))
            except (TypeError, ValueError, OverflowError):
                raise ReportError(f"{self.db.path}: an activity row with a value that is not "
                                  "an integer") from None
            is_kernel = np.fromiter((r[4] == 0 for r in rows), bool, len(rows))
            # A kernel whose name id names no string ends the read, as in C++.
            check_name_ids(self.db.path, "kernels", names[is_kernel].tolist(),
                           self.db.string_count)
            kept = ~self._damaged_times(starts, ends, run)
            starts, ends, names, api = starts[kept], ends[kept], names[kept], api[kept]
            is_kernel = is_kernel[kept]
            is_nccl = np.isin(names, nccl_ids)
            is_compute = is_kernel & ~is_nccl
            compute.add(starts[is_compute], ends[is_compute])
            communication.add(starts[is_nccl], ends[is_nccl])
            kernels.add(starts[is_kernel], ends[is_kernel])
            gaps, gap_begins = everything.add(starts, ends)
            by_host = (gaps > 0) & (api > gap_begins)
            breakdown.idle_host += int(gaps[by_host].sum())
            breakdown.idle_other += int(gaps[~by_host].sum())
            for i in np.flatnonzero(is_nccl):
                data.collectives.append(Collective(nccl_kinds[int(names[i])],
                                                   int(starts[i]) + self.base,
                                                   int(ends[i]) + self.base))
        breakdown.span = everything.extent
        breakdown.busy = everything.measure
        breakdown.compute = compute.measure
        breakdown.communication = communication.measure
        breakdown.overlap = compute.measure + communication.measure - kernels.measure
