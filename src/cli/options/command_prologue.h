// The start every command shares: parse errors and --help end the command before it does
// anything, the same way for all of them.
#pragma once

#include <iostream>
#include <optional>
#include <string_view>

#include "cli/options/option_parser.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"
#include "util/status.h"

namespace gpuscope::cli {

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
