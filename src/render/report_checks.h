// Argument checks shared by the printers: every entry point takes a list of reports.
#pragma once

#include "render/output_options.h"
#include "util/status.h"

namespace gpuscope::render {

// An error when the list is empty or holds a null report.
Status CheckReports(const Reports& reports);

}  // namespace gpuscope::render
