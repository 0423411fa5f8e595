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

// One line per event table whose rows, read so far through `report`, included some that end
// before they start ("3 rows of kernels end before they start: skipped"): statistics leave
// them out, and this says so instead of letting them vanish. Call after the reading.
std::vector<std::string> SkippedRowWarnings(const store::ReportReader& report);

}  // namespace gpuscope::analysis
