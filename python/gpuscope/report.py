"""A report as pandas DataFrames: ``gpuscope.open("r.sqlite").kernels()``.

Each event table becomes a DataFrame with the columns its C++ declaration gives
(event_tables.json), read the way the C++ reader reads them:
- times are absolute ns (stored times are relative to meta.time_base_ns, added as the C++
  reader adds them: _times.py), nullable Int64 (NA: CUPTI could not time the activity);
- name ids are resolved through `strings`: a column ``name_id`` becomes ``name`` (kernels
  also get ``demangled``), ``domain_id`` becomes ``domain`` ('' for NVTX's default domain);
  an id that names no string is damage that ends the read (ReportError), as in C++;
- an integer column's NULL reads as 0, as the C++ reader reads it;
- rows whose values cannot be true (an end before its start, a time outside the run, a
  kernel with a grid or block dimension of 0 or less; src/store/damaged_rows.h) are left out
  and counted in ``Report.skipped_rows``, with a warning, never silently.

The tables of `gpuscope profile` (profiled_kernels, kernel_metrics, kernel_findings, the source
counters: _profile_tables.py) read through the same ``table(name)``; ``source()`` puts the
source counters beside their SASS and lines (_source.py), ``stats(name)`` is what
`gpuscope stats --report name` prints (_stats.py).
"""

import warnings

import numpy as np
import pandas as pd

from gpuscope import _profile_tables, _source, _stats, _times
from gpuscope._columns import integers as _integers
from gpuscope._connection import Connection
from gpuscope._errors import ReportError
from gpuscope._report_rules import check_name_ids
from gpuscope._tables import DECLARATIONS

_LAUNCH_DIMENSIONS = ("grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z")


def _resolved_name(column_name):
    return column_name[:-3] if column_name.endswith("_id") else column_name


def output_columns(table):
    """The DataFrame columns of a declared table, in order (after ``id``)."""
    names = ["id"]
    for column in table.columns:
        if column.stored in ("name", "optional_name"):
            names.append(_resolved_name(column.name))
        elif column.stored == "kernel_name":
            names += [_resolved_name(column.name), "demangled"]
        else:
            names.append(column.name)
    return names


class Report:
    """One gpuscope report, read-only. Use as a context manager or call close(). Each event
    table has its method (report.kernels(), report.api_calls(), ...: see the end of this
    file), the process row is report.process()."""

    def __init__(self, path):
        self._connection = Connection(path)
        self.path = self._connection.path
        self.schema_version = self._connection.schema_version
        self.time_base_ns = self._connection.time_base_ns
        self.skipped_rows = {}  # (table, damage) -> rows left out
        self._string_count = self._connection.string_count
        self._run = self._read_run()
        self._closed = False

    def __repr__(self):
        if self._closed:
            return f"<gpuscope.Report {self.path!r} (closed)>"
        try:
            kind = self.kind
            counts = ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in self._counts())
        except ReportError as error:  # a damaged report: repr must not fail
            return f"<gpuscope.Report {self.path!r}: {error}>"
        return (f"<gpuscope.Report {self.path!r}: {kind} report, {counts}; "
                f"schema version {self.schema_version}>")

    def _counts(self):
        """(count, what, its plural) of the tables a reader looks at first; profiled kernels
        only in a profile report."""
        def count(table, where=""):
            if not self._connection.has_table(table):
                return 0
            return self._connection.rows(f'SELECT count(*) FROM "{table}" {where}')[0][0]

        counts = []
        if self.kind == "profile":
            # outcome 0: profile_outcomes' 'measured'
            measured = f"({count('profiled_kernels', 'WHERE outcome = 0')} measured)"
            counts.append((count("profiled_kernels"), f"profiled kernel {measured}",
                           f"profiled kernels {measured}"))
        return counts + [(count("kernels"), "kernel", "kernels"),
                         (count("api_calls"), "API call", "API calls"),
                         (count("nvtx"), "NVTX event", "NVTX events")]

    @property
    def kind(self):
        """'profile' for a report of `gpuscope profile` (it has profiled kernels), else
        'trace' (`gpuscope run`)."""
        has = self._connection.has_table("profiled_kernels") and self._connection.rows(
            "SELECT 1 FROM profiled_kernels LIMIT 1")
        return "profile" if has else "trace"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._connection.close()
        self._closed = True

    @property
    def meta(self):
        return dict(self._connection.meta)

    def process(self):
        """The process row (one row): every column the report's schema has (version 3 adds
        the rank and boot id), start and end absolute."""
        frame = self._plain_table("process")
        for column in ("start", "end"):
            if column in frame:
                relative = _integers(list(frame[column]), f"{self.path}: process.{column}", True)
                # As an event's time; past INT64_MAX (a damaged row) there is none to give.
                frame[column] = pd.array(
                    [pd.NA if pd.isna(v) else
                     _times.scalar_as_int64(_times.absolute(int(v), self.time_base_ns))
                     for v in relative], dtype="Int64")
        return frame

    def devices(self):
        return self._plain_table("devices")

    def table(self, name, columns=None):
        """Table `name` as a DataFrame; `columns` picks output columns. An event table
        (kernels, api_calls, ...) in start order; a table of `gpuscope profile`
        (profiled_kernels, kernel_metrics, kernel_findings, kernel_source,
        instruction_values, sass_instructions, source_files) in its key's order, no rows
        when the report has none."""
        table = DECLARATIONS.tables.get(name) or _profile_tables.PROFILE_TABLES.get(name)
        if table is None:
            known = [*DECLARATIONS.tables, *_profile_tables.PROFILE_TABLES]
            raise ValueError(f"no table {name!r}; tables: {', '.join(known)}")
        event_table = name in DECLARATIONS.tables
        if event_table and not self._connection.has_table(name):
            raise ReportError(f"{self.path}: has no table {name}")
        wanted = output_columns(table) if event_table else table.column_names
        if columns is not None:
            unknown = [c for c in columns if c not in wanted]
            if unknown:
                raise ValueError(f"{name} has no column {unknown[0]!r}; columns: {', '.join(wanted)}")
        if event_table:
            frame = self._without_damaged_rows(table, self._read_event_table(table))
        else:
            frame = _profile_tables.read(self._connection, table, self.time_base_ns)
            if table.damage is not None:
                frame = self._leave_out(name, frame, table.damage(frame))
        return frame if columns is None else frame[list(columns)].reset_index(drop=True)

    def source(self, by="sass"):
        """The source counters of the profiled kernels (`profile --set full`): by="sass", one
        row per instruction of each profiled kernel's functions, with its SASS, file and
        line; by="line", one row per source line (nvcc -lineinfo) with its text. A column
        per counter (CUPTI's name: smsp__sass_inst_executed, the stall reasons' samples...),
        NA where none was counted: the numbers of `gpuscope source`."""
        return _source.page(self, by)

    def stats(self, name, options=()):
        """`gpuscope stats --report name` of this report as a DataFrame: the command's own
        numbers (it computes them), `options` more of its options, passed on. The command is
        $GPUSCOPE_BIN, else the gpuscope on PATH."""
        return _stats.stats(name, [self.path], options=options)

    # Reading.
    def _plain_table(self, name):
        if not self._connection.has_table(name):
            raise ReportError(f"{self.path}: has no table {name}")
        names = self._connection.table_columns(name)
        rows = self._connection.rows(f'SELECT * FROM "{name}"')
        return pd.DataFrame.from_records(rows, columns=names)

    def _read_run(self):
        rows = self._connection.rows('SELECT start, "end" FROM process LIMIT 1')
        if not rows:
            return (0, 0)

        def absolute(value):
            if value is not None and not isinstance(value, int):
                raise ReportError(f"{self.path}: process start/end is not an integer")
            return _times.absolute(value, self.time_base_ns)

        return (absolute(rows[0][0]), absolute(rows[0][1]))

    def _read_event_table(self, table):
        selects = ["t.id"]
        joins = []
        # Columns newer than the report (api_calls.stack_id before schema version 4) read as
        # NULL, as the C++ reader selects them.
        present = set(self._connection.table_columns(table.name))
        for column in table.columns:
            source = f't."{column.name}"' if column.name in present else "NULL"
            if column.stored in ("name", "optional_name", "kernel_name"):
                alias = f"s_{column.name}"
                joins.append(f'LEFT JOIN strings {alias} ON {alias}.id = {source}')
                selects += [source, f"{alias}.value"]
                if column.stored == "kernel_name":
                    selects.append(f"{alias}.demangled")
            else:
                selects.append(source)
        sql = (f'SELECT {", ".join(selects)} FROM "{table.name}" t {" ".join(joins)} '
               f'ORDER BY t."{table.start_column}", t.id')
        rows = self._connection.rows(sql)
        names = output_columns(table)
        values = list(zip(*rows)) if rows else [()] * len(selects)
        data = {}
        position = 1
        data["id"] = _integers(list(values[0]), f"{self.path}: {table.name}.id", False)
        for column in table.columns:
            where = f"{self.path}: {table.name}.{column.name}"
            if column.stored == "time":
                # Relative here; made absolute with the damaged rows left out.
                data[column.name] = _integers(list(values[position]), where, True)
            elif column.stored in ("name", "kernel_name"):
                check_name_ids(self.path, table.name, values[position], self._string_count)
                position += 1
                data[_resolved_name(column.name)] = pd.Series(values[position], dtype=object)
                if column.stored == "kernel_name":
                    position += 1
                    data["demangled"] = pd.Series(values[position], dtype=object)
            elif column.stored == "optional_name":
                # NULL: the default domain, which the writer stores for the empty name.
                check_name_ids(self.path, table.name, [v for v in values[position]
                                                        if v is not None], self._string_count)
                position += 1
                data[_resolved_name(column.name)] = pd.Series(
                    ["" if v is None else v for v in values[position]], dtype=object)
            elif column.stored == "writer_flag":
                data[column.name] = _integers(list(values[position]), where, False) != 0
            elif column.stored == "optional_integer":
                # NULL: none (api_calls.stack_id without a --backtrace stack), 0 as in C++.
                data[column.name] = _integers(
                    [0 if v is None else v for v in values[position]], where, False)
            else:
                data[column.name] = _integers(list(values[position]), where, False)
            position += 1
        return pd.DataFrame(data, columns=names)

    def _without_damaged_rows(self, table, frame):
        """Makes the stored times absolute and leaves out what the C++ readers leave out
        (store/damaged_rows.h), counted."""
        times = [c.name for c in table.columns if c.stored == "time"]
        absolute = {c: _times.absolute_column(frame[c], self.time_base_ns) for c in times}
        start = absolute[table.start_column]
        end = absolute["end"] if "end" in absolute else np.zeros_like(start)
        damaged = _times.damage(start, end, self._run)
        bad = np.zeros(len(frame), dtype=bool)
        for mask in damaged.values():
            bad |= mask
        if all(d in frame for d in _LAUNCH_DIMENSIONS):
            dimensions = np.column_stack([frame[d].to_numpy() for d in _LAUNCH_DIMENSIONS])
            bad_launch = (dimensions <= 0).any(axis=1) & ~bad
            damaged["bad launch dimension"] = bad_launch
            bad = bad | bad_launch
        past = np.zeros_like(bad)
        for column in times:
            past |= _times.past_int64(absolute[column])
        damaged[_times.PAST_INT64] = past & ~bad
        bad = bad | past
        self._count_left_out(table.name, damaged)
        kept = frame[~bad].reset_index(drop=True) if bad.any() else frame.copy()
        for column in times:
            missing = np.asarray(frame[column].isna(), dtype=bool)[~bad]
            kept[column] = _times.as_int64(absolute[column][~bad], missing)
        return kept

    def _leave_out(self, name, frame, damaged):
        """`frame` without the rows of the {kind: mask} `damaged`, counted."""
        bad = np.zeros(len(frame), dtype=bool)
        for kind, mask in damaged.items():
            damaged[kind] = mask & ~bad  # each row counted once, for its first damage
            bad |= mask
        self._count_left_out(name, damaged)
        return frame[~bad].reset_index(drop=True) if bad.any() else frame

    def _count_left_out(self, name, damaged):
        for kind, mask in damaged.items():
            count = int(mask.sum())
            if count:
                key = (name, kind)
                self.skipped_rows[key] = self.skipped_rows.get(key, 0) + count
                warnings.warn(f"{self.path}: {count} rows of {name} left out ({kind})",
                              stacklevel=4)


def _table_accessor(name):
    def accessor(self, columns=None):
        return self.table(name, columns)

    accessor.__name__ = accessor.__qualname__ = name
    accessor.__doc__ = f"The {name} table as a DataFrame (Report.table({name!r}, columns))."
    return accessor


# One method per table: the declared event tables (report.kernels(), .api_calls(),
# .memcpys(), .memsets(), .nvtx(), .memory(), .syncs(), .overheads(); a table declared in C++
# later gets its method with the regenerated event_tables.json) and the profile's
# (report.profiled_kernels(), .kernel_metrics(), .kernel_findings(), ...).
for _name in [*DECLARATIONS.tables, *_profile_tables.PROFILE_TABLES]:
    setattr(Report, _name, _table_accessor(_name))


def open(path):  # noqa: A001 (gpuscope.open, like the builtin, is the package's entry point)
    """Opens a report read-only; raises ReportError for a file that is not a readable report."""
    return Report(path)
