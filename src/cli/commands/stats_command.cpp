#include "cli/commands/stats_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "analysis/collection_warnings.h"
#include "analysis/trace_rules/run_trace_rules.h"
#include "analysis/value_range.h"
#include "cli/options/command_prologue.h"
#include "cli/options/option_parser.h"
#include "cli/options/stats_options.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"
#include "cli/reports/distinct_reports.h"
#include "cli/reports/nvprof_output.h"
#include "cli/reports/profile_output.h"
#include "cli/reports/report_preparation.h"
#include "cli/reports/source_output.h"
#include "render/escaping.h"
#include "render/stats_report.h"
#include "render/trace_findings_format.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

// JSON has one shape however many tables: an object keyed by table name, {"name": [rows],
// ...} (concatenated documents would not parse, and a shape that changed with the number of
// tables would break scripts when a table is added).
Status WriteJsonTables(const std::vector<std::string>& names, const analysis::Reports& reports,
                       std::ostream& out) {
  out << "{\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::ostringstream table;
    GPUSCOPE_RETURN_IF_ERROR(
        render::WriteStatsReport(names[i], reports, render::StatsFormat::kJson, table));
    std::string text = table.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    out << "\"" << names[i] << "\": " << text << (i + 1 < names.size() ? ",\n" : "\n");
  }
  out << "}\n";
  return {};
}

// `--rules`: each report's findings, one block per process (rules judge one process's
// timeline; aggregating them would hide which process has the problem).
Status WriteFindings(const StatsOptions& options, const analysis::Reports& reports,
                     std::ostream& out) {
  bool csv = options.format == render::StatsFormat::kCsv;
  bool first = true;
  for (const store::ReportReader* reader : reports) {
    analysis::ImpossibleValueCounts impossible;
    StatusOr<std::vector<analysis::Finding>> findings =
        analysis::trace_rules::RunTraceRules(*reader, &impossible);
    if (!findings.ok()) return findings.status();
    if (std::optional<std::string> warning = analysis::ImpossibleValueWarning(
            impossible, analysis::CheckedValues::kGpuMetricSamples)) {
      std::cerr << "gpuscope: warning: " << reader->path() << ": " << *warning << '\n';
    }
    if (!first) out << '\n';
    first = false;
    if (csv) {
      render::WriteTraceFindingsCsv(findings.value(), reader->process().start, out);
    } else if (findings->empty()) {
      out << "==" << reader->process().pid << "== Findings: none (no trace rule fired)\n";
    } else {
      render::WriteTraceFindings(findings.value(), reader->process().pid, reader->process().start,
                                 out);
    }
  }
  return {};
}

Status WriteStats(const StatsOptions& options, const analysis::Reports& reports,
                  std::ostream& out) {
  if (options.rules) return WriteFindings(options, reports, out);
  if (options.report_names.empty()) {
    return WriteNvprofOutput(reports, options.print, options.output, out);
  }
  if (options.format == render::StatsFormat::kJson) {
    return WriteJsonTables(options.report_names, reports, out);
  }
  bool first = true;
  bool named = options.report_names.size() > 1;
  for (const std::string& name : options.report_names) {
    // Column tables carry their own title and trailing blank line (nsys's layout). Several
    // CSV tables are split by a blank line and each starts with "# <name>", so that
    // scripts know which is which; one table is plain CSV.
    if (options.format == render::StatsFormat::kCsv) {
      if (!first) out << '\n';
      if (named) out << "# " << name << '\n';
    }
    first = false;
    GPUSCOPE_RETURN_IF_ERROR(render::WriteStatsReport(name, reports, options.format, out));
  }
  return {};
}

// `--page details|raw`: what `gpuscope profile` printed, read back (evaluating counter data
// that was never evaluated, e.g. of a program that was killed).
int PrintProfilePages(const StatsOptions& options) {
  ProfileOutputOptions output;
  output.csv = options.format == render::StatsFormat::kCsv;
  output.page = *options.page == "raw" ? ProfilePage::kRaw : ProfilePage::kDetails;
  output.summary = options.per_kernel_summary ? ProfileSummary::kPerKernel : ProfileSummary::kNone;
  StatusOr<KernelFilterSpec> filter = ToKernelFilterSpec(options.filter);
  if (!filter.ok()) {
    CommandError(filter.status().message());
    return kExitUsage;
  }
  output.filter = std::move(*filter);
  output.sections = options.sections;
  output.metrics = options.metrics;
  // Counter data never evaluated (a killed program, a report copied from the GPU machine) is
  // evaluated and stored first; its problems are warnings after the pages.
  std::vector<std::string> problems;
  for (const std::string& path : options.report_paths) {
    StatusOr<evaluate::EvaluationSummary> evaluated = EvaluateBeforeReading(path);
    if (!evaluated.ok()) {
      CommandError(evaluated.status().message());
      return kExitGpuscopeFailure;
    }
    problems.insert(problems.end(), evaluated->problems.begin(), evaluated->problems.end());
    if (!evaluated->not_stored.empty()) {
      problems.push_back(render::TerminalText(evaluated->not_stored));
    }
  }
  StatusOr<ProfileOutputResult> printed = PrintProfiles(std::cout, options.report_paths, output);
  std::cout.flush();
  if (!printed.ok()) {
    CommandError(printed.status().message());
    return kExitGpuscopeFailure;
  }
  for (const std::string& problem : problems) {
    std::cerr << "gpuscope: warning: " << problem << '\n';
  }
  for (const std::string& warning : printed->warnings) {
    std::cerr << "gpuscope: warning: " << warning << '\n';
  }
  if (printed->profiled == 0) {
    CommandError("no profiled kernels in the report(s): they were written by `gpuscope run`, "
                 "or no launch matched the filter of `gpuscope profile`");
    return kExitGpuscopeFailure;
  }
  if (printed->selected == 0) {
    std::string names;
    for (const std::string& name : printed->profiled_names) {
      names += (names.empty() ? "" : ", ") + name;
    }
    CommandError("no profiled kernel matches the filters (" + std::to_string(printed->profiled) +
                 " profiled: " + names + ")");
    return kExitGpuscopeFailure;
  }
  return kExitOk;
}

}  // namespace

int StatsCommand(std::span<const std::string> args) {
  StatusOr<StatsOptions> parsed = ParseStatsOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, StatsUsage(), "stats", CommandError)) {
    return *exit_code;
  }
  StatsOptions options = std::move(parsed.value());
  DistinctReports distinct = DropRepeatedReports(options.report_paths);
  for (const std::string& note : distinct.notes) std::cerr << "gpuscope: warning: " << note << '\n';
  options.report_paths = std::move(distinct.paths);
  if (options.page == "source") {
    SourceOutputOptions source;
    source.report_paths = options.report_paths;
    source.filter = options.filter;
    source.page = options.source_page;
    source.csv = options.format == render::StatsFormat::kCsv;
    return PrintSourcePages(source);
  }
  if (options.page) return PrintProfilePages(options);

  // Every report is opened before anything is printed, so a bad one among several gives
  // one error line and no partial output.
  std::vector<std::unique_ptr<store::ReportReader>> readers;
  analysis::Reports reports;
  for (const std::string& path : options.report_paths) {
    StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
    if (!reader.ok()) {
      CommandError(NamingPath(reader.status().message(), path));
      return kExitGpuscopeFailure;
    }
    readers.push_back(std::move(reader.value()));
    reports.push_back(readers.back().get());
  }
  // Losses recorded in a report are shown with the numbers they affect.
  for (const auto& reader : readers) {
    for (const std::string& warning : analysis::CollectionWarnings(*reader)) {
      std::cerr << "gpuscope: warning: " << reader->path() << ": " << warning << '\n';
    }
  }
  // Built whole before anything reaches stdout: a table that fails after others were
  // written must leave the error alone, not a truncated document (stats output is small).
  std::ostringstream output;
  Status written = WriteStats(options, reports, output);
  if (!written.ok()) {
    CommandError(written.message());
    return kExitGpuscopeFailure;
  }
  std::cout << output.str();
  std::cout.flush();
  for (const auto& reader : readers) {
    for (const std::string& warning : analysis::SkippedRowWarnings(*reader)) {
      std::cerr << "gpuscope: warning: " << reader->path() << ": " << warning << '\n';
    }
  }
  return kExitOk;
}

}  // namespace gpuscope::cli
