// Where each of several reports goes when they are shown together (the viewer, the Chrome
// export): reports that carry ranks are put on the aligned axis (clock_alignment.h), in rank
// order, each labelled "rank N (host, pid)". Reports without ranks keep the placement their
// viewer gives them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/ranks/clock_alignment.h"
#include "analysis/report_checks.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

struct RankPlacement {
  RankClock clock;           // clock.offset_ns: add to the report's times
  std::string label;         // "rank 3 (node7, 4242)", or "node7, 4242" without a rank
  std::size_t position = 0;  // in rank order, from 0
};

// True when at least one report knows its rank (schema version 3 under a launcher).
bool CarryRanks(const Reports& reports);

// One placement per report, index i for reports[i]; empty when no report carries a rank.
StatusOr<std::vector<RankPlacement>> PlaceRankedReports(const Reports& reports);

}  // namespace gpuscope::analysis::ranks
