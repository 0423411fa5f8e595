"""Read-only connections to reports, hardened against files gpuscope did not write.

A "report" handed to the package may be any SQLite file, crafted or damaged. Like the C++
reader (src/store/hostile_file_guard), the connection is opened read-only (``mode=ro``: only
TEMP tables can be written),
runs no code the file brings (``trusted_schema`` off, no views are ever read), and each
statement gets a work budget so that a damaged b-tree that loops becomes an error, not a
hang. Every SQLite failure surfaces as one ``ReportError`` naming the file.
"""

import os
import sqlite3
import urllib.parse

from gpuscope._tables import DECLARATIONS


class ReportError(Exception):
    """A file that is not a readable gpuscope report (missing, damaged, not a report)."""


# Progress-handler calls happen every _TICK virtual-machine instructions; a statement may
# take 2 * 10^7 instructions plus 256 per byte of the file (the C++ reader's budget).
_TICK = 1000


class Connection:
    """One read-only connection to one report; every query goes through `rows`."""

    def __init__(self, path):
        self.path = os.fspath(path)
        if not os.path.isfile(self.path):
            raise ReportError(f"{self.path}: no such report file")
        size = os.path.getsize(self.path)
        self._budget = (20_000_000 + 256 * size) // _TICK
        self._ticks_left = self._budget
        uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
        try:
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        except sqlite3.Error as error:
            raise ReportError(f"{self.path}: cannot open: {error}") from None
        self._db.set_progress_handler(self._on_progress, _TICK)
        try:
            # mode=ro keeps the file unchanged; TEMP tables (an analysis' own index) stay
            # possible, in SQLite's temporary storage.
            self._db.execute("PRAGMA trusted_schema = OFF")
            self._check_identity()
        except BaseException:
            self._db.close()
            raise

    def _on_progress(self):
        self._ticks_left -= 1
        return 1 if self._ticks_left < 0 else 0  # non-zero interrupts the statement

    def rows(self, sql, parameters=(), chunk=None):
        """All rows of `sql` (a list), or, with `chunk`, an iterator of lists of at most
        `chunk` rows; SQLite errors become ReportError."""
        self._ticks_left = self._budget
        try:
            cursor = self._db.execute(sql, parameters)
            if chunk is None:
                return cursor.fetchall()
        except sqlite3.Error as error:
            raise self._error(error) from None
        return self._chunks(cursor, chunk)

    def _chunks(self, cursor, chunk):
        while True:
            try:
                block = cursor.fetchmany(chunk)
            except sqlite3.Error as error:
                raise self._error(error) from None
            if not block:
                return
            yield block

    def _error(self, error):
        if isinstance(error, sqlite3.OperationalError) and "interrupted" in str(error):
            return ReportError(f"{self.path}: a query ran past its work limit (damaged report?)")
        return ReportError(f"{self.path}: {error}")

    def has_table(self, name):
        return bool(self.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                              (name,)))

    def table_columns(self, name):
        return [row[1] for row in self.rows(f'PRAGMA table_info("{name}")')]

    def _check_identity(self):
        try:
            application_id = self.rows("PRAGMA application_id")[0][0]
        except ReportError as error:
            raise ReportError(f"{self.path}: not a gpuscope report ({error})") from None
        if application_id != DECLARATIONS.application_id or not self.has_table("meta"):
            raise ReportError(f"{self.path}: not a gpuscope report")
        meta = dict(self.rows("SELECT key, value FROM meta"))
        if meta.get("format") != DECLARATIONS.format:
            raise ReportError(f"{self.path}: not a gpuscope report (meta.format is "
                              f"{meta.get('format')!r})")
        try:
            version = int(meta.get("schema_version", ""))
        except ValueError:
            raise ReportError(f"{self.path}: meta.schema_version is not a number") from None
        if not (DECLARATIONS.oldest_readable_schema_version <= version
                <= DECLARATIONS.schema_version):
            raise ReportError(
                f"{self.path}: report schema version {version}; this package reads versions "
                f"{DECLARATIONS.oldest_readable_schema_version} to {DECLARATIONS.schema_version}")
        try:
            self.time_base_ns = int(meta.get("time_base_ns", ""))
        except ValueError:
            raise ReportError(f"{self.path}: meta.time_base_ns is not a number") from None
        self.schema_version = version
        self.meta = meta

    def close(self):
        self._db.close()
