// The options of a traced run, declared once for the commands that run a program under the
// injection (`run` and `profile`): where the reports go and how they are written, whether
// gpuscope speaks, and whether launches record their call stacks.
#pragma once

#include <string>
#include <string_view>

#include "cli/options/option_parser.h"
#include "util/report_permissions.h"

namespace gpuscope::cli {

struct TracedRunOptions {
  std::string report_pattern;  // -o; each command has its own default
  bool force_overwrite = false;
  ReportPermissions report_permissions = kDefaultReportPermissions;  // --report-permissions
  bool quiet = false;
  // --backtrace: each launch, copy and synchronising call records its host call stack.
  bool backtrace = false;
};

// What differs between the commands: the spellings and help words they inherited, `run`
// from nvprof, `profile` from Nsight Compute.
struct TracedRunOptionWords {
  std::string_view output_name;  // the long name of -o: "export-profile", "export"
  std::string_view output_help;
  std::string_view force_overwrite_help;
  char quiet_short_name = 0;
  std::string_view quiet_help;
};

// The declarations, each placed by its command where its --help lists it.
struct TracedRunOptionSpecs {
  OptionSpec output;
  OptionSpec force_overwrite;
  OptionSpec report_permissions;
  OptionSpec quiet;
  OptionSpec backtrace;
};

TracedRunOptionSpecs DeclareTracedRunOptions(TracedRunOptions& options,
                                             const TracedRunOptionWords& words);

}  // namespace gpuscope::cli
