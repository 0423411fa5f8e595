// `gpuscope diff` output.
//
// Text: per matched kernel (biggest change first) a title with its launch configuration
// (before -> after where it changed), launches and the time saved, then a table of the values
// that changed beyond noise (all with `all_rows`) named by ncu's labels, with one unit per
// row; the kernels found in one report only; the same for the GPU time projected per NVTX
// range; per kernel that both reports profiled with source counters, the source lines that
// changed (diff_source_lines.h); and a last line counting the regressions.
//
// CSV: one row per compared value with unscaled numbers ("Kind" kernel or nvtx_range), and
// one row per kernel or range in one report only ("Status" only in before / only in after).
//
// JSON (`--format json`), one object, for CI:
//   {"before": path, "after": path, "match": "name"|"name+config", "regressions": N,
//    "kernels": [{"name", "function", "configs_before": [{"grid": [x,y,z], "block": [x,y,z]}],
//                 "configs_after": [...], "config_changed", "launches_before",
//                 "launches_after", "time_saved_ns" (null: no time), "regression",
//                 "time": VALUE|null, "values": [VALUE...],
//                 "source_lines": LINES|null (diff_source_lines.h)}],
//    "kernels_only_before": [{"name", "function", "configs", "launches", "total_time_ns"}],
//    "kernels_only_after": [...],
//    "nvtx_ranges": [{"name", "instances_before", "instances_after", "time_saved_ns",
//                     "regression", "time": VALUE}],
//    "nvtx_ranges_only_before": [{"name", "instances", "total_time_ns"}],
//    "nvtx_ranges_only_after": [...],
//    "source_notes": ["<report>: <why its source data could not be read>"...]}
//   VALUE: {"metric" (CUPTI id or row name), "label" (ncu's), "unit" (base unit), "before",
//           "after" (means), "before_count", "after_count", "delta", "relative" (null from
//           zero), "direction", "change", "beyond_noise", "noise" (relative threshold),
//           "noise_source"}
// "time" is the traced duration (else the profiled one) per launch, and for a range its
// projected GPU time per instance; "values" are every compared metric, biggest change first.
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
void WriteDiffJson(const analysis::diff::ReportDiff& diff, std::ostream& out);

}  // namespace gpuscope::render
