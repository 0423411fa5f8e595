// How a report path pattern becomes the path of each traced process's report. The launcher
// checks the pattern before the program starts, and every traced process expands it again
// with its own pid; both follow these rules, so the launcher's checks are about the very
// file the program will write.
#pragma once

#include <string>
#include <string_view>

#include "util/path_pattern.h"
#include "util/status.h"

namespace gpuscope::contract {

// The pattern without -o (and without GPUSCOPE_REPORT): one report per process.
inline constexpr const char* kDefaultReportPattern = "gpuscope_%p.sqlite";

// The report path of the process `context` describes: the pattern expanded (%p %h %q{ENV}
// %%). A child process whose pattern has no %p gets ".<pid>" before the extension, so that
// parent and children never share a report; the root gets the expansion as it is.
StatusOr<std::string> ExpandReportPath(std::string_view pattern, const PatternContext& context,
                                       bool is_root);

// `pattern` made absolute against `working_directory`, which is escaped ('%' -> "%%") so
// that it stays literal. The launcher hands the injection this form: a child that changes
// directory still writes where the user asked.
std::string AbsoluteReportPattern(std::string_view pattern, std::string_view working_directory);

}  // namespace gpuscope::contract
