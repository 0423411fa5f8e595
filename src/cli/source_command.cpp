#include "cli/source_command.h"

#include "cli/command_prologue.h"
#include "cli/distinct_reports.h"
#include "cli/format_option.h"
#include "cli/kernel_filter_options.h"
#include "cli/option_parser.h"
#include "cli/source_output.h"

namespace gpuscope::cli {
namespace {

enum SourceOptionId { kFormat, kCsv, kPrintSource, kSort, kHelp };

constexpr OptionSpec kSourceOwnOptions[] = {
    FormatOption(kFormat, "column|csv"),
    CsvOption(kCsv),
    {kPrintSource, "print-source", 0, "sass|cuda|cuda,sass", kPrintSourceHelp},
    {kSort, "sort", 0, "COLUMN", kSortHelp},
    {kHelp, "help", 'h', "", "show this help"},
};

std::span<const OptionSpec> SourceOptionSpecs() {
  static const std::vector<OptionSpec> specs = [] {
    std::vector<OptionSpec> all(std::begin(kSourceOwnOptions), std::end(kSourceOwnOptions));
    std::vector<OptionSpec> filters = KernelFilterOptionSpecs("print");
    all.insert(all.end(), filters.begin(), filters.end());
    return all;
  }();
  return specs;
}

struct SourceCommandOptions {
  SourceOutputOptions output;
  bool help = false;
};

StatusOr<SourceCommandOptions> ParseSourceOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(SourceOptionSpecs(), args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  SourceCommandOptions options;
  for (const ParsedOption& option : parsed->options) {
    StatusOr<bool> filter = ApplyKernelFilterOption(option, options.output.filter);
    if (!filter.ok()) return filter.status();
    if (*filter) continue;
    switch (static_cast<SourceOptionId>(option.id)) {
      case kFormat: {
        StatusOr<OutputFormat> format = ParseFormatOption(option.value, kColumnAndCsv);
        if (!format.ok()) return format.status();
        options.output.csv = *format == OutputFormat::kCsv;
        break;
      }
      case kCsv:
        options.output.csv = true;
        break;
      case kPrintSource: {
        StatusOr<render::SourcePrint> print = ParsePrintSource(option.value);
        if (!print.ok()) return print.status();
        options.output.page.print = *print;
        break;
      }
      case kSort: {
        StatusOr<std::size_t> column = ParseSortColumn(option.value);
        if (!column.ok()) return column.status();
        options.output.page.sort_column = *column;
        break;
      }
      case kHelp:
        options.help = true;
        break;
    }
  }
  if (options.help) return options;
  options.output.report_paths = std::move(parsed->operands);
  if (options.output.report_paths.empty()) return Status::Error("no report given");
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
  return "Usage: gpuscope source [options] REPORT...\n"
         "\n"
         "Prints Nsight Compute's source page of the kernels profiled with source counters\n"
         "(gpuscope profile --set full, or --section SourceCounters): per SASS instruction\n"
         "and/or source line, instructions executed, L2 sectors and L1 shared wavefronts with\n"
         "their excess over the ideal access pattern, divergent branches and warp stall\n"
         "samples per reason. The first read of a report disassembles its cubins (nvdisasm of\n"
         "the CUDA toolkit, found through GPUSCOPE_NVDISASM, PATH, $CUDA_HOME/bin or\n"
         "/usr/local/cuda/bin; without it the page has offsets and lines only) and stores the\n"
         "SASS and lines in the report. Source lines need line information in the code (nvcc\n"
         "-lineinfo). `gpuscope stats --page source` prints the same page. No GPU is needed.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(SourceOptionSpecs());
}

}  // namespace gpuscope::cli
