// CollectionWarnings: a report's own record of its losses, put into words.
#include "analysis/report_warnings.h"

#include "analysis/collection_warnings.h"

namespace gpuscope::analysis {

std::vector<std::string> CollectionWarnings(const store::ReportReader& report) {
  CollectionState state;
  state.counters = report.counters();
  state.records_not_written = report.records_not_written();
  state.finalized = report.finalized();
  state.closed_by_writer = report.closed_by_writer();
  state.tracing_start = report.process().start;
  state.last_flush = report.process().end;
  return LossWarnings(state);
}

}  // namespace gpuscope::analysis
