// Everything `gpuscope profile` settles before the program starts: the chip, the sections,
// the metric names (every one checked on the chip, with the nearest names for a typo), and
// how many replay passes that costs per kernel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/metrics/section_catalog.h"
#include "cli/options/profile_options.h"
#include "contract/profile_request.h"
#include "cupti/host/metric_host.h"
#include "util/status.h"

namespace gpuscope::cli {

struct ProfileRequestPlan {
  std::string chip;  // empty when no chip is known (no GPU here and no --chip)
  std::vector<const analysis::metrics::Section*> sections;
  std::vector<std::string> section_ids;    // identifiers, print order (for the report)
  std::vector<std::string> extra_metrics;  // --metrics, as given
  std::vector<std::string> metrics;        // what the injection collects
  std::uint32_t passes = 0;                // 0: unknown (no chip)
  std::vector<std::uint8_t> config_image;  // CUPTI's config image for `chip` (empty: none)
  std::vector<std::string> notes;          // one line each, for stderr
  // SourceCounters asked for (and kernel replay): gpuscope's own replay adds these passes per
  // profiled kernel before the counter passes (PC sampling, then SASS patching).
  bool source_counters = false;
  static constexpr std::uint32_t kSourcePasses = 2;
};

// The chip: --chip, else the GPU's (device 0).
StatusOr<std::string> ChooseChip(const ProfileOptions& options);

// The config image in a new temporary file (the injection reads it instead of building it
// inside the program's first profiled launch); the caller removes it.
StatusOr<std::string> WriteConfigImage(const ProfileRequestPlan& plan);

// Errors are the one-line messages of a bad request (unknown section, unknown metric with
// suggestions), exit 2.
StatusOr<ProfileRequestPlan> PlanProfile(const ProfileOptions& options);

// What the injection is asked to measure (contract/profile_request.h), without the parts each
// run adds: the config image's file and, with application replay, the run's pass. The error is
// a kernel filter that does not parse (the options checked it, so never in practice).
StatusOr<contract::ProfileRequest> InjectionRequest(const ProfileOptions& options,
                                                    const ProfileRequestPlan& plan);

}  // namespace gpuscope::cli
