#include "cli/commands/report_command.h"

#include <charconv>
#include <filesystem>
#include <iostream>

#include "cli/options/align_option.h"
#include "cli/options/command_prologue.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/output/exit_codes.h"
#include "cli/output/output_file.h"
#include "cli/reports/report_preparation.h"
#include "viewer/axis_alignment.h"
#include "viewer/html_report.h"
#include "viewer/viewer_data.h"
#include "viewer/web_assets.h"

namespace gpuscope::cli {
namespace {

struct ReportOptions {
  std::string output;
  bool force_overwrite = false;
  std::uint64_t max_events = viewer::kDefaultEmbedEventLimit;
  viewer::AxisAlignment align;
  bool help = false;
  std::vector<std::string> reports;
};

std::vector<OptionSpec> ReportOptionSpecs(ReportOptions& options) {
  return {
      {"output", 'o', "file.html",
       "the HTML file to write (default <report stem>.html next to the first report)",
       StoreNonEmptyText(options.output, "a path")},
      {"force-overwrite", 'f', "", "replace an existing HTML file (never a report or an input)",
       SetFlag(options.force_overwrite)},
      {"max-events", 0, "N",
       "timeline events embedded per report (default 200000); a larger report is cut in time",
       [&options](const ParsedOption& option) {
         const std::string& text = option.value;
         auto [end, error] =
             std::from_chars(text.data(), text.data() + text.size(), options.max_events);
         if (error != std::errc() || end != text.data() + text.size() || text.empty() ||
             options.max_events == 0) {
           return Status::Error("option '" + option.spelling +
                                "' expects a positive number, not '" + text + "'");
         }
         return Status();
       }},
      AlignOption(options.align),
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<ReportOptions> ParseReportOptions(std::span<const std::string> args) {
  ReportOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(ReportOptionSpecs(options), args, options.help);
  if (!reports.ok()) return reports.status();
  options.reports = std::move(*reports);
  return options;
}

}  // namespace

int ReportCommand(std::span<const std::string> args) {
  StatusOr<ReportOptions> parsed = ParseReportOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, ReportUsage(), "report", CommandError)) {
    return *exit_code;
  }
  const ReportOptions& options = parsed.value();
  // Claimed before anything is read or evaluated: a path that must not be written (one of
  // the reports, say) ends the command before it changes anything.
  StatusOr<std::unique_ptr<OutputFile>> file = OutputFile::Create(OutputClaim(
      options.output.empty()
          ? std::filesystem::path(options.reports[0]).replace_extension(".html").string()
          : options.output,
      "the HTML report", options.reports, options.force_overwrite));
  if (!file.ok()) {
    CommandError(file.status().message());
    return kExitGpuscopeFailure;
  }
  // As `gpuscope view`: counter data never evaluated is evaluated first, so that the kernel
  // pages of profiled kernels have their metrics.
  if (Status evaluated = EvaluateForViewing(options.reports); !evaluated.ok()) {
    CommandError(evaluated.message());
    return kExitGpuscopeFailure;
  }
  StatusOr<std::unique_ptr<viewer::ViewerData>> data = viewer::ViewerData::Open(options.reports);
  if (!data.ok()) {
    CommandError(data.status().message());
    return kExitGpuscopeFailure;
  }
  if (Status aligned = (*data)->SetAlignment(options.align); !aligned.ok()) {
    CommandError(aligned.message());
    return kExitGpuscopeFailure;
  }
  viewer::HtmlReportOptions html_options;
  html_options.max_events_per_report = options.max_events;
  StatusOr<viewer::HtmlReportStats> written =
      viewer::WriteHtmlReport(*data.value(), viewer::WebAssets(), html_options, (*file)->stream());
  if (written.ok()) {
    Status committed = (*file)->Commit();
    if (!committed.ok()) written = committed;
  }
  if (!written.ok()) {
    CommandError(written.status().message());
    return kExitGpuscopeFailure;
  }
  if (written->truncated) {
    std::cerr << "gpuscope: warning: embedded " << written->embedded_events << " of "
              << written->total_events << " events (--max-events " << options.max_events
              << " per report); `gpuscope view` shows them all\n";
  }
  for (const auto& [table, cut] : written->trace_cuts) {
    std::cerr << "gpuscope: warning: embedded the first " << cut.kept << " of " << cut.total
              << " rows of " << table << "; `gpuscope stats -r " << table << "` shows them all\n";
  }
  WrittenNotice(**file) << "gpuscope: wrote " << (*file)->path() << '\n';
  return kExitOk;
}

std::string ReportUsage() {
  ReportOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope report [-o out.html] [-f] [--align starts|absolute|nvtx:NAME] "
         "<report>...\n"
         "\n"
         "Writes one self-contained HTML file with the viewer and the reports' data (inline\n"
         "CSS, JavaScript and JSON): it opens from disk with no server and no network. At most\n"
         "--max-events timeline events per report are embedded (default 200000, about 15 MB),\n"
         "and the first 5000 rows of the GPU and API trace tables; a larger report is cut and\n"
         "the page says so. An existing HTML file is replaced only with -f; a report, or any\n"
         "file the command reads, never.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(ReportOptionSpecs(described));
}

}  // namespace gpuscope::cli
