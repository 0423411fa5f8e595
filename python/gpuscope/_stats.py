"""`gpuscope stats --report NAME` as a DataFrame, computed by the gpuscope command.

Why the command and not the tables computed here: they are C++ (src/analysis: nsys's
statistics, the NVTX projection onto the GPU, call sites, the alignment of ranks), and a second
copy would drift from the numbers `gpuscope stats` prints; this way there is one definition
and the package gets every table the command has, new ones included, by name. The command
reads reports on any machine (no GPU, no CUDA driver needed); whoever recorded a report has it.

The table is asked for as JSON, whose values keep their types (a name of digits stays text, a
missing rank is null, a name starting with '-' has no CSV ' before it); a table without rows
is asked for again as CSV, for its header (JSON's empty list has no columns).
"""

import csv
import io
import json
import os
import shutil
import subprocess
import warnings

import numpy as np
import pandas as pd

from gpuscope._errors import ReportError

_USAGE_ERROR = 2  # the command's exit code for a bad option or name (src/cli/output/exit_codes.h)
_WARNING = "gpuscope: warning: "


def find_gpuscope(program=None):
    """The gpuscope command: `program`, else $GPUSCOPE_BIN, else `gpuscope` on PATH."""
    found = program or os.environ.get("GPUSCOPE_BIN") or shutil.which("gpuscope")
    if not found:
        raise FileNotFoundError("the stats tables are computed by the gpuscope command: put "
                                "it on PATH, set GPUSCOPE_BIN, or pass program=")
    return os.fspath(found)


def stats(name, paths, options=(), program=None):
    """Table `name` of `gpuscope stats --report name [options] paths...` (one report or the
    reports of several processes or ranks, aggregated as the command aggregates them)."""
    if not isinstance(name, str) or "," in name:
        raise ValueError("one stats table at a time, by name (gpuscope stats --help lists them)")
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError("stats needs at least one report")
    rows = json.loads(_run(name, paths, options, "json", program))[name]
    if rows:
        return _frame(rows, list(rows[0]))
    header = next(csv.reader(io.StringIO(_run(name, paths, options, "csv", program))), [])
    return pd.DataFrame({column: pd.Series(dtype=object) for column in header})


def _run(name, paths, options, output_format, program):
    command = [find_gpuscope(program), "stats", "--report", name, *options,
               "--format", output_format, "--", *paths]
    done = subprocess.run(command, capture_output=True, text=True, errors="replace")
    messages = [line for line in done.stderr.splitlines() if line.strip()]
    if done.returncode != 0:
        errors = [line for line in messages if not line.startswith(_WARNING)]
        message = errors[0] if errors else f"gpuscope stats exited with {done.returncode}"
        raise (ValueError if done.returncode == _USAGE_ERROR else ReportError)(message)
    if output_format == "json":  # each warning once, not once per format
        for line in messages:
            if line.startswith(_WARNING):
                warnings.warn(line[len(_WARNING):], stacklevel=4)
    return done.stdout


def _frame(rows, columns):
    """JSON rows as columns of one dtype each: integers int64 (Int64 when some are null),
    numbers float64 (NaN for null), anything else objects (None for null)."""
    data = {}
    for column in columns:
        values = [row.get(column) for row in rows]
        present = [v for v in values if v is not None]
        if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            try:
                data[column] = (np.array(values, dtype=np.int64) if len(present) == len(values)
                                else pd.array(values, dtype="Int64"))
                continue
            except OverflowError:  # past int64: kept as Python integers
                pass
        elif present and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                             for v in present):
            data[column] = np.array([np.nan if v is None else v for v in values],
                                    dtype=np.float64)
            continue
        data[column] = pd.Series(values, dtype=object)
    return pd.DataFrame(data, columns=columns)
