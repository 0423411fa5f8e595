// A small command-line option parser shared by every subcommand. It accepts the spellings
// nvprof and nsys users type: `--name value`, `--name=value`, `-x value`, `-xvalue`, and
// `--` to end the options. Each subcommand declares its options once (OptionSpec), and
// both parsing and the option list in its --help come from that declaration.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/report_permissions.h"
#include "util/status.h"

namespace gpuscope::cli {

struct OptionSpec {
  int id = 0;                   // the subcommand's own enum value
  std::string_view long_name;   // without the leading "--"
  char short_name = 0;          // 0: no short spelling
  std::string_view value_name;  // empty: a flag that takes no value
  std::string_view help;        // one line for --help
};

struct ParsedOption {
  int id = 0;
  std::string spelling;  // the name as the user wrote it ("-o", "--export-profile"), for errors
  std::string value;     // empty for flags
};

enum class OperandMode {
  // `gpuscope run`: the first word that is not an option starts the program's command line,
  // so the program's own options are never mistaken for ours.
  kStopAtFirstOperand,
  // `gpuscope stats`: options and report files may come in any order.
  kInterleaved,
};

struct ParsedCommandLine {
  std::vector<ParsedOption> options;  // in the order given; later ones override earlier ones
  std::vector<std::string> operands;
};

// Errors are one line naming the offending word ("unknown option '--foo'").
StatusOr<ParsedCommandLine> ParseOptions(std::span<const OptionSpec> specs,
                                         std::span<const std::string> args, OperandMode mode);

// The "Options:" block of a --help text.
std::string FormatOptionHelp(std::span<const OptionSpec> specs);

// What follows a usage error: the synopsis lines of `help` (up to its first blank line) and
// a pointer to the full help, which would bury the one-line error if printed whole.
std::string ShortUsage(std::string_view help, std::string_view command);

// Values of on|off options (nvprof's spelling).
StatusOr<bool> ParseOnOff(const ParsedOption& option);

// Values of --report-permissions (run and profile): private|umask.
StatusOr<ReportPermissions> ParseReportPermissionsOption(const ParsedOption& option);

}  // namespace gpuscope::cli
