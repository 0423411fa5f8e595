#include "cli/options/option_parser.h"

#include <algorithm>

namespace gpuscope::cli {
namespace {

const OptionSpec* FindLong(std::span<const OptionSpec> specs, std::string_view name) {
  for (const OptionSpec& spec : specs) {
    if (spec.long_name == name) return &spec;
  }
  return nullptr;
}

const OptionSpec* FindShort(std::span<const OptionSpec> specs, char name) {
  for (const OptionSpec& spec : specs) {
    if (spec.short_name != 0 && spec.short_name == name) return &spec;
  }
  return nullptr;
}

Status MissingValue(std::string_view spelling, const OptionSpec& spec) {
  return Status::Error("option '" + std::string(spelling) + "' needs a value <" +
                       std::string(spec.value_name) + ">");
}

// Parses one word that starts with '-' (and is not "-" or "--"). `next` is the index of the
// word after it; a separate value advances it.
StatusOr<GivenOption> ParseOneOption(std::span<const OptionSpec> specs,
                                     std::span<const std::string> args, std::size_t& next) {
  const std::string& word = args[next - 1];
  if (word.starts_with("--")) {
    std::string_view body = std::string_view(word).substr(2);
    std::size_t equals = body.find('=');
    std::string_view name = body.substr(0, equals);
    const OptionSpec* spec = FindLong(specs, name);
    std::string spelling = "--" + std::string(name);
    if (spec == nullptr) return Status::Error("unknown option '" + spelling + "'");
    if (spec->value_name.empty()) {
      if (equals != std::string_view::npos) {
        return Status::Error("option '" + spelling + "' takes no value");
      }
      return GivenOption{spec, {spelling, ""}};
    }
    if (equals != std::string_view::npos) {
      return GivenOption{spec, {spelling, std::string(body.substr(equals + 1))}};
    }
    if (next >= args.size()) return MissingValue(spelling, *spec);
    return GivenOption{spec, {spelling, args[next++]}};
  }

  // A short option: "-f", "-o value", "-ovalue" (and "-o=value", which users type by analogy
  // with the long form).
  const OptionSpec* spec = FindShort(specs, word[1]);
  std::string spelling = word.substr(0, 2);
  if (spec == nullptr) return Status::Error("unknown option '" + word + "'");
  if (spec->value_name.empty()) {
    // Flags are not bundled ("-fh"): gpuscope has too few short flags for that to help, and
    // rejecting it keeps "-foo" from silently meaning "-f -o o".
    if (word.size() > 2) return Status::Error("unknown option '" + word + "'");
    return GivenOption{spec, {spelling, ""}};
  }
  if (word.size() > 2) {
    std::string_view attached = std::string_view(word).substr(2);
    if (attached.starts_with('=')) attached.remove_prefix(1);
    return GivenOption{spec, {spelling, std::string(attached)}};
  }
  if (next >= args.size()) return MissingValue(spelling, *spec);
  return GivenOption{spec, {spelling, args[next++]}};
}

}  // namespace

StatusOr<ParsedCommandLine> ParseOptions(std::span<const OptionSpec> specs,
                                         std::span<const std::string> args, OperandMode mode) {
  ParsedCommandLine parsed;
  std::size_t next = 0;
  while (next < args.size()) {
    const std::string& word = args[next++];
    if (word == "--") {
      parsed.operands.insert(parsed.operands.end(), args.begin() + next, args.end());
      break;
    }
    bool is_option = word.size() > 1 && word[0] == '-';  // a lone "-" is an operand (stdin)
    if (!is_option) {
      if (mode == OperandMode::kStopAtFirstOperand) {
        parsed.operands.insert(parsed.operands.end(), args.begin() + next - 1, args.end());
        break;
      }
      parsed.operands.push_back(word);
      continue;
    }
    StatusOr<GivenOption> option = ParseOneOption(specs, args, next);
    if (!option.ok()) return option.status();
    parsed.options.push_back(std::move(option.value()));
  }
  return parsed;
}

Status ApplyOptions(const ParsedCommandLine& parsed) {
  for (const GivenOption& given : parsed.options) {
    GPUSCOPE_RETURN_IF_ERROR(given.spec->target(given.option));
  }
  return {};
}

StatusOr<std::vector<std::string>> ParseCommandLine(std::span<const OptionSpec> specs,
                                                    std::span<const std::string> args,
                                                    OperandMode mode) {
  StatusOr<ParsedCommandLine> parsed = ParseOptions(specs, args, mode);
  if (!parsed.ok()) return parsed.status();
  GPUSCOPE_RETURN_IF_ERROR(ApplyOptions(*parsed));
  return std::move(parsed->operands);
}

StatusOr<std::vector<std::string>> ParseReportsCommandLine(std::span<const OptionSpec> specs,
                                                           std::span<const std::string> args,
                                                           const bool& help) {
  StatusOr<std::vector<std::string>> reports =
      ParseCommandLine(specs, args, OperandMode::kInterleaved);
  if (reports.ok() && !help && reports->empty()) return Status::Error("no report given");
  return reports;
}

std::string FormatOptionHelp(std::span<const OptionSpec> specs) {
  // nvprof's --help layout: the spelling on one line, its description indented below, so
  // long value lists ("s|ms|us|ns|auto") never squeeze the descriptions.
  std::string out;
  for (const OptionSpec& spec : specs) {
    out += spec.short_name != 0 ? std::string("  -") + spec.short_name + ", " : "      ";
    out += "--" + std::string(spec.long_name);
    if (!spec.value_name.empty()) out += " <" + std::string(spec.value_name) + ">";
    out += "\n        " + std::string(spec.help) + "\n";
  }
  return out;
}

std::string ShortUsage(std::string_view help, std::string_view command) {
  std::size_t blank = help.find("\n\n");
  std::string out(help.substr(0, blank == std::string_view::npos ? help.size() : blank + 1));
  out += "Try 'gpuscope " + std::string(command) + (command.empty() ? "" : " ") + "--help'.\n";
  return out;
}

}  // namespace gpuscope::cli
