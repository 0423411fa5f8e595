"""The report's event tables as declared once in C++ (src/store/event_table_defs.h).

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
class Declarations:
    format: str
    application_id: int
    schema_version: int
    oldest_readable_schema_version: int
    tables: dict  # name -> Table, in schema order
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
    return Declarations(data["format"], data["application_id"], data["schema_version"],
                        data["oldest_readable_schema_version"], tables,
                        tuple(data["report_tables"]), tuple(data["report_views"]))


DECLARATIONS = load_declarations()
