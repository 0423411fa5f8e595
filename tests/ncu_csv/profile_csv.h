// Reading the CSV that Nsight Compute and `gpuscope profile` print, into ProfiledLaunch
// values. Two layouts exist:
//  - wide (`ncu --csv --page raw`): a header row "ID","Process ID",...,"CC",<metric names>,
//    then a units row (identity fields empty, a unit under each metric), then one row per
//    profiled launch;
//  - one row per launch and metric (`ncu --csv --page details`, and gpuscope's raw and
//    details CSV): "ID",...,"Metric Name","Metric Unit","Metric Value"[,"Metric Id"].
// Lines before, between and after the table that are not records (==PROF== progress, the
// program's own output) are skipped; a record that does not fit the table is an error.
#pragma once

#include <string_view>
#include <vector>

#include "profiled_launch.h"
#include "util/status.h"

namespace gpuscope::ncu_csv {

// Either layout, told apart by the header ("Metric Name" column or not). Launches come in
// the order of their IDs (the order they were profiled in).
StatusOr<std::vector<ProfiledLaunch>> ParseProfileCsv(std::string_view text);

// The wide layout only.
StatusOr<std::vector<ProfiledLaunch>> ParseWideCsv(std::string_view text);

// The metric-per-row layout only. A row's metric key is its "Metric Id" when the table has
// one and it is not empty (gpuscope: the CUPTI name), else its "Metric Name".
StatusOr<std::vector<ProfiledLaunch>> ParseMetricRowsCsv(std::string_view text);

}  // namespace gpuscope::ncu_csv
