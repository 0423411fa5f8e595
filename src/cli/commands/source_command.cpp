#include "cli/commands/source_command.h"

#include "cli/options/command_prologue.h"
#include "cli/options/format_option.h"
#include "cli/options/kernel_filter_options.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/reports/distinct_reports.h"
#include "cli/reports/source_output.h"
#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

struct SourceCommandOptions {
  SourceOutputOptions output;
  bool help = false;
};

// The command's own options, then the kernel filters (shared with `profile`).
std::vector<OptionSpec> SourceOptionSpecs(SourceCommandOptions& options) {
  std::vector<OptionSpec> specs = {
      FormatOption(options.output.csv),
      CsvOption(options.output.csv),
      {"print-source", 0, "sass|cuda|cuda,sass", kPrintSourceHelp,
       StoreParsed(options.output.page.print, ParsePrintSource)},
      {"sort", 0, "COLUMN", kSortHelp,
       StoreParsed(options.output.page.sort_column, ParseSortColumn)},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
  std::vector<OptionSpec> filters = KernelFilterOptionSpecs("print", options.output.filter);
  specs.insert(specs.end(), std::make_move_iterator(filters.begin()),
               std::make_move_iterator(filters.end()));
  return specs;
}

StatusOr<SourceCommandOptions> ParseSourceOptions(std::span<const std::string> args) {
  SourceCommandOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(SourceOptionSpecs(options), args, options.help);
  if (!reports.ok()) return reports.status();
  options.output.report_paths = std::move(*reports);
  return options;
}

}  // namespace

int SourceCommand(std::span<const std::string> args) {
  StatusOr<SourceCommandOptions> parsed = ParseSourceOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, SourceUsage(), "source", CommandError)) {
    return *exit_code;
  }
  SourceOutputOptions options = std::move(parsed.value().output);
  DistinctReports distinct = DropRepeatedReports(options.report_paths);
  for (const std::string& note : distinct.notes) std::cerr << "gpuscope: warning: " << note << '\n';
  options.report_paths = std::move(distinct.paths);
  return PrintSourcePages(options);
}

std::string SourceUsage() {
  SourceCommandOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope source [options] REPORT...\n"
         "\n"
         "Prints Nsight Compute's source page of the kernels profiled with source counters\n"
         "(gpuscope profile --set full, or --section SourceCounters): per SASS instruction\n"
         "and/or source line, instructions executed, L2 sectors and L1 shared wavefronts with\n"
         "their excess over the ideal access pattern, divergent branches and warp stall\n"
         "samples per reason. The first read of a report disassembles its cubins (nvdisasm of\n"
         "the CUDA toolkit, found through " +
         std::string(contract::kNvdisasmVariable) +
         ", PATH, $CUDA_HOME/bin or\n"
         "/usr/local/cuda/bin; without it the page has offsets and lines only) and stores the\n"
         "SASS and lines in the report. Source lines need line information in the code (nvcc\n"
         "-lineinfo). `gpuscope stats --page source` prints the same page. No GPU is needed.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(SourceOptionSpecs(described));
}

}  // namespace gpuscope::cli
