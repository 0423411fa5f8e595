#include "cli/reports/process_report_printer.h"

#include <memory>
#include <optional>
#include <string>

#include "analysis/collection_warnings.h"
#include "analysis/trace_rules/run_trace_rules.h"
#include "analysis/value_range.h"
#include "cli/reports/nvprof_output.h"
#include "cli/reports/report_preparation.h"
#include "render/trace_findings_format.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

// The trace rules' findings (nothing when the trace is clean), after the summary.
void WriteFindings(const store::ReportReader& reader, const RunOptions& options, long pid,
                   LogOutput& log) {
  analysis::ImpossibleValueCounts impossible;
  StatusOr<std::vector<analysis::Finding>> findings =
      analysis::trace_rules::RunTraceRules(reader, &impossible);
  if (!findings.ok()) {
    log.Line(pid, "Error: trace rules: " + findings.status().message());
    return;
  }
  if (std::optional<std::string> warning = analysis::ImpossibleValueWarning(
          impossible, analysis::CheckedValues::kGpuMetricSamples)) {
    log.Line(pid, "Warning: " + *warning);
  }
  if (findings->empty()) return;
  log.stream() << '\n';
  if (options.output.csv) {
    log.Line(pid, "Findings:");
    render::WriteTraceFindingsCsv(findings.value(), reader.process().start, log.stream());
  } else {
    render::WriteTraceFindings(findings.value(), pid, reader.process().start, log.stream());
  }
  log.stream().flush();
}

}  // namespace

std::string DisplayPath(std::string_view path, std::string_view working_directory) {
  if (working_directory.empty() || working_directory == "/") return std::string(path);
  std::string prefix = std::string(working_directory) + "/";
  if (path.starts_with(prefix) && path.size() > prefix.size()) {
    return std::string(path.substr(prefix.size()));
  }
  return std::string(path);
}

bool PrintProcessReport(const ManifestEntry& entry, const RunOptions& options,
                        std::string_view fallback_command_line, std::string_view working_directory,
                        LogOutput& log) {
  const long pid = entry.pid;
  std::string shown_path = DisplayPath(entry.report_path, working_directory);
  std::vector<std::string> warnings;
  Status finalized = FinishAfterRun(entry.report_path, options.traced.backtrace, warnings);
  for (const std::string& warning : warnings) log.Line(pid, "Warning: " + warning);
  StatusOr<std::unique_ptr<store::ReportReader>> report =
      store::ReportReader::Open(entry.report_path);
  if (!report.ok()) {
    // The reader's message says what is wrong with the file; the finaliser's would repeat it.
    log.Line(pid, "Error: " + report.status().message());
    return false;
  }
  // Readable but not finalised (another process still has it open, say): say so, go on.
  if (!finalized.ok()) log.Line(pid, "Warning: " + finalized.message());
  const store::ReportReader& reader = *report.value();

  if (!options.traced.quiet) {
    const std::string& recorded = reader.process().command_line;
    log.Line(pid, "Profiling application: " +
                      (recorded.empty() ? std::string(fallback_command_line) : recorded));
    log.Line(pid, "Profiling result:");
    Status printed = WriteNvprofOutput({&reader}, options.print, options.output, log.stream());
    log.stream().flush();
    if (!printed.ok()) log.Line(pid, "Error: " + printed.message());
    if (options.print_rules) WriteFindings(reader, options, pid, log);
  }
  // Losses are printed even with --quiet: nothing recorded is lost silently.
  for (const std::string& warning : analysis::CollectionWarnings(reader)) {
    log.Line(pid, "Warning: " + warning);
  }
  // Rows left out as damaged while printing (store/damaged_rows.h).
  for (const std::string& warning : analysis::SkippedRowWarnings(reader)) {
    log.Line(pid, "Warning: " + warning);
  }
  if (!options.traced.quiet) log.Line(pid, "Report: " + shown_path);
  return true;
}

}  // namespace gpuscope::cli
