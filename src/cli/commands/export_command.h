// `gpuscope export --format chrome|csv [-o out] <report>...`: a Chrome Trace Event Format
// JSON file (Perfetto UI, chrome://tracing) with one trace process per report, or one CSV
// file per table of each report.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 on success; 1 when a report cannot be read or the output cannot be written; 2 for
// usage errors.
int ExportCommand(std::span<const std::string> args);
std::string ExportUsage();

}  // namespace gpuscope::cli
