#include "cli/commands/diff_command.h"

#include <iostream>

#include "analysis/diff/kernel_launches.h"
#include "analysis/diff/report_diff.h"
#include "cli/options/command_prologue.h"
#include "cli/options/format_option.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"
#include "render/diff_format.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

struct DiffOptions {
  OutputFormat format = OutputFormat::kColumn;
  analysis::diff::MatchBy match = analysis::diff::MatchBy::kName;
  bool fail_on_regression = false;
  bool all = false;
  std::string before;
  std::string after;
  bool help = false;
};

std::vector<OptionSpec> DiffOptionSpecs(DiffOptions& options) {
  return {
      FormatOption(options.format),
      CsvOption(options.format),
      {"match", 0, "name|name+config|name+callsite",
       "pair kernels by name (default), by name, grid and block, or by name and --backtrace call "
       "site",
       [&options](const ParsedOption& option) {
         std::optional<analysis::diff::MatchBy> match = analysis::diff::ParseMatchBy(option.value);
         if (!match) {
           return Status::Error(
               "option '--match' expects name, name+config or name+callsite, not '" + option.value +
               "'");
         }
         options.match = *match;
         return Status();
       }},
      {"fail-on", 0, "regression",
       "exit 3 when a kernel's or NVTX range's GPU time got worse beyond noise",
       [&options](const ParsedOption& option) {
         if (option.value != "regression") {
           return Status::Error("option '--fail-on' expects regression, not '" + option.value +
                                "'");
         }
         options.fail_on_regression = true;
         return Status();
       }},
      {"all", 0, "",
       "also list values that changed within noise or not at all (CSV and JSON always do)",
       SetFlag(options.all)},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<DiffOptions> ParseDiffOptions(std::span<const std::string> args) {
  DiffOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseCommandLine(DiffOptionSpecs(options), args, OperandMode::kInterleaved);
  if (!reports.ok()) return reports.status();
  if (options.help) return options;
  if (reports->size() != 2) {
    return Status::Error("expected two reports, BEFORE and AFTER, got " +
                         std::to_string(reports->size()));
  }
  options.before = (*reports)[0];
  options.after = (*reports)[1];
  return options;
}

StatusOr<analysis::diff::ReportKernels> Load(const std::string& path,
                                             analysis::diff::MatchBy match) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  if (!reader.ok()) return Status::Error(NamingPath(reader.status().message(), path));
  StatusOr<analysis::diff::ReportKernels> kernels =
      analysis::diff::LoadReportKernels(**reader, match);
  if (!kernels.ok()) return Status::Error(NamingPath(kernels.status().message(), path));
  return kernels;
}

}  // namespace

int DiffCommand(std::span<const std::string> args) {
  StatusOr<DiffOptions> parsed = ParseDiffOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, DiffUsage(), "diff", CommandError)) {
    return *exit_code;
  }
  const DiffOptions& options = parsed.value();
  StatusOr<analysis::diff::ReportKernels> before = Load(options.before, options.match);
  if (!before.ok()) {
    CommandError(before.status().message());
    return kExitGpuscopeFailure;
  }
  StatusOr<analysis::diff::ReportKernels> after = Load(options.after, options.match);
  if (!after.ok()) {
    CommandError(after.status().message());
    return kExitGpuscopeFailure;
  }
  analysis::diff::ReportDiff diff = analysis::diff::DiffReports(*before, *after);
  switch (options.format) {
    case OutputFormat::kColumn:
      render::WriteDiffText(diff, {.all_rows = options.all}, std::cout);
      break;
    case OutputFormat::kCsv:
      render::WriteDiffCsv(diff, std::cout);
      break;
    case OutputFormat::kJson:
      render::WriteDiffJson(diff, std::cout);
      break;
  }
  std::cout.flush();
  // What each report left out as damaged, after the comparison (as `stats` says it).
  for (const analysis::diff::ReportKernels* report : {&*before, &*after}) {
    for (const std::string& warning : report->warnings) {
      std::cerr << "gpuscope: warning: " << report->path << ": " << warning << '\n';
    }
  }
  if (options.fail_on_regression && diff.regressions > 0) return kExitRegression;
  return kExitOk;
}

std::string DiffUsage() {
  DiffOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope diff [--match name|name+config|name+callsite]\n"
         "                     [--format column|csv|json | --csv]\n"
         "                     [--fail-on regression] [--all] BEFORE AFTER\n"
         "\n"
         "Compares the kernels of two reports (gpuscope run or gpuscope profile), paired by\n"
         "name (a changed grid or block is shown as before -> after), and the GPU time\n"
         "projected per NVTX range: the traced duration and every metric measured in both,\n"
         "the change, whether it is better or worse, and whether it exceeds run-to-run noise\n"
         "(the spread of the kernel's launches or the range's instances in each report;\n"
         "without repeats 2% for measured values, any change for instruction counts).\n"
         "Kernels with the biggest time change come first; kernels and ranges in one report\n"
         "only are listed apart.\n"
         "\n"
         "A regression is a kernel's or range's GPU time that got worse beyond noise. Exit\n"
         "status: 0 compared; 3 with --fail-on regression when there is one (the output\n"
         "names them; --format json gives \"regressions\" and a \"regression\" flag per kernel\n"
         "and range); 1 when a report cannot be read; 2 for a usage error.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(DiffOptionSpecs(described));
}

}  // namespace gpuscope::cli
