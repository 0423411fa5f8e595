// Prints the profiled kernels of reports: Nsight Compute's details page (sections), the
// raw page (every metric by CUPTI name), the per-kernel summary, or their CSV. Shared by
// `gpuscope profile` (after the program) and `gpuscope stats --page`, each of which first
// evaluates the reports (evaluate/report_evaluation.h): this only reads them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "util/kernel_filter.h"
#include "util/status.h"

namespace gpuscope::cli {

enum class ProfilePage { kDetails, kRaw };
enum class ProfileSummary { kNone, kPerKernel };

struct ProfileOutputOptions {
  bool csv = false;
  ProfilePage page = ProfilePage::kDetails;
  ProfileSummary summary = ProfileSummary::kNone;
  // Reading back (`stats --page`): which profiled launches (ncu's filters, applied per report
  // in profile order), which of the collected sections (empty: all), and which metrics
  // (details: a "Command line profiler metrics" section of them; raw: only them).
  KernelFilterSpec filter;
  std::vector<std::string> sections;
  std::vector<std::string> metrics;
};

struct ProfileOutputResult {
  std::size_t profiled = 0;  // profiled kernels found in the reports
  std::size_t selected = 0;  // of those, the ones the filter kept (printed)
  std::vector<std::string> profiled_names;  // function names of the profiled kernels, each once
  // "<report>: <why>" for metric values of the printed kernels that were left out as
  // impossible (analysis/value_range.h), for the command to print as warnings.
  std::vector<std::string> warnings;
};

// `--print-summary per-kernel` summarises the details page: with --page raw it would be
// ignored, so it is refused with the reason.
Status CheckProfileOutputOptions(const ProfileOutputOptions& options);

StatusOr<ProfileOutputResult> PrintProfiles(std::ostream& out,
                                            const std::vector<std::string>& report_paths,
                                            const ProfileOutputOptions& options);

}  // namespace gpuscope::cli
