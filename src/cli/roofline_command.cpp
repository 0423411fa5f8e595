#include "cli/roofline_command.h"

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analysis/metrics/profile_loader.h"
#include "analysis/roofline/roofline.h"
#include "cli/command_error.h"
#include "cli/command_prologue.h"
#include "cli/exit_codes.h"
#include "cli/format_option.h"
#include "cli/option_parser.h"
#include "cli/output_file.h"
#include "render/roofline_format.h"
#include "render/roofline_svg.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

enum RooflineOptionId { kFormat, kCsv, kOutput, kSvg, kForceOverwrite, kHelp };

constexpr OptionSpec kRooflineOptions[] = {
    FormatOption(kFormat, "column|csv"),
    {kCsv, "csv", 0, "", "write CSV (one row per kernel, unscaled values) instead of text"},
    {kOutput, "output", 'o', "FILE", "also write the roofline chart of all kernels to FILE (SVG)"},
    {kSvg, "svg", 0, "FILE", "the same as --output"},
    {kForceOverwrite, "force-overwrite", 'f', "",
     "replace an existing FILE (never a report or an input)"},
    {kHelp, "help", 'h', "", "show this help"},
};

struct RooflineOptions {
  bool csv = false;
  std::string svg_path;
  bool force_overwrite = false;
  std::vector<std::string> reports;
  bool help = false;
};

StatusOr<RooflineOptions> ParseRooflineOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(kRooflineOptions, args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  RooflineOptions options;
  for (const ParsedOption& option : parsed->options) {
    switch (static_cast<RooflineOptionId>(option.id)) {
      case kFormat: {
        StatusOr<OutputFormat> format = ParseFormatOption(option.value, kColumnAndCsv);
        if (!format.ok()) return format.status();
        options.csv = *format == OutputFormat::kCsv;
        break;
      }
      case kCsv:
        options.csv = true;
        break;
      case kOutput:
      case kSvg:
        if (option.value.empty()) {
          return Status::Error("option '" + option.spelling + "' needs a file name");
        }
        options.svg_path = option.value;
        break;
      case kForceOverwrite:
        options.force_overwrite = true;
        break;
      case kHelp:
        options.help = true;
        break;
    }
  }
  if (options.help) return options;
  options.reports = parsed->operands;
  if (options.reports.empty()) return Status::Error("no report given");
  return options;
}

}  // namespace

int RooflineCommand(std::span<const std::string> args) {
  StatusOr<RooflineOptions> parsed = ParseRooflineOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, RooflineUsage(), "roofline", CommandError)) {
    return *exit_code;
  }
  const RooflineOptions& options = parsed.value();
  // Claimed before the reports are read: a path that must not be written costs no work.
  std::unique_ptr<OutputFile> svg;
  if (!options.svg_path.empty()) {
    StatusOr<std::unique_ptr<OutputFile>> created = OutputFile::Create(
        OutputClaim(options.svg_path, "the SVG", options.reports, options.force_overwrite));
    if (!created.ok()) {
      CommandError(created.status().message());
      return kExitGpuscopeFailure;
    }
    svg = std::move(created.value());
  }

  // Everything is read before anything is printed: one bad report, one error line.
  std::vector<analysis::roofline::RooflineResult> results;
  std::vector<std::string> impossible_values;  // "<report>: <why>", one per report
  bool unevaluated = false;
  for (const std::string& path : options.reports) {
    StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
    if (!reader.ok()) {
      CommandError(NamingPath(reader.status().message(), path));
      return kExitGpuscopeFailure;
    }
    StatusOr<std::vector<analysis::metrics::KernelProfile>> profiles =
        analysis::metrics::LoadKernelProfiles(**reader);
    if (!profiles.ok()) {
      CommandError(NamingPath(profiles.status().message(), path));
      return kExitGpuscopeFailure;
    }
    for (const analysis::metrics::KernelProfile& profile : *profiles) {
      if (profile.measured && !profile.Evaluated()) unevaluated = true;
      results.push_back(analysis::roofline::ComputeRoofline(profile));
    }
    if (std::optional<std::string> impossible =
            analysis::metrics::ImpossibleValueWarning(*profiles)) {
      impossible_values.push_back(path + ": " + *impossible);
    }
  }
  if (results.empty()) {
    CommandError(
        "no profiled kernels in the report(s): write them with `gpuscope profile "
        "--set full` (or --section SpeedOfLight_RooflineChart)");
    return kExitGpuscopeFailure;
  }
  if (unevaluated) {
    std::cerr << "gpuscope: warning: some kernels' counter data was never evaluated; run "
                 "`gpuscope stats --page details` on the report once to evaluate it\n";
  }
  for (const std::string& warning : impossible_values) {
    std::cerr << "gpuscope: warning: " << warning << '\n';
  }
  if (svg) {
    svg->stream() << render::RooflineSvg(results);
    Status written = svg->Commit();
    if (!written.ok()) {
      CommandError(written.message());
      return kExitGpuscopeFailure;
    }
  }
  if (options.csv) {
    render::WriteRooflineCsv(results, std::cout);
  } else {
    std::cout << "Roofline (verdict: a unit above " << analysis::roofline::kBusyUnitThresholdPct
              << "% of its peak bounds the kernel; none: latency-bound)\n\n";
    for (const analysis::roofline::RooflineResult& result : results) {
      render::WriteRooflineText(result, std::cout);
    }
  }
  std::cout.flush();
  return kExitOk;
}

std::string RooflineUsage() {
  return "Usage: gpuscope roofline [--format column|csv | --csv] [-o FILE.svg [-f]] REPORT...\n"
         "\n"
         "Prints the roofline of every kernel profiled in the reports (gpuscope profile\n"
         "--set full): achieved FLOP/s per precision (FP64, FP32, FP16; tensor pipe use),\n"
         "bytes, bandwidth and arithmetic intensity at DRAM, L2 and L1, the device's roofs,\n"
         "and a verdict: memory-bound, compute-bound or latency-bound (no unit above 60% of\n"
         "its peak), with the headroom to the roof. -o (or --svg) draws the log-log chart; an existing\n"
         "FILE is replaced only with -f, and never when it is one of the REPORTs or any other\n"
         "gpuscope report. No GPU is needed.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(kRooflineOptions);
}

}  // namespace gpuscope::cli
