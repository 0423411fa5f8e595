#include "cli/options/traced_run_options.h"

#include "cli/options/option_targets.h"

namespace gpuscope::cli {

TracedRunOptionSpecs DeclareTracedRunOptions(TracedRunOptions& options,
                                             const TracedRunOptionWords& words) {
  return {
      .output = {words.output_name, 'o', "file", words.output_help,
                 StoreNonEmptyText(options.report_pattern, "a file name")},
      .force_overwrite = {"force-overwrite", 'f', "", words.force_overwrite_help,
                          SetFlag(options.force_overwrite)},
      .report_permissions = {"report-permissions", 0, "private|umask",
                             "reports readable by their owner only (default), or as the umask "
                             "allows",
                             StoreReportPermissions(options.report_permissions)},
      .quiet = {"quiet", words.quiet_short_name, "", words.quiet_help, SetFlag(options.quiet)},
      .backtrace = {"backtrace", 0, "",
                    "record the host call stack (Python file:line, else native) of each launch, "
                    "copy and sync",
                    SetFlag(options.backtrace)},
  };
}

}  // namespace gpuscope::cli
