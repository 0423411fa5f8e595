// The list of reports every summary reads and aggregates (one per process or rank), and the
// check that it can be read.
#pragma once

#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis {

using Reports = std::vector<const store::ReportReader*>;

// An error when the list is empty or holds a null report.
Status CheckReports(const Reports& reports);

}  // namespace gpuscope::analysis
