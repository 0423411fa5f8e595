"""The report's tables as declared once in C++: the event tables with how each column is
stored (src/store/event_table_defs.h), and every table with its columns' SQL types and
meanings (src/store/report_tables.h).

event_tables.json is what tests/python/print_event_tables prints from those declarations;
the CTest test Python.EventTablesMatchDeclarations fails when the copy here differs, so a
column added on the C++ side cannot be missed here. Regenerate it with
``build/bin/print_event_tables > python/gpuscope/event_tables.json``.
"""

import json
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    name: str    # SQL name
    stored: str  # integer, time, name, kernel_name, optional_name, writer_flag
    doc: str


@dataclass(frozen=True)
class Table:
    name: str
    start_column: str
    columns: tuple

    def column(self, name):
        return next(c for c in self.columns if c.name == name)


@dataclass(frozen=True)
class ReportColumn:
    name: str
    sql_type: str  # with its constraints, e.g. "TEXT NOT NULL"
    doc: str


@dataclass(frozen=True)
class ReportTable:
    name: str
    doc: str
    columns: tuple  # of ReportColumn, in schema order


@dataclass(frozen=True)
class Declarations:
    format: str
    application_id: int
    schema_version: int
    oldest_readable_schema_version: int
    tables: dict  # event table name -> Table, in schema order
    report_table_columns: dict  # name of any table -> ReportTable, in creation order
    # Lower-cased names of every table and view a report may hold (what the schema creates).
    report_tables: tuple
    report_views: tuple


DECLARATIONS_FILE = os.path.join(os.path.dirname(__file__), "event_tables.json")


def load_declarations(path=DECLARATIONS_FILE):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    tables = {}
    for table in data["tables"]:
        columns = tuple(Column(c["name"], c["stored"], c["doc"]) for c in table["columns"])
        tables[table["name"]] = Table(table["name"], table["start_column"], columns)
    report_tables = {
        table["name"]: ReportTable(table["name"], table["doc"], tuple(
            ReportColumn(c["name"], c["sql_type"], c["doc"]) for c in table["columns"]))
        for table in data["report_table_columns"]}
    return Declarations(data["format"], data["application_id"], data["schema_version"],
                        data["oldest_readable_schema_version"], tables, report_tables,
                        tuple(data["report_tables"]), tuple(data["report_views"]))


DECLARATIONS = load_declarations()
