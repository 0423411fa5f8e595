// A small command-line option parser shared by every subcommand. It accepts the spellings
// nvprof and nsys users type: `--name value`, `--name=value`, `-x value`, `-xvalue`, and
// `--` to end the options. Each subcommand declares its options once (OptionSpec), each
// naming the field it fills (its target, cli/options/option_targets.h): parsing fills the fields with
// no switch over option ids, and the option list in its --help comes from the same
// declaration.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace gpuscope::cli {

struct OptionSpec;

struct ParsedOption {
  std::string spelling;  // the name as the user wrote it ("-o", "--export-profile"), for errors
  std::string value;     // empty for flags
};

// What an option does with its value: fills the field its declaration was bound to. Errors
// are one line naming the option ("option '-u' expects s, ms, us, ns or auto, not 'x'").
using OptionTarget = std::function<Status(const ParsedOption&)>;

struct OptionSpec {
  std::string_view long_name;   // without the leading "--"
  char short_name = 0;          // 0: no short spelling
  std::string_view value_name;  // empty: a flag that takes no value
  std::string_view help;        // one line for --help
  OptionTarget target;
};

enum class OperandMode {
  // `gpuscope run`: the first word that is not an option starts the program's command line,
  // so the program's own options are never mistaken for ours.
  kStopAtFirstOperand,
  // `gpuscope stats`: options and report files may come in any order.
  kInterleaved,
};

struct GivenOption {
  const OptionSpec* spec = nullptr;
  ParsedOption option;
};

struct ParsedCommandLine {
  std::vector<GivenOption> options;  // in the order given; later ones override earlier ones
  std::vector<std::string> operands;
};

// The words split into options and operands, no target filled yet. Errors are one line
// naming the offending word ("unknown option '--foo'"): every word is checked before any
// value is.
StatusOr<ParsedCommandLine> ParseOptions(std::span<const OptionSpec> specs,
                                         std::span<const std::string> args, OperandMode mode);

// Fills each given option's target, in the order given; the first bad value is the error.
Status ApplyOptions(const ParsedCommandLine& parsed);

// Both: the operands, with every option's target filled.
StatusOr<std::vector<std::string>> ParseCommandLine(std::span<const OptionSpec> specs,
                                                    std::span<const std::string> args,
                                                    OperandMode mode);

// The command line of a command that reads reports, options and reports in any order: the
// reports, at least one unless `help` (filled by an option) was asked for.
StatusOr<std::vector<std::string>> ParseReportsCommandLine(std::span<const OptionSpec> specs,
                                                           std::span<const std::string> args,
                                                           const bool& help);

// The "Options:" block of a --help text.
std::string FormatOptionHelp(std::span<const OptionSpec> specs);

// What follows a usage error: the synopsis lines of `help` (up to its first blank line) and
// a pointer to the full help, which would bury the one-line error if printed whole.
std::string ShortUsage(std::string_view help, std::string_view command);

}  // namespace gpuscope::cli
