// Parsing of the printers' command-line values; the CLI passes the user's text through.
#include <string>

#include "analysis/printers.h"

namespace gpuscope::analysis {

StatusOr<TimeUnit> ParseTimeUnit(std::string_view text) {
  if (text == "auto") return TimeUnit::kAuto;
  if (text == "s") return TimeUnit::kSeconds;
  if (text == "ms") return TimeUnit::kMilliseconds;
  if (text == "us") return TimeUnit::kMicroseconds;
  if (text == "ns") return TimeUnit::kNanoseconds;
  return Status::Error("unknown time unit '" + std::string(text) +
                       "' (expected s, ms, us, ns or auto)");
}

StatusOr<StatsFormat> ParseStatsFormat(std::string_view text) {
  if (text == "column") return StatsFormat::kColumn;
  if (text == "csv") return StatsFormat::kCsv;
  if (text == "json") return StatsFormat::kJson;
  return Status::Error("unknown output format '" + std::string(text) +
                       "' (expected column, csv or json)");
}

}  // namespace gpuscope::analysis
