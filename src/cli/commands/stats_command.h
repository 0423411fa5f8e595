// `gpuscope stats [options] <report>...`: print summaries again from reports.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 on success; 1 when a report cannot be read (one line naming it and why: missing,
// corrupt, truncated, not a gpuscope report, another schema version); 2 for usage errors.
int StatsCommand(std::span<const std::string> args);

}  // namespace gpuscope::cli
