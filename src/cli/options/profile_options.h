// What `gpuscope profile` was asked to do, in Nsight Compute's option spellings.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/options/kernel_filter_options.h"
#include "cli/options/traced_run_options.h"
#include "cli/reports/profile_output.h"
#include "contract/profile_request.h"
#include "util/kernel_filter.h"
#include "util/status.h"

namespace gpuscope::cli {

inline constexpr const char* kDefaultProfileReportPattern = "gpuscope_profile_%p.sqlite";

struct ProfileOptions {
  // Which launches (the raw texts are handed to the injection; parsed here to reject errors
  // before the program starts).
  KernelFilterText filter;
  // What to collect.
  std::optional<std::string> set;     // --set; default: basic unless --section/--metrics
  std::vector<std::string> sections;  // --section (repeatable)
  std::vector<std::string> metrics;   // --metrics a,b (repeatable)
  // kernel | application | app-range (a range of the program as one result, the program run
  // once per pass; -s/-c count ranges).
  model::ReplayMode replay_mode = model::ReplayMode::kKernel;
  // --nvtx-include (repeatable, app-range): the NVTX ranges to measure instead of
  // cudaProfilerStart/Stop's (util/nvtx_range_filter.h).
  std::vector<std::string> nvtx_include;
  // --import-source: SourceCounters also collects per-instruction data (own replay passes).
  bool import_source = true;
  // Kernel replay: flush L2 before each pass (as ncu), or not.
  contract::CacheControl cache_control = contract::CacheControl::kAll;
  // --replay-no-restore: kernel replay without saving and restoring device memory.
  bool replay_no_restore = false;
  // Listings that need no program (and no GPU).
  bool list_sets = false;
  bool list_sections = false;
  bool query_metrics = false;
  std::optional<std::string> chip;  // --chip: skip detecting the GPU's chip
  // Output.
  bool csv = false;
  ProfilePage page = ProfilePage::kDetails;
  ProfileSummary print_summary = ProfileSummary::kNone;
  TracedRunOptions traced{.report_pattern = kDefaultProfileReportPattern};
  bool help = false;

  std::vector<std::string> program;
};

// Errors are usage errors (one line, exit 2).
StatusOr<ProfileOptions> ParseProfileOptions(std::span<const std::string> args);

std::string ProfileUsage();

}  // namespace gpuscope::cli
