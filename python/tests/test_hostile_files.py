"""Files that are not good reports: one clear gpuscope.ReportError naming the file, never a
crash, a hang or a half-read DataFrame."""

import os
import sqlite3
import warnings

import pandas as pd
import pytest

import gpuscope
from report_fixtures import ReportFile


@pytest.fixture
def good_report(schema, tmp_path):
    path = tmp_path / "good.sqlite"
    report = ReportFile(path, schema, start=0, end=1_000_000)
    for i in range(200):
        report.add_launch(f"kernel_{i}", 10, 100 + i * 1000, 600 + i * 1000)
    report.close()
    return path


def read_everything(path):
    with gpuscope.open(path) as report:
        report.kernels()
        report.api_calls()
        report.process()
        gpuscope.ranks.read_rank(str(path))


def test_missing_file(tmp_path):
    with pytest.raises(gpuscope.ReportError, match="no such report file"):
        gpuscope.open(tmp_path / "absent.sqlite")


def test_a_file_that_is_not_sqlite(tmp_path):
    path = tmp_path / "text.sqlite"
    path.write_text("just some text, not a database\n" * 100)
    with pytest.raises(gpuscope.ReportError, match="text.sqlite"):
        read_everything(path)


def damaged_by(path, statement):
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()
    return path


def test_a_database_that_is_not_a_report(tmp_path):
    path = damaged_by(tmp_path / "other.sqlite", "CREATE TABLE kernels(id INTEGER PRIMARY KEY)")
    with pytest.raises(gpuscope.ReportError, match="not a gpuscope report"):
        read_everything(path)


def test_a_report_from_a_newer_gpuscope(good_report):
    damaged_by(good_report, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    damaged_by(good_report, "PRAGMA user_version = 99")
    with pytest.raises(gpuscope.ReportError, match="newer gpuscope: schema version 99"):
        read_everything(good_report)


def test_a_meta_schema_version_that_disagrees_with_the_file(good_report):
    damaged_by(good_report, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(gpuscope.ReportError, match="meta.schema_version '99' disagrees"):
        read_everything(good_report)


def test_text_where_a_time_belongs(good_report):
    damaged_by(good_report, "UPDATE kernels SET start = 'yesterday' WHERE id = 3")
    with pytest.raises(gpuscope.ReportError, match="not an integer"):
        read_everything(good_report)


def test_a_process_row_with_text_for_its_pid(good_report):
    damaged_by(good_report, "UPDATE process SET pid = 'many'")
    with pytest.raises(gpuscope.ReportError, match="process.pid is not an integer"):
        gpuscope.ranks.read_rank(str(good_report))


def test_a_truncated_report(good_report):
    size = os.path.getsize(good_report)
    with open(good_report, "r+b") as f:
        f.truncate(size // 2)
    with pytest.raises(gpuscope.ReportError, match="good.sqlite"):
        read_everything(good_report)


def test_overwritten_pages(good_report):
    size = os.path.getsize(good_report)
    with open(good_report, "r+b") as f:
        f.seek(4096)  # every page but the first (the header and the schema's root)
        f.write(b"\xff" * (size - 4096))
    with pytest.raises(gpuscope.ReportError, match="good.sqlite"):
        read_everything(good_report)


def test_the_file_is_never_written(good_report):
    before = good_report.read_bytes()
    read_everything(good_report)
    assert good_report.read_bytes() == before


# What the C++ reader refuses, the package refuses too (test_reader_rules.py compares both),
# with one ReportError of one line.
@pytest.mark.parametrize("statement, message", [
    ("PRAGMA user_version = 99", "written by a newer gpuscope: schema version 99"),
    ("UPDATE meta SET value = '-9223372036854775808' WHERE key = 'time_base_ns'",
     "corrupt (meta.time_base_ns is '-9223372036854775808')"),
    ("DROP TABLE counters", "no such table: counters"),
    ("CREATE TABLE extra (x)", "not a gpuscope report (it has a table `extra`"),
])
def test_what_the_cpp_reader_refuses_on_opening(good_report, statement, message):
    damaged_by(good_report, statement)
    with pytest.raises(gpuscope.ReportError) as raised:
        gpuscope.open(good_report)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_view_in_place_of_a_table(good_report):
    db = sqlite3.connect(good_report)
    db.executescript("DROP TABLE counters; CREATE VIEW counters AS SELECT 'x' AS name, "
                     "1 AS value")
    db.close()
    with pytest.raises(gpuscope.ReportError, match="counters is a view, not a table"):
        gpuscope.open(good_report)


def test_a_name_id_that_names_no_string(good_report):
    damaged_by(good_report, "UPDATE kernels SET name_id = 99999 WHERE id = 3")
    with gpuscope.open(good_report) as report:
        report.api_calls()  # its names are fine
        with pytest.raises(gpuscope.ReportError,
                           match="a row of kernels refers to a name that does not exist"):
            report.kernels()
    with pytest.raises(gpuscope.ReportError, match="refers to a name that does not exist"):
        gpuscope.ranks.read_rank(str(good_report))


# Hostile values are rows left out, or values, never an OverflowError or TypeError.
def test_the_largest_time_base_wraps_as_in_cpp(good_report):
    damaged_by(good_report, "UPDATE meta SET value = '18446744073709551615' WHERE key = "
               "'time_base_ns'")
    with gpuscope.open(good_report) as report:
        kernels = report.kernels()
        # 2^64 - 1 + t is t - 1 modulo 2^64, as the C++ reader's unsigned sum.
        assert kernels["start"].iloc[0] == 100 - 1
        assert kernels["end"].iloc[0] == 600 - 1
    gpuscope.ranks.read_rank(str(good_report))


def test_a_process_that_ends_at_int64_max(good_report):
    damaged_by(good_report, 'UPDATE process SET "end" = 9223372036854775807')
    data = gpuscope.ranks.read_rank(str(good_report))
    assert data.breakdown.busy > 0
    with gpuscope.open(good_report) as report:
        assert len(report.kernels()) == 200
        assert pd.isna(report.process()["end"].iloc[0])  # past INT64_MAX: no int64 holds it


def test_a_launch_dimension_of_null_is_a_damaged_row(good_report):
    damaged_by(good_report, "UPDATE kernels SET grid_x = NULL WHERE id = 3")
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        with gpuscope.open(good_report) as report:
            assert len(report.kernels()) == 199
            assert report.skipped_rows == {("kernels", "bad launch dimension"): 1}


def test_a_start_past_int64_max_is_a_damaged_row(good_report):
    damaged_by(good_report, "UPDATE process SET \"end\" = NULL")  # no run to be outside of
    damaged_by(good_report, "UPDATE kernels SET start = 9223372036854775000, "
               "\"end\" = 9223372036854775001 WHERE id = 3")
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        with gpuscope.open(good_report) as report:
            assert len(report.kernels()) == 199
            assert report.skipped_rows == {("kernels", "time past 2^63 ns"): 1}
