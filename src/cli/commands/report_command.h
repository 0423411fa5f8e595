// `gpuscope report <report>... [-o out.html]`: one self-contained HTML file with the viewer
// and the reports' data, to share; it needs no server and no network.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 on success; 1 when a report cannot be read or the file cannot be written; 2 for usage
// errors.
int ReportCommand(std::span<const std::string> args);
std::string ReportUsage();

}  // namespace gpuscope::cli
