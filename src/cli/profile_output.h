// Prints the profiled kernels of reports: Nsight Compute's details page (sections), the
// raw page (every metric by CUPTI name), the per-kernel summary, or their CSV. Shared by
// `gpuscope profile` (after the program) and `gpuscope stats --page`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/profile_options.h"
#include "util/status.h"

namespace gpuscope::cli {

struct ProfileOutputOptions {
  bool csv = false;
  ProfilePage page = ProfilePage::kDetails;
  ProfileSummary summary = ProfileSummary::kNone;
};

struct ProfileOutputResult {
  std::size_t profiled = 0;           // profiled kernels found in the reports
  std::vector<std::string> problems;  // evaluation problems, one line each
};

// Evaluates (and stores) the counter data of a report's measured kernels that have no metric
// values yet (a report whose program was killed, or one copied from the GPU machine). A
// report without profiled kernels is left untouched. Problems are returned one per line.
StatusOr<std::vector<std::string>> EvaluateIfNeeded(const std::string& report_path);

// Kernels whose counter data was never evaluated (a report of a program that was killed,
// or one copied from the GPU machine) are evaluated first and their values stored.
StatusOr<ProfileOutputResult> PrintProfiles(std::ostream& out,
                                            const std::vector<std::string>& report_paths,
                                            const ProfileOutputOptions& options);

}  // namespace gpuscope::cli
