"""The package refuses exactly the files the C++ reader refuses (gpuscope/_report_rules.py
mirrors it): the same hostile reports, made from a recording of the H100 (tests/data/reports)
with SQL, through `gpuscope stats` and `gpuscope export` and through the package. Both must
refuse, or both read; the package always with one ReportError of one line, never another
exception."""

import os
import shutil
import sqlite3
import subprocess
import warnings

import pytest

import gpuscope

_INT64_MAX = "9223372036854775807"

# (what, SQL on the recording, whether a reader refuses the result)
HOSTILE_REPORTS = [
    ("an undamaged report", "", False),
    ("a newer schema version", "PRAGMA user_version = 99", True),
    ("an older schema version", "PRAGMA user_version = 0", True),
    ("a meta.schema_version that disagrees", "UPDATE meta SET value = '3' WHERE key = "
     "'schema_version'", True),
    ("another program's database", "PRAGMA application_id = 7", True),
    ("a foreign format", "UPDATE meta SET value = 'other' WHERE key = 'format'", True),
    ("a time base of INT64_MIN", "UPDATE meta SET value = '-9223372036854775808' WHERE key = "
     "'time_base_ns'", True),
    ("a time base with a sign", "UPDATE meta SET value = '+5' WHERE key = 'time_base_ns'", True),
    ("a time base with a space", "UPDATE meta SET value = ' 5' WHERE key = 'time_base_ns'", True),
    ("a time base past 2^64", "UPDATE meta SET value = '18446744073709551616' WHERE key = "
     "'time_base_ns'", True),
    ("the largest time base", "UPDATE meta SET value = '18446744073709551615' WHERE key = "
     "'time_base_ns'", False),
    ("a time base stored as an integer", "UPDATE meta SET value = 5 WHERE key = 'time_base_ns'",
     False),
    ("a view in place of the counters table", "DROP TABLE counters; CREATE VIEW counters AS "
     "SELECT 'x' AS name, 1 AS value", True),
    ("a table gpuscope never creates", "CREATE TABLE extra (x)", True),
    ("an index gpuscope never creates", "CREATE INDEX by_start ON kernels (start)", True),
    ("a trigger", "CREATE TRIGGER t AFTER INSERT ON counters BEGIN SELECT 1; END", True),
    ("no devices table", "DROP TABLE devices", True),
    ("strings not numbered 1, 2, ...", "UPDATE strings SET id = id + 100 WHERE id = "
     "(SELECT max(id) FROM strings)", True),
    ("a kernel whose name id is no string", "UPDATE kernels SET name_id = 99999", True),
    ("an API call whose name id is no string", "UPDATE api_calls SET name_id = -1 WHERE id = "
     "(SELECT min(id) FROM api_calls)", True),
    # Values that cannot be true are rows left out (counted), not unreadable reports.
    ("a kernel starting at INT64_MAX", f"UPDATE kernels SET start = {_INT64_MAX}, "
     f'"end" = {_INT64_MAX}', False),
    ("a process ending at INT64_MAX", f'UPDATE process SET "end" = {_INT64_MAX}', False),
    ("a kernel whose grid is NULL", "UPDATE kernels SET grid_x = NULL", False),
    ("a kernel ending before it starts", 'UPDATE kernels SET "end" = start - 1000', False),
]


def hostile_copy(tmp_path, sql):
    path = tmp_path / "r.sqlite"
    shutil.copyfile(os.path.join(os.environ["GPUSCOPE_TEST_DATA_DIR"], "reports",
                                 "h100_add.sqlite"), path)
    if sql:
        db = sqlite3.connect(path)
        db.executescript(sql)
        db.commit()
        db.close()
    return str(path)


def cpp_refuses(path):
    """Whether `gpuscope` refuses the report (a one-line error and exit 1) in the commands
    that read every table the package reads."""
    refused = []
    for command in (["stats", path], ["export", "--format", "chrome", "-o", "-", path]):
        ran = subprocess.run([os.environ["GPUSCOPE_BIN"], *command], capture_output=True,
                             text=True, timeout=120)
        assert ran.returncode in (0, 1), ran.stderr
        if ran.returncode == 1:
            assert ran.stderr.startswith("gpuscope: error: ") and ran.stderr.count("\n") == 1, \
                ran.stderr
        refused.append(ran.returncode == 1)
    return any(refused)


def package_refuses(path):
    """Whether the package refuses the report: ReportError, of one line, and nothing else."""
    try:
        with gpuscope.open(path) as report:
            for name in ("kernels", "memcpys", "memsets", "api_calls", "nvtx"):
                report.table(name)
            report.process()
            report.devices()
        gpuscope.ranks.read_rank(path)
    except gpuscope.ReportError as error:
        assert "\n" not in str(error) and path in str(error), str(error)
        return True
    return False


@pytest.mark.parametrize("what, sql, refused", HOSTILE_REPORTS,
                         ids=[case[0] for case in HOSTILE_REPORTS])
def test_both_readers_refuse_the_same_reports(tmp_path, what, sql, refused):
    path = hostile_copy(tmp_path, sql)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # damaged rows are left out with a warning
        package = package_refuses(path)
    assert (cpp_refuses(path), package) == (refused, refused), what
