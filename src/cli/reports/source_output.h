// The source page of profiled kernels (`gpuscope source`, and `gpuscope stats --page source`
// with the same options): each report evaluated first (SASS and lines read from its cubins once,
// evaluate::EvaluateReport), then per selected profiled kernel its instructions and/or source
// lines with their values, like `ncu --page source`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options/kernel_filter_options.h"
#include "render/source_page.h"
#include "util/status.h"

namespace gpuscope::cli {

struct SourceOutputOptions {
  std::vector<std::string> report_paths;
  KernelFilterText filter;
  render::SourcePageOptions page;
  bool csv = false;
};

// --print-source sass|cuda|cuda,sass (ncu's values; "sass,cuda" is taken for "cuda,sass").
StatusOr<render::SourcePrint> ParsePrintSource(std::string_view value);

// --sort COLUMN: a column of the page, by its header ("Instructions Executed", "stall_long_sb").
StatusOr<std::size_t> ParseSortColumn(std::string_view value);

// Prints the pages on stdout; returns the exit code (errors said with CommandError).
int PrintSourcePages(const SourceOutputOptions& options);

// The help lines of --print-source and --sort.
inline constexpr const char* kPrintSourceHelp =
    "sass: one row per SASS instruction; cuda: one row per source line; cuda,sass: each line "
    "followed by its instructions (default sass)";
inline constexpr const char* kSortHelp =
    "hottest first by this column (e.g. \"Instructions Executed\", "
    "\"Warp Stall Sampling (All Samples)\", stall_long_sb); default: by address or line";

}  // namespace gpuscope::cli
