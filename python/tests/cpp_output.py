"""What the gpuscope command prints, read back for the tests that compare the package with it."""

import csv
import io
import os
import subprocess


def gpuscope_output(*arguments):
    done = subprocess.run([os.environ["GPUSCOPE_BIN"], *arguments], capture_output=True,
                          text=True, timeout=240)
    assert done.returncode == 0, f"gpuscope {' '.join(arguments[:4])} ...: {done.stderr}"
    return done.stdout


def csv_rows(*arguments):
    """The command's CSV as lists of cells, each as text_of would give it."""
    return [[text_of(cell) for cell in row]
            for row in csv.reader(io.StringIO(gpuscope_output(*arguments)))]


def csv_records(*arguments):
    header, *rows = csv_rows(*arguments)
    return [dict(zip(header, row)) for row in rows]


def text_of(cell):
    """A CSV cell's text: the command puts ' before text starting with = + - @ (or a tab or
    CR) so that a spreadsheet does not run it (render/escaping.h, CsvSafeText)."""
    if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return cell[1:]
    return cell
