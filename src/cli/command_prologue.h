// The start every command shares: parse errors and --help end the command before it does
// anything, the same way for all of them.
#pragma once

#include <iostream>
#include <optional>
#include <string_view>

#include "cli/exit_codes.h"
#include "cli/option_parser.h"
#include "render/escaping.h"
#include "util/status.h"

namespace gpuscope::cli {

// The one-line error of every command but `run` (whose launcher uses nvprof's "==gpuscope=="
// prefix, as its other lines carry the program's pid). Messages may quote the file (SQLite
// cites a damaged schema's text): control characters are escaped, so that the error stays
// one line and the terminal runs nothing from it.
inline void CommandError(std::string_view message) {
  std::cerr << "gpuscope: error: " << render::TerminalText(message) << '\n';
}

// A parse error: `report_error(message)` (the command's own one-line prefix) and the short
// usage on stderr, exit 2. --help (`Options::help`): the usage on stdout, exit 0. Otherwise
// std::nullopt: the command goes on with `parsed.value()`.
template <typename Options>
std::optional<int> EndOnUsageErrorOrHelp(const StatusOr<Options>& parsed, std::string_view usage,
                                         std::string_view command,
                                         void (*report_error)(std::string_view)) {
  if (!parsed.ok()) {
    report_error(parsed.status().message());
    std::cerr << ShortUsage(usage, command);
    return kExitUsage;
  }
  if (parsed.value().help) {
    std::cout << usage;
    return kExitOk;
  }
  return std::nullopt;
}

}  // namespace gpuscope::cli
