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
"""

import warnings

import numpy as np
import pandas as pd

from gpuscope import _times
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


def _integers(values, where, nullable):
    """A column of SQL integers as int64, NULL read as 0 as the C++ reader reads it (or, when
    `nullable`, Int64 with NA for NULL); anything else stored there is a damaged report."""
    try:
        if nullable:
            return pd.array(values, dtype="Int64")
        return np.array([0 if v is None else v for v in values], dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise ReportError(f"{where}: a value that is not an integer") from None


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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._connection.close()

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
        """Event table `name` as a DataFrame in start order; `columns` picks output columns."""
        table = DECLARATIONS.tables.get(name)
        if table is None:
            raise ValueError(f"no event table {name!r}; tables: {', '.join(DECLARATIONS.tables)}")
        if not self._connection.has_table(name):
            raise ReportError(f"{self.path}: has no table {name}")
        wanted = output_columns(table)
        if columns is not None:
            unknown = [c for c in columns if c not in wanted]
            if unknown:
                raise ValueError(f"{name} has no column {unknown[0]!r}; columns: {', '.join(wanted)}")
        frame = self._read_event_table(table)
        frame = self._without_damaged_rows(table, frame)
        return frame if columns is None else frame[list(columns)].reset_index(drop=True)

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
        for kind, mask in damaged.items():
            count = int(mask.sum())
            if count:
                key = (table.name, kind)
                self.skipped_rows[key] = self.skipped_rows.get(key, 0) + count
                warnings.warn(f"{self.path}: {count} rows of {table.name} left out ({kind})",
                              stacklevel=3)
        kept = frame[~bad].reset_index(drop=True) if bad.any() else frame.copy()
        for column in times:
            missing = np.asarray(frame[column].isna(), dtype=bool)[~bad]
            kept[column] = _times.as_int64(absolute[column][~bad], missing)
        return kept


def _table_accessor(name):
    def accessor(self, columns=None):
        return self.table(name, columns)

    accessor.__name__ = accessor.__qualname__ = name
    accessor.__doc__ = f"The {name} table as a DataFrame (Report.table({name!r}, columns))."
    return accessor


# One method per declared event table: report.kernels(), .api_calls(), .memcpys(),
# .memsets(), .nvtx(), .memory(), .syncs(), .overheads(); a table declared in C++ later gets
# its method with the regenerated event_tables.json.
for _name in DECLARATIONS.tables:
    setattr(Report, _name, _table_accessor(_name))


def open(path):  # noqa: A001 (gpuscope.open, like the builtin, is the package's entry point)
    """Opens a report read-only; raises ReportError for a file that is not a readable report."""
    return Report(path)
