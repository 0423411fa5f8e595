"""The source page of the profiled kernels (`gpuscope source`'s rows, `profile --set full`):
the stored source counters (instruction_values, long) beside the SASS and lines of the
instructions they count (sass_instructions, source_files), one column per counter.

Only the stored values, under CUPTI's names; the page's derived columns (excess sectors over
the ideal, the stall reasons' short names) stay `gpuscope source`'s. Its rows, as there: every
instruction of the functions a profiled kernel has counters of (NA where CUPTI counted
nothing), or every source line of them that has instructions.
"""

import pandas as pd

_SITE = ["profiled_kernel_id", "cubin_crc", "function", "pc_offset"]
_LINE = ["profiled_kernel_id", "function", "file", "line"]
_INSTRUCTION = ["sass", "file", "line"]
BY = ("sass", "line")


def page(report, by):
    if by not in BY:
        raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")
    values = report.instruction_values()
    if not len(values):  # a trace, or a profile without source counters
        return pd.DataFrame(columns=_SITE + _INSTRUCTION if by == "sass" else
                            _LINE + ["source"])
    counters = sorted(values["metric"].unique())
    per_site = (values.groupby(_SITE + ["metric"])["value"].sum().astype("Int64")
                .unstack("metric").reset_index())
    functions = values[["profiled_kernel_id", "cubin_crc", "function"]].drop_duplicates()
    instructions = functions.merge(report.sass_instructions(), on=["cubin_crc", "function"])
    # Outer: a value at an instruction the evaluation has no SASS of still shows.
    rows = instructions.merge(per_site, on=_SITE, how="outer")
    rows = rows.sort_values(_SITE, kind="stable").reset_index(drop=True)
    rows = rows[_SITE + _INSTRUCTION + counters]
    rows.columns.name = None  # unstack's "metric"
    if by == "sass":
        return rows
    lines = rows[rows["file"].notna() & rows["line"].notna()]
    # min_count=1: a line none of whose instructions has a counter keeps NA there, not 0.
    summed = lines.groupby(_LINE, sort=True)[counters].sum(min_count=1).reset_index()
    summed.insert(4, "source", _line_texts(report.source_files(), summed))
    return summed


def _line_texts(files, lines):
    """The text of each (file, line) of `lines`; NA where the file's text was not stored."""
    texts = {path: None if content is None else content.split("\n")
             for path, content in zip(files["path"], files["content"])}

    def text(path, line):
        body = texts.get(path)
        if body is None or not 0 < line <= len(body):
            return None
        return body[line - 1].rstrip("\r")

    return pd.Series([text(p, int(n)) for p, n in zip(lines["file"], lines["line"])],
                     index=lines.index, dtype=object)
