// `gpuscope diff` per source line (analysis/diff/source_line_diff.h), for the text and JSON
// outputs of diff_format.h.
//
// Text, under a kernel's metrics: "Source lines (by file:line)" and a table of the changed
// lines, biggest change first (the top kTopChangedLines unless all rows are asked for): the
// location, per compared column the change as "+1,024 (+12.5%)" ("new" from zero, "gone" to
// zero), and the code.
//
// JSON, the kernel's "source_lines" (null when a report has no source page for it):
//   {"joined_by": "line"|"offset", "compared": N, "columns": [<ncu header>...] (those measured
//    in both), "changed": [{"location", "function" ("" by line), "code" (null: not stored),
//    "only_before", "only_after", "values": [{"column", "before", "after", "delta"}]}]}
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "analysis/diff/source_line_diff.h"

namespace gpuscope::render {

inline constexpr std::size_t kTopChangedLines = 10;

void WriteSourceLineDiffText(const analysis::diff::SourceLineDiff& diff, bool all_rows,
                             std::ostream& out);

std::string SourceLineDiffJson(const analysis::diff::SourceLineDiff& diff);

}  // namespace gpuscope::render
