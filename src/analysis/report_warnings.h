// A report's losses as one-line warnings, read from the report itself (the wording lives in
// collection_warnings.h).
#pragma once

#include <string>
#include <vector>

#include "store/report_reader.h"

namespace gpuscope::analysis {

// One line per kind of loss in the report (dropped records, records without timestamps,
// unfinished NVTX ranges, unknown record kinds, records the writer could not store) and,
// for a report that was not finalized, how far its data goes; empty when nothing was lost.
std::vector<std::string> CollectionWarnings(const store::ReportReader& report);

}  // namespace gpuscope::analysis
