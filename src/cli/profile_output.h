// Prints the profiled kernels of reports: Nsight Compute's details page (sections), the
// raw page (every metric by CUPTI name), the per-kernel summary, or their CSV. Shared by
// `gpuscope profile` (after the program) and `gpuscope stats --page`, each of which first
// evaluates the reports (evaluate/report_evaluation.h): this only reads them.
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
  std::size_t profiled = 0;  // profiled kernels found in the reports
};

// `--print-summary per-kernel` has a text form on the details page only: with --csv or
// --page raw it would be ignored, so it is refused with the reason.
Status CheckProfileOutputOptions(const ProfileOutputOptions& options);

StatusOr<ProfileOutputResult> PrintProfiles(std::ostream& out,
                                            const std::vector<std::string>& report_paths,
                                            const ProfileOutputOptions& options);

}  // namespace gpuscope::cli
