// What every traced run asks of the injection (`gpuscope run` and `gpuscope profile`): where
// the reports go and how they are written, what is recorded, whether the program hears from
// gpuscope. Written into the program's environment by the launcher (ToEnvironment) and read
// there by the injection (FromEnvironment), so that each value has one spelling.
#pragma once

#include <string>

#include "contract/environment_values.h"
#include "contract/report_path_rules.h"
#include "util/report_permissions.h"
#include "util/trace_scope.h"

namespace gpuscope::contract {

struct TraceRequest {
  std::string report_pattern = kDefaultReportPattern;  // GPUSCOPE_REPORT, unexpanded
  bool follow_children = true;                         // GPUSCOPE_FOLLOW_CHILDREN
  bool force_overwrite = false;                        // GPUSCOPE_FORCE_OVERWRITE
  // GPUSCOPE_REPORT_PERMISSIONS: the mode new reports get (util/report_permissions.h).
  ReportPermissions report_permissions = kDefaultReportPermissions;
  bool profile_from_start = true;  // GPUSCOPE_PROFILE_FROM_START
  bool quiet = false;  // GPUSCOPE_QUIET: no banner (--quiet, or output sent to --log-file)
  // GPUSCOPE_TRACE, GPUSCOPE_API_CAPTURE, GPUSCOPE_CUDA_GRAPH_TRACE: what is recorded, how.
  TraceScope trace;
  bool backtrace = false;     // GPUSCOPE_BACKTRACE: host call stacks (inject/call_stacks.h)
  std::string manifest_path;  // GPUSCOPE_MANIFEST; empty: none

  // Every variable above, always, so that a run inside a traced program never inherits the
  // outer run's choices.
  VariableValues ToEnvironment() const;

  // The request the launcher wrote. Read by hand-set environments too, so a bad value costs
  // only itself: that field keeps its default and a problem line names the variable. Unset or
  // empty variables keep the defaults above (the library loaded without `gpuscope run`).
  static RequestReading<TraceRequest> FromEnvironment(const EnvironmentLookup& getenv);
};

}  // namespace gpuscope::contract
