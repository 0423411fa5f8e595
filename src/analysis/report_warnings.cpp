// CollectionWarnings: a report's own record of its losses, put into words.
#include "analysis/report_warnings.h"

#include "analysis/collection_warnings.h"
#include "store/event_tables.h"

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

std::vector<std::string> SkippedRowWarnings(const store::ReportReader& report) {
  std::vector<std::string> warnings;
  for (const store::EventTableInfo& table : store::kEventTables) {
    std::uint64_t skipped = report.rows_ending_before_start(table.name);
    if (skipped == 0) continue;
    warnings.push_back(std::to_string(skipped) + (skipped == 1 ? " row of " : " rows of ") +
                       std::string(table.name) + (skipped == 1 ? " ends" : " end") +
                       " before " + std::string(skipped == 1 ? "it starts" : "they start") + " (damaged timestamps): skipped");
  }
  return warnings;
}

}  // namespace gpuscope::analysis
