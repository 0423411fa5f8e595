// Checks the report and log path patterns before the program starts, so that a typo in -o
// or --log-file costs the user an error message instead of a whole (possibly long) run whose
// output cannot be written. The injection library expands the report pattern again in each
// traced process, by the same rules (contract/report_path_rules.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/path_pattern.h"
#include "util/status.h"

namespace gpuscope::cli {

// Returns the pattern to hand to the injection library: `pattern` made absolute against
// `working_directory` (children that chdir still write where the user asked), with any '%'
// of the directory escaped. Fails when the pattern does not expand (%q of an unset
// variable, an unknown macro), when the report's directory does not exist or is not
// writable, when the path is a directory, or when the pattern has no %p (every run gives
// the same name), the file exists and `force_overwrite` is false, and when the report would
// be one of `inputs` (the program: `run -o ./app ./app`).
// `context` stands in for the program's process (its pid is only known after the fork).
StatusOr<std::string> PrepareReportPattern(std::string_view pattern, bool force_overwrite,
                                           const PatternContext& context,
                                           std::string_view working_directory,
                                           const std::vector<std::string>& inputs = {});

// Checks a --log-file pattern the same way, by output_claim.h's rules: the log is never one
// of `inputs` (the program, the report), never replaces a gpuscope report, and replaces an
// existing file only with `force_overwrite`. For a pattern with %p only the first rule can
// be checked before the program's pid is known; the log is claimed again when it is opened
// (LogOutput::Open). "%1" and "%2" need no check.
Status CheckLogFilePattern(std::string_view pattern, const PatternContext& context,
                           bool force_overwrite, const std::vector<std::string>& inputs);

// "a/b/c" -> "a/b"; "c" -> "."; "/c" -> "/".
std::string DirectoryOf(std::string_view path);

}  // namespace gpuscope::cli
