#include "cli/commands/rules_command.h"

#include <iostream>

#include "analysis/ranks/rank_rules.h"
#include "analysis/rules/rule_registry.h"
#include "analysis/trace_rules/trace_rule_catalog.h"
#include "cli/options/command_prologue.h"
#include "cli/options/format_option.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "render/escaping.h"
#include "render/word_wrap.h"

namespace gpuscope::cli {
namespace {

struct RulesOptions {
  bool csv = false;
  bool help = false;
};

std::vector<OptionSpec> RulesOptionSpecs(RulesOptions& options) {
  return {
      // Listing is all the command does: the option is accepted for ncu's habit of asking.
      {"list", 'l', "", "list the rules (the default)",
       [](const ParsedOption&) { return Status(); }},
      FormatOption(options.csv),
      CsvOption(options.csv),
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<RulesOptions> ParseRulesOptions(std::span<const std::string> args) {
  RulesOptions options;
  const std::vector<OptionSpec> specs = RulesOptionSpecs(options);
  StatusOr<ParsedCommandLine> parsed = ParseOptions(specs, args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  // A stray word is named before any option's value is judged.
  if (!parsed->operands.empty()) {
    return Status::Error("unexpected argument '" + parsed->operands.front() + "'");
  }
  GPUSCOPE_RETURN_IF_ERROR(ApplyOptions(*parsed));
  return options;
}

// "TRACE  idle_gaps" and the rule's checks and fix, wrapped.
void PrintDescriptions(std::string_view tag,
                       std::span<const analysis::trace_rules::TraceRuleDescription> rules) {
  for (const analysis::trace_rules::TraceRuleDescription& rule : rules) {
    std::cout << tag << "  " << rule.id << '\n';
    for (const std::string& line : render::WrapWords("Checks: " + std::string(rule.checks), 94)) {
      std::cout << "     " << line << '\n';
    }
    for (const std::string& line : render::WrapWords("Fix: " + std::string(rule.fix), 94)) {
      std::cout << "     " << line << '\n';
    }
    std::cout << '\n';
  }
}

}  // namespace

std::string RulesUsage() {
  RulesOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope rules [--list] [--format column|csv | --csv]\n"
         "\n"
         "Lists the rules that `gpuscope profile` and `gpuscope stats --page details` run on each\n"
         "measured kernel, then the seven trace rules of `gpuscope run` and `stats --rules`,\n"
         "then the three rank rules of `gpuscope ranks`. Kernel rules: the section each prints\n"
         "after, its severity (OPT: an optimisation with an estimated speedup, INF:\n"
         "information, WRN: a warning), what it checks, and the formula of its estimated\n"
         "speedup.\n"
         "\n" +
         FormatOptionHelp(RulesOptionSpecs(described));
}

int RulesCommand(std::span<const std::string> args) {
  StatusOr<RulesOptions> parsed = ParseRulesOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, RulesUsage(), "rules", CommandError)) {
    return *exit_code;
  }
  const std::vector<analysis::rules::Rule>& rules = analysis::rules::AllRules();
  if (parsed->csv) {
    std::cout << "\"Rule\",\"Section\",\"Severity\",\"Checks\",\"Estimated Speedup\"\n";
    for (const analysis::rules::Rule& rule : rules) {
      std::cout << render::CsvQuoted(rule.id) << ',' << render::CsvQuoted(rule.section) << ','
                << render::CsvQuoted(analysis::SeverityName(rule.severity)) << ','
                << render::CsvQuoted(rule.checks) << ',' << render::CsvQuoted(rule.speedup_formula)
                << '\n';
    }
    // Trace rules belong to no section and estimate no speedup: they say what to change.
    for (const analysis::trace_rules::TraceRuleDescription& rule :
         analysis::trace_rules::TraceRuleCatalog()) {
      std::cout << render::CsvQuoted(rule.id) << ",\"trace\",\"\","
                << render::CsvQuoted(rule.checks) << ',' << render::CsvQuoted(rule.fix) << '\n';
    }
    // Rank rules judge the reports of a multi-rank job together (gpuscope ranks).
    for (const analysis::trace_rules::TraceRuleDescription& rule :
         analysis::ranks::RankRuleCatalog()) {
      std::cout << render::CsvQuoted(rule.id) << ",\"ranks\",\"\","
                << render::CsvQuoted(rule.checks) << ',' << render::CsvQuoted(rule.fix) << '\n';
    }
    return kExitOk;
  }
  for (const analysis::rules::Rule& rule : rules) {
    std::cout << analysis::SeverityName(rule.severity) << "  " << rule.id << "  (section "
              << rule.section << ")\n";
    for (const std::string& line : render::WrapWords("Checks: " + rule.checks, 94)) {
      std::cout << "     " << line << '\n';
    }
    if (!rule.speedup_formula.empty()) {
      for (const std::string& line :
           render::WrapWords("Est. speedup: " + rule.speedup_formula, 94)) {
        std::cout << "     " << line << '\n';
      }
    }
    std::cout << '\n';
  }
  std::cout
      << "Trace rules (after gpuscope run, and gpuscope stats --rules; no replay needed):\n\n";
  PrintDescriptions("TRACE", analysis::trace_rules::TraceRuleCatalog());
  std::cout << "Rank rules (gpuscope ranks, over the reports of a multi-rank job):\n\n";
  PrintDescriptions("RANKS", analysis::ranks::RankRuleCatalog());
  return kExitOk;
}

}  // namespace gpuscope::cli
