// Argument checks shared by the printers: every entry point takes a list of reports.
#pragma once

#include "analysis/printers.h"
#include "util/status.h"

namespace gpuscope::analysis {

// An error when the list is empty or holds a null report.
Status CheckReports(const Reports& reports);

}  // namespace gpuscope::analysis
