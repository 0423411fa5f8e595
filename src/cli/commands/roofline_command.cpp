#include "cli/commands/roofline_command.h"

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analysis/metrics/profile_loader.h"
#include "analysis/roofline/roofline.h"
#include "cli/options/command_prologue.h"
#include "cli/options/format_option.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"
#include "cli/output/output_file.h"
#include "render/roofline_format.h"
#include "render/roofline_svg.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

struct RooflineOptions {
  bool csv = false;
  std::string svg_path;
  bool force_overwrite = false;
  std::vector<std::string> reports;
  bool help = false;
};

std::vector<OptionSpec> RooflineOptionSpecs(RooflineOptions& options) {
  return {
      FormatOption(options.csv),
      {"csv", 0, "", "write CSV (one row per kernel, unscaled values) instead of text",
       SetFlag(options.csv)},
      {"output", 'o', "FILE", "also write the roofline chart of all kernels to FILE (SVG)",
       StoreNonEmptyText(options.svg_path, "a file name")},
      {"svg", 0, "FILE", "the same as --output",
       StoreNonEmptyText(options.svg_path, "a file name")},
      {"force-overwrite", 'f', "", "replace an existing FILE (never a report or an input)",
       SetFlag(options.force_overwrite)},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<RooflineOptions> ParseRooflineOptions(std::span<const std::string> args) {
  RooflineOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(RooflineOptionSpecs(options), args, options.help);
  if (!reports.ok()) return reports.status();
  options.reports = std::move(*reports);
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
  RooflineOptions described;  // the declarations need fields to name; none is filled
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
         FormatOptionHelp(RooflineOptionSpecs(described));
}

}  // namespace gpuscope::cli
