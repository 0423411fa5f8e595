// Facts about the traced process for its ProcessRecord and the "is profiling" banner.
#pragma once

#include <string>

#include "inject/collector.h"
#include "inject/rank_identity.h"
#include "model/records.h"

namespace gpuscope::inject {

// /proc/self/cmdline with its arguments joined by spaces ("python3 train.py --epochs 3");
// the executable's path when /proc is unavailable.
std::string CommandLineOfThisProcess();

// pid, parent pid, host name, command line and boot id (read from `boot_id_path`), with the
// rank identity the launcher's variables gave; `start` is when tracing began.
ProcessDescription DescribeThisProcess(model::Timestamp start, const RankIdentity& identity,
                                       const char* boot_id_path = kBootIdPath);

}  // namespace gpuscope::inject
