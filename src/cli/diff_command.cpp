#include "cli/diff_command.h"

#include <iostream>

#include "analysis/diff/kernel_launches.h"
#include "analysis/diff/report_diff.h"
#include "cli/command_prologue.h"
#include "cli/exit_codes.h"
#include "cli/option_parser.h"
#include "render/diff_format.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

enum DiffOptionId { kCsv, kAll, kHelp };

constexpr OptionSpec kDiffOptions[] = {
    {kCsv, "csv", 0, "", "write CSV: one row per compared value, unscaled"},
    {kAll, "all", 0, "", "also list values that changed within noise or not at all"},
    {kHelp, "help", 'h', "", "show this help"},
};

struct DiffOptions {
  bool csv = false;
  bool all = false;
  std::string before;
  std::string after;
  bool help = false;
};

StatusOr<DiffOptions> ParseDiffOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed = ParseOptions(kDiffOptions, args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  DiffOptions options;
  for (const ParsedOption& option : parsed->options) {
    switch (static_cast<DiffOptionId>(option.id)) {
      case kCsv:
        options.csv = true;
        break;
      case kAll:
        options.all = true;
        break;
      case kHelp:
        options.help = true;
        break;
    }
  }
  if (options.help) return options;
  if (parsed->operands.size() != 2) {
    return Status::Error("expected two reports, BEFORE and AFTER, got " +
                         std::to_string(parsed->operands.size()));
  }
  options.before = parsed->operands[0];
  options.after = parsed->operands[1];
  return options;
}

std::string NamingPath(const std::string& message, const std::string& path) {
  return message.find(path) != std::string::npos ? message : path + ": " + message;
}

StatusOr<analysis::diff::ReportKernels> Load(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  if (!reader.ok()) return Status::Error(NamingPath(reader.status().message(), path));
  StatusOr<analysis::diff::ReportKernels> kernels = analysis::diff::LoadReportKernels(**reader);
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
  StatusOr<analysis::diff::ReportKernels> before = Load(options.before);
  if (!before.ok()) {
    CommandError(before.status().message());
    return kExitGpuscopeFailure;
  }
  StatusOr<analysis::diff::ReportKernels> after = Load(options.after);
  if (!after.ok()) {
    CommandError(after.status().message());
    return kExitGpuscopeFailure;
  }
  analysis::diff::ReportDiff diff = analysis::diff::DiffReports(*before, *after);
  if (options.csv) {
    render::WriteDiffCsv(diff, std::cout);
  } else {
    render::WriteDiffText(diff, {.all_rows = options.all}, std::cout);
  }
  std::cout.flush();
  return kExitOk;
}

std::string DiffUsage() {
  return "Usage: gpuscope diff [--csv] [--all] BEFORE AFTER\n"
         "\n"
         "Compares the kernels of two reports (gpuscope run or gpuscope profile), matched by\n"
         "name, grid and block: the traced duration and every metric measured in both, the\n"
         "change, whether it is better or worse, and whether it exceeds run-to-run noise\n"
         "(the spread of the kernel's launches in each report; without repeats 2% for\n"
         "measured values, any change for instruction counts). Kernels with the biggest\n"
         "time change come first; kernels in one report only are listed at the end.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(kDiffOptions);
}

}  // namespace gpuscope::cli
