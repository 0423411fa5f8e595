"""Read-only connections to reports, hardened against files gpuscope did not write.

A "report" handed to the package may be any SQLite file, crafted or damaged. Like the C++
reader (src/store/hostile_file_guard), the connection is opened read-only (``mode=ro``: only
TEMP tables can be written),
runs no code the file brings (``trusted_schema`` off, no views are ever read), and each
statement gets a work budget so that a damaged b-tree that loops becomes an error, not a
hang. Every SQLite failure surfaces as one ``ReportError`` naming the file. What the file
must be to be read at all is checked on opening, by the C++ reader's rules (_report_rules).
"""

import os
import sqlite3
import urllib.parse

from gpuscope import _report_rules
from gpuscope._errors import ReportError


# Progress-handler calls happen every _TICK virtual-machine instructions; a statement may
# take 2 * 10^7 instructions plus 256 per byte of the file (the C++ reader's budget).
_TICK = 1000


class Connection:
    """One read-only connection to one report; every query goes through `rows`."""

    def __init__(self, path):
        self.path = os.fspath(path)
        _report_rules.check_file(self.path)
        size = os.path.getsize(self.path)
        self._budget = (20_000_000 + 256 * size) // _TICK
        self._ticks_left = self._budget
        uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
        try:
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        except sqlite3.Error as error:
            raise ReportError(f"{self.path}: cannot open: {error}") from None
        self._db.set_progress_handler(self._on_progress, _TICK)
        # Text that is not UTF-8 (a damaged name) reads with replacement characters, as the
        # C++ reader reads its bytes, instead of failing the query.
        self._db.text_factory = lambda data: data.decode("utf-8", "replace")
        try:
            # mode=ro keeps the file unchanged; TEMP tables (an analysis' own index) stay
            # possible, in SQLite's temporary storage.
            self._db.execute("PRAGMA trusted_schema = OFF")
            _report_rules.check_schema(self)
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

    def close(self):
        self._db.close()
