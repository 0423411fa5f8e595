#include "cli/process_report_printer.h"

#include <memory>

#include "analysis/collection_warnings.h"
#include "analysis/trace_rules/run_trace_rules.h"
#include "render/api_trace.h"
#include "render/gpu_trace.h"
#include "render/nvprof_summary.h"
#include "render/trace_findings_format.h"
#include "store/report_finalizer.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

// The tables asked for, in nvprof's order: traces first, then the summary. With no print
// option at all, the summary is what nvprof prints. A blank line separates tables.
Status WriteRequestedOutput(const analysis::Reports& reports, const RunOptions& options,
                            std::ostream& out) {
  bool any_trace = options.print_gpu_trace || options.print_api_trace;
  bool any_summary = options.print_gpu_summary || options.print_api_summary;
  bool first = true;
  auto separate = [&] {
    if (!first) out << '\n';
    first = false;
  };
  if (options.print_gpu_trace) {
    separate();
    GPUSCOPE_RETURN_IF_ERROR(render::WriteGpuTrace(reports, options.output, out));
  }
  if (options.print_api_trace) {
    separate();
    GPUSCOPE_RETURN_IF_ERROR(render::WriteApiTrace(reports, options.output, out));
  }
  if (any_summary || !any_trace) {
    separate();
    render::OutputOptions summary = options.output;
    summary.gpu_activities = !any_summary || options.print_gpu_summary;
    summary.api_calls = !any_summary || options.print_api_summary;
    GPUSCOPE_RETURN_IF_ERROR(render::WriteNvprofSummary(reports, summary, out));
  }
  return {};
}

// The trace rules' findings (nothing when the trace is clean), after the summary.
void WriteFindings(const store::ReportReader& reader, const RunOptions& options, long pid,
                   LogOutput& log) {
  StatusOr<std::vector<analysis::Finding>> findings = analysis::trace_rules::RunTraceRules(reader);
  if (!findings.ok()) {
    log.Line(pid, "Error: trace rules: " + findings.status().message());
    return;
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
  Status finalized = store::FinalizeReport(entry.report_path);
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

  if (!options.quiet) {
    const std::string& recorded = reader.process().command_line;
    log.Line(pid, "Profiling application: " +
                      (recorded.empty() ? std::string(fallback_command_line) : recorded));
    log.Line(pid, "Profiling result:");
    Status printed = WriteRequestedOutput({&reader}, options, log.stream());
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
  if (!options.quiet) log.Line(pid, "Report: " + shown_path);
  return true;
}

}  // namespace gpuscope::cli
