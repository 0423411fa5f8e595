// `gpuscope diff` output. Text: per matched kernel (biggest change first) a title with the
// time saved and a table of the rows that changed beyond noise (all rows with `all_rows`),
// then the kernels found in only one report. CSV: one row per compared value with unscaled
// numbers, and one row per unmatched kernel (status "only in before" / "only in after").
#pragma once

#include <ostream>

#include "analysis/diff/report_diff.h"

namespace gpuscope::render {

struct DiffFormatOptions {
  bool all_rows = false;  // also rows within noise and unchanged ones
};

void WriteDiffText(const analysis::diff::ReportDiff& diff, const DiffFormatOptions& options,
                   std::ostream& out);
void WriteDiffCsv(const analysis::diff::ReportDiff& diff, std::ostream& out);

}  // namespace gpuscope::render
