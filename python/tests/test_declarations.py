"""python/gpuscope/event_tables.json is what the C++ declarations (event_table_defs.h) print,
and the report the C++ schema creates has exactly the declared columns."""

import json
import os
import sqlite3
import subprocess

from gpuscope._tables import DECLARATIONS, DECLARATIONS_FILE


def test_the_package_copy_is_what_the_cpp_declarations_print():
    program = os.environ["GPUSCOPE_PRINT_EVENT_TABLES"]
    printed = json.loads(subprocess.run([program], check=True, capture_output=True,
                                        text=True).stdout)
    with open(DECLARATIONS_FILE, encoding="utf-8") as f:
        copy = json.load(f)
    assert copy == printed, (
        "python/gpuscope/event_tables.json differs from src/store/event_table_defs.h: "
        f"regenerate it with `{program} > python/gpuscope/event_tables.json`")


def test_a_new_report_has_the_declared_columns(schema, tmp_path):
    db = sqlite3.connect(tmp_path / "empty.sqlite")
    db.executescript(schema)
    for name, table in DECLARATIONS.tables.items():
        stored = [row[1] for row in db.execute(f'PRAGMA table_info("{name}")')]
        assert stored == ["id"] + [c.name for c in table.columns], name
    (version,) = db.execute("PRAGMA user_version").fetchone()
    (application_id,) = db.execute("PRAGMA application_id").fetchone()
    assert version == DECLARATIONS.schema_version
    assert application_id == DECLARATIONS.application_id
