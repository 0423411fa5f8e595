"""Files that are not good reports: one clear gpuscope.ReportError naming the file, never a
crash, a hang or a half-read DataFrame."""

import os
import sqlite3

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
    with pytest.raises(gpuscope.ReportError, match="schema version 99"):
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
