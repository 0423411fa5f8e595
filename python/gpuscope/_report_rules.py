"""What a file must be to be read as a gpuscope report: the C++ reader's rules, checked here
in the same order, with the same limits and names, so that the package refuses exactly the
files `gpuscope` refuses, each with one ``ReportError`` of one line.

The rules and where C++ keeps them:
- the file: it exists, is a regular file, not empty, starts with SQLite's header, and is as
  long as that header says unless a write-ahead log holds the rest
  (src/store/report_file_check.cpp);
- PRAGMA application_id is gpuscope's; PRAGMA user_version (the schema version) is one this
  reader reads (report_reader.cpp, Load);
- each table of the schema is a table, not a view (CheckTablesAreTables); and the schema holds
  only what gpuscope creates: its tables (no virtual ones), its views, SQLite's own indexes of
  their constraints, no trigger (schema_objects.cpp);
- meta.format is gpuscope's, meta.schema_version is the user_version, meta.time_base_ns is a
  decimal number of 0 to 2^64 - 1 (LoadMeta);
- strings are numbered 1, 2, ... (LoadStrings);
- a file of at most 64 MiB passes PRAGMA quick_check (ReportReader::Open);
- a row whose name id is no string is damage that ends the read of its table
  (event_row_decoder.h: "refers to a name that does not exist"): `check_name_ids`.

The names and numbers are not repeated here: the format, application id, schema versions,
tables and views are what the C++ side prints (event_tables.json, tests/python/
print_event_tables.cpp). python/tests/test_reader_rules.py runs both readers on the same
hostile reports and fails where they disagree.
"""

import os
import re

from gpuscope._errors import ReportError
from gpuscope._tables import DECLARATIONS


_HEADER_SIZE = 100
_MAGIC = b"SQLite format 3\x00"
_FULL_CHECK_BYTES = 64 << 20  # the C++ reader's kFullCheckBytes
_UINT64_LIMIT = 1 << 64
_DECIMAL = re.compile(r"[0-9]+")  # what std::from_chars reads into an unsigned integer

# (from schema version, table, columns): what ReportReader::Load selects from the small tables
# when it opens a report (LoadProcess, LoadDevices, LoadContextsAndStreams, LoadCounters,
# LoadStrings, LoadRowOrder, LoadClockSamples); a file without them is refused there.
_READ_ON_OPEN = (
    (1, "process", 'pid, parent_pid, hostname, command_line, start, "end"'),
    (3, "process", "boot_id, rank, local_rank, world_size, rank_variable"),
    (1, "devices", "id, name, uuid, compute_major, compute_minor, num_sms, warp_size, "
                   "max_threads_per_block, max_warps_per_sm, max_blocks_per_sm, "
                   "max_registers_per_sm, max_registers_per_block, max_shared_memory_per_sm, "
                   "max_shared_memory_per_block, max_shared_memory_per_block_optin, "
                   "global_memory_bytes, global_memory_bandwidth_kbps, core_clock_khz, "
                   "l2_cache_bytes, max_ipc, ecc_enabled, mig_enabled"),
    (1, "contexts", "context_id, device_id, null_stream_id"),
    (1, "streams", "stream_id, context_id, priority, flags"),
    (1, "counters", "name, value"),
    (1, "strings", "id, value, demangled"),
    (1, "row_order", "table_name, max_lateness_ns, untimed_rows"),
    (3, "clock_samples", "cupti_ns, realtime_ns, monotonic_ns, device_id, gpu_ns"),
)


def check_file(path):
    """The file's own checks, before SQLite opens it."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ReportError(f"{path}: no such report file") from None
    except OSError as error:
        raise ReportError(f"{path}: {error.strerror}") from None
    if os.path.isdir(path):
        raise ReportError(f"{path}: it is a directory")
    if not os.path.isfile(path):
        raise ReportError(f"{path}: not a regular file")
    if info.st_size == 0:
        raise ReportError(f"{path}: the file is empty, not a gpuscope report")
    try:
        with open(path, "rb") as f:
            header = f.read(_HEADER_SIZE)
    except OSError as error:
        raise ReportError(f"{path}: {error.strerror}") from None
    if not header.startswith(_MAGIC):
        raise ReportError(f"{path}: not a gpuscope report (not an SQLite database)")
    if len(header) < _HEADER_SIZE:
        raise ReportError(f"{path}: truncated: the file has only {len(header)} bytes")
    page_size = int.from_bytes(header[16:18], "big")
    if page_size == 1:
        page_size = 65536  # the format's encoding of 64 KiB
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        raise ReportError(f"{path}: corrupt (invalid page size {page_size})")
    # The page count is valid only when "version-valid-for" matches the change counter.
    if header[24:28] == header[92:96]:
        expected = page_size * int.from_bytes(header[28:32], "big")
        wal = path + "-wal"
        has_log = os.path.exists(wal) and os.path.getsize(wal) > 0
        if info.st_size < expected and not has_log:
            raise ReportError(f"{path}: truncated: the file has {info.st_size} bytes, its header "
                              f"says {expected}")


def check_schema(connection):
    """The report's identity, version and schema objects; sets connection.schema_version,
    .time_base_ns, .meta and .string_count (ids 1 to it name strings)."""
    path = connection.path
    (application_id,) = connection.rows("PRAGMA application_id")[0]
    if application_id != DECLARATIONS.application_id:
        raise ReportError(f"{path}: not a gpuscope report (an SQLite database of another "
                          "program)")
    (version,) = connection.rows("PRAGMA user_version")[0]
    newest = DECLARATIONS.schema_version
    oldest = DECLARATIONS.oldest_readable_schema_version
    if not oldest <= version <= newest:
        raise ReportError(f"{path}: written by {'a newer' if version > newest else 'an older'} "
                          f"gpuscope: schema version {version}, this package reads {oldest} to "
                          f"{newest}")
    _check_objects(connection)
    meta = {key: value for key, value in connection.rows(
        "SELECT CAST(key AS TEXT), CAST(value AS TEXT) FROM meta")}
    if meta.get("format") != DECLARATIONS.format:
        raise ReportError(f"{path}: not a gpuscope report (meta.format is "
                          f"{meta.get('format') or ''!r})")
    if meta.get("schema_version") != str(version):
        raise ReportError(f"{path}: corrupt (meta.schema_version {meta.get('schema_version')!r} "
                          f"disagrees with the file's schema version {version})")
    time_base = meta.get("time_base_ns") or ""
    if not _DECIMAL.fullmatch(time_base) or int(time_base) >= _UINT64_LIMIT:
        raise ReportError(f"{path}: corrupt (meta.time_base_ns is {time_base!r})")
    for since, table, columns in _READ_ON_OPEN:
        if version >= since:
            connection.rows(f"SELECT {columns} FROM {table} LIMIT 0")  # SQLite's error if not
    _check_strings(connection)
    if os.path.getsize(path) <= _FULL_CHECK_BYTES:
        _check_integrity(connection)
    connection.schema_version = version
    connection.time_base_ns = int(time_base)
    connection.meta = meta
    (connection.string_count,) = connection.rows("SELECT count(*) FROM strings")[0]


def _lower(name):
    """SQLite's case-insensitive names fold ASCII letters only, as the C++ reader does."""
    return (name or "").translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _check_objects(connection):
    tables = set(DECLARATIONS.report_tables)
    views = set(DECLARATIONS.report_views)
    for kind, name, table, sql in connection.rows(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"):
        if kind == "view" and _lower(name) in tables:
            raise ReportError(f"{connection.path}: not a gpuscope report ({name} is a view, not "
                              "a table)")
        foreign = _foreign_object(kind, name, table, sql, tables, views)
        if foreign:
            raise ReportError(f"{connection.path}: not a gpuscope report (it has {foreign}, "
                              "which gpuscope never creates)")


def _foreign_object(kind, name, table, sql, tables, views):
    """Why the object is none of gpuscope's, or '' when it is one."""
    quoted = f"`{name}`"
    if kind == "table":
        if _lower(name) not in tables:
            return f"a table {quoted}"
        # A virtual table of a known name would run its module's code on every read.
        if not (sql or "").upper().startswith("CREATE TABLE"):
            return f"a virtual table {quoted}"
        return ""
    if kind == "view":
        return "" if _lower(name) in views else f"a view {quoted}"
    if kind == "index":
        # SQLite's own index of a UNIQUE or PRIMARY KEY constraint has no SQL.
        if sql is None and _lower(name).startswith("sqlite_autoindex_") and \
                _lower(table) in tables:
            return ""
        return f"an index {quoted} on {table}"
    if kind == "trigger":
        return f"a trigger {quoted} on {table}"
    return f"a {kind} {quoted}"


def _check_strings(connection):
    # Ids are dense (the writer numbers them 1, 2, ...); a gap means damage.
    (count, top, bottom) = connection.rows("SELECT count(*), max(id), min(id) FROM strings")[0]
    if count and (bottom != 1 or top != count):
        raise ReportError(f"{connection.path}: corrupt (strings are not numbered 1, 2, ...)")


def _check_integrity(connection):
    (result,) = connection.rows("PRAGMA quick_check")[0]
    if result == "ok":
        return
    lines = [line for line in str(result).splitlines() if not line.startswith("***")]
    raise ReportError(f"{connection.path}: corrupt ({lines[0] if lines else result})")


def check_name_ids(path, table, ids, string_count):
    """`ids` (a column of name ids, NULL already handled) all name a string, or the read of
    `table` ends as the C++ reader's does."""
    for value in ids:
        if not (isinstance(value, int) and 0 < value <= string_count):
            raise ReportError(f"{path}: corrupt (a row of {table} refers to a name that does not "
                              "exist)")
