"""The tables `gpuscope profile` writes (src/store/profile_table_defs.h, source_table_defs.h)
as DataFrames, selected as the C++ reader selects them (src/store/profile_store.cpp,
source_tables.cpp):

- ids of names become the names (strings.value; '' for an id that names none, as C++'s
  value_or("")), enumerations their names (replay_modes, profile_outcomes);
- times are absolute ns (Int64, NA: none), as in the event tables;
- rows that cannot be true (a negative count) are left out as the C++ reader leaves them out,
  and counted in Report.skipped_rows with a warning, as the event tables' damaged rows;
- a table the report does not have (a report of `gpuscope run` before schema version 2, one
  written before kernel_findings or the source tables existed) reads as no rows, as in C++;
- never the views (a report's views are code the package does not run) nor the BLOBs
  (counter data and cubins are CUPTI's and the driver's images, not values).

Each table is one query; its columns are (name, kind), the kind saying how _columns reads it.
The tables read as stored take their columns and kinds from the C++ declarations
(DECLARATIONS.report_table_columns); the others join names in and are written out here.
"""

from dataclasses import dataclass

import pandas as pd

from gpuscope import _columns
from gpuscope._tables import DECLARATIONS


@dataclass(frozen=True)
class ProfileTable:
    name: str
    # (output column, kind); kind: integer, optional_integer, time, real, text, optional_text
    columns: tuple
    sql: object  # has_table -> the SELECT, whose columns are `columns` in order
    requires: tuple = ()  # tables without which the report has no rows of this one
    damage: object = None  # frame -> {kind: mask} of rows that cannot be true (left out)

    @property
    def column_names(self):
        return [name for name, _ in self.columns]


def _enumeration(has, table, alias, column):
    # An id the enumeration does not name shows as its number, not as a missing value.
    if not has(table):
        return f"CAST({column} AS TEXT)"
    return f"COALESCE({alias}.name, CAST({column} AS TEXT))"


def _profiled_kernels_sql(has):
    # profiled_ranges came after schema version 3: older reports have no range results.
    ranges = has("profiled_ranges")
    return (
        "SELECT p.id, p.profile_index, COALESCE(s.value, ''), COALESCE(s.demangled, s.value, ''), "
        "p.invocation, p.correlation_id, p.device_id, p.context_id, p.stream_id, p.start, "
        "p.\"end\", CAST(p.chip AS TEXT), p.passes, "
        f"{_enumeration(has, 'replay_modes', 'r', 'p.replay_mode')}, "
        f"{_enumeration(has, 'profile_outcomes', 'o', 'p.outcome')}, "
        "CAST(p.message AS TEXT), p.counter_data_size, "
        f"{'COALESCE(g.kernels, 0)' if ranges else '0'} "
        "FROM profiled_kernels p LEFT JOIN strings s ON s.id = p.name_id "
        f"{'LEFT JOIN replay_modes r ON r.id = p.replay_mode ' if has('replay_modes') else ''}"
        f"{'LEFT JOIN profile_outcomes o ON o.id = p.outcome ' if has('profile_outcomes') else ''}"
        f"{'LEFT JOIN profiled_ranges g ON g.profiled_kernel_id = p.id ' if ranges else ''}"
        "ORDER BY p.profile_index, p.id")


def _kind(sql_type):
    """How a column of the declared SQL type reads, as the C++ reader reads it: NULL as 0 or ''
    where the declaration forbids it, NA where NULL means something (no estimate, no text)."""
    nullable = "NOT NULL" not in sql_type and "PRIMARY KEY" not in sql_type
    stored = sql_type.split()[0]
    if stored == "REAL":
        return "real"
    if stored == "TEXT":
        return "optional_text" if nullable else "text"
    return "optional_integer" if nullable else "integer"


def _as_declared(name, order_by):
    """The table `name` read as stored: every declared column, in schema order."""
    columns = tuple((c.name, _kind(c.sql_type))
                    for c in DECLARATIONS.report_table_columns[name].columns)
    select = ", ".join(f"CAST({column} AS TEXT)" if kind.endswith("text") else column
                       for column, kind in columns)
    return ProfileTable(name, columns,
                        lambda has: f"SELECT {select} FROM {name} ORDER BY {order_by}", (name,))


_TABLES = (
    # One row per profiled launch (or `--replay-mode app-range` range: range_kernels launches).
    ProfileTable("profiled_kernels", (
        ("id", "integer"), ("profile_index", "integer"), ("name", "text"),
        ("demangled", "text"), ("invocation", "integer"), ("correlation_id", "integer"),
        ("device_id", "integer"), ("context_id", "integer"), ("stream_id", "integer"),
        ("start", "time"), ("end", "time"), ("chip", "text"), ("passes", "integer"),
        ("replay_mode", "text"), ("outcome", "text"), ("message", "text"),
        ("counter_data_size", "integer"), ("range_kernels", "integer")),
        _profiled_kernels_sql, ("profiled_kernels",)),
    # Long: one row per kernel and metric (ncu's raw page); value NaN: CUPTI could not
    # evaluate it. Wide: .pivot(index="profiled_kernel_id", columns="metric", values="value").
    _as_declared("kernel_metrics", "profiled_kernel_id, metric"),
    # The guided analysis' findings, biggest estimated speedup first (rank 0).
    _as_declared("kernel_findings", "profiled_kernel_id, rank"),
    # How the source-counter passes of each launch went.
    _as_declared("kernel_source", "profiled_kernel_id"),
    # Source counters, long: one row per launch, instruction and counter (SASS metric or
    # PC-sampling stall reason). Report.source() puts them beside the SASS and lines.
    ProfileTable("instruction_values", (
        ("profiled_kernel_id", "integer"), ("cubin_crc", "integer"), ("function", "text"),
        ("pc_offset", "integer"), ("metric", "text"), ("value", "integer")),
        lambda has: "SELECT v.profiled_kernel_id, v.cubin_crc, COALESCE(f.value, ''), "
                    "v.pc_offset, COALESCE(m.value, ''), v.value FROM instruction_values v "
                    "LEFT JOIN strings f ON f.id = v.function_id "
                    "LEFT JOIN strings m ON m.id = v.metric_id "
                    "ORDER BY v.profiled_kernel_id, v.cubin_crc, v.function_id, v.pc_offset, "
                    "v.metric_id",
        ("instruction_values",),
        # As ReadInstructionValues: a count below 0 is not shown as 2^64 - n, a counter
        # without a name is no column.
        lambda frame: {"negative count": (frame["value"] < 0).to_numpy(),
                       "counter without a name": (frame["metric"] == "").to_numpy()}),
    # Every instruction of the profiled functions: SASS text (NA: no disassembler was found
    # at evaluation) and source file and line (NA: no line information, nvcc -lineinfo).
    ProfileTable("sass_instructions", (
        ("cubin_crc", "integer"), ("function", "text"), ("pc_offset", "integer"),
        ("sass", "optional_text"), ("file", "optional_text"), ("line", "optional_integer")),
        lambda has: "SELECT i.cubin_crc, COALESCE(f.value, ''), i.pc_offset, "
                    "CAST(i.sass AS TEXT), CAST(s.path AS TEXT), "
                    "CASE WHEN i.line > 0 THEN i.line END FROM sass_instructions i "
                    "LEFT JOIN strings f ON f.id = i.function_id "
                    "LEFT JOIN source_files s ON s.id = i.file_id "
                    "ORDER BY i.cubin_crc, i.function_id, i.pc_offset",
        ("sass_instructions", "source_files")),
    # The source files the lines are in, with their text when it was readable at evaluation.
    _as_declared("source_files", "id"),
)

PROFILE_TABLES = {table.name: table for table in _TABLES}


def read(connection, table, time_base):
    """`table` (a ProfileTable) of the report on `connection` as a DataFrame."""
    has = connection.has_table
    rows = connection.rows(table.sql(has)) if all(has(t) for t in table.requires) else []
    values = list(zip(*rows)) if rows else [()] * len(table.columns)
    data = {}
    for (name, kind), column in zip(table.columns, values):
        column = list(column)
        where = f"{connection.path}: {table.name}.{name}"
        if kind == "integer":
            data[name] = _columns.integers(column, where, False)
        elif kind == "optional_integer":
            data[name] = _columns.integers(column, where, True)
        elif kind == "time":
            data[name] = _columns.absolute_times(column, where, time_base)
        elif kind == "real":
            data[name] = _columns.reals(column)
        else:
            data[name] = _columns.texts(column, kind == "optional_text")
    return pd.DataFrame(data, columns=table.column_names)
