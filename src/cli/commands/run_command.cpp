#include "cli/commands/run_command.h"

#include <iostream>

#include "cli/cuda_probe.h"
#include "cli/launch/manifest_file.h"
#include "cli/launch/program_outcome.h"
#include "cli/launch/run_preparation.h"
#include "cli/launch/traced_program.h"
#include "cli/options/command_prologue.h"
#include "cli/options/option_parser.h"
#include "cli/options/run_options.h"
#include "cli/output/exit_codes.h"
#include "cli/output/log_output.h"
#include "cli/reports/gpu_metric_listing.h"
#include "cli/reports/process_report_printer.h"
#include "contract/report_path_rules.h"
#include "util/path_pattern.h"

namespace gpuscope::cli {
namespace {

// The log named by --log-file, expanded with the program's pid; stderr if that fails (the
// pattern was checked before the start, so only a race or a name with the pid that was
// taken already can get here).
std::unique_ptr<LogOutput> OpenLog(const RunOptions& options, const TracedProgram& program) {
  const pid_t program_pid = program.pid();
  PatternContext context = CurrentProcessPatternContext();
  context.pid = static_cast<unsigned>(program_pid);
  StatusOr<LogTarget> target = ResolveLogTarget(options.log_file, context);
  std::vector<std::string> inputs = {program.executable()};
  StatusOr<std::string> report =
      contract::ExpandReportPath(program.report_pattern(), context, /*is_root=*/true);
  if (report.ok()) inputs.push_back(report.value());
  StatusOr<std::unique_ptr<LogOutput>> log =
      target.ok() ? LogOutput::Open(target.value(), inputs, options.traced.force_overwrite)
                  : StatusOr<std::unique_ptr<LogOutput>>(target.status());
  if (log.ok()) return std::move(log.value());
  std::unique_ptr<LogOutput> fallback = LogOutput::Stderr();
  fallback->Line(program_pid, "Warning: " + log.status().message() + "; writing to stderr");
  return fallback;
}

// After the program ended: one block per report in the manifest, or why there is none.
void ReportProcesses(const RunOptions& options, const StatusOr<Manifest>& manifest, pid_t root_pid,
                     const std::string& working_directory, LogOutput& log) {
  if (!manifest.ok()) {
    log.Line(root_pid, "Error: " + manifest.status().message());
    return;
  }
  for (const std::string& line : manifest->malformed_lines) {
    log.Line(root_pid,
             "Warning: a traced process left an unreadable manifest line (it may have "
             "been killed while registering its report): '" +
                 line + "'");
  }
  if (manifest->entries.empty()) {
    std::string reason = ExplainMissingCudaActivity();
    if (!options.follow_children) reason += " (child processes were not traced)";
    log.Line(root_pid, "gpuscope: no CUDA activity was recorded: " + reason);
    return;
  }
  std::string command_line = CommandLineText(options.program);
  for (const ManifestEntry& entry : manifest->entries) {
    PrintProcessReport(entry, options, command_line, working_directory, log);
  }
}

}  // namespace

int RunCommand(std::span<const std::string> args) {
  StatusOr<RunOptions> parsed = ParseRunOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, RunUsage(), "run", CommandError)) {
    return *exit_code;
  }
  const RunOptions& options = parsed.value();
  if (options.list_gpu_metrics) {
    Status listed = PrintGpuMetricSets(std::cout, options.gpu_metrics_chip);
    if (listed.ok()) return kExitOk;
    CommandError(listed.message());
    return kExitGpuscopeFailure;
  }

  std::string working_directory = CurrentWorkingDirectory();
  TracedProgram program;
  PreparationFailure failure;
  if (!program.Start(options, working_directory, failure)) {
    CommandError(failure.message);
    return failure.exit_code;
  }
  const pid_t pid = program.pid();
  std::unique_ptr<LogOutput> log = OpenLog(options, program);
  for (const std::string& warning : program.warnings()) log->Line(pid, warning);
  // The injection library prints the "gpuscope is profiling process" banner from inside
  // each traced process (children included), as nvprof did. Output sent to a log file keeps
  // the program's stderr clean (GPUSCOPE_QUIET), so the banner of the root goes to the log.
  if (options.log_file.has_value() && !options.traced.quiet) {
    log->Line(pid, "gpuscope is profiling process " + std::to_string(pid) +
                       ", command: " + CommandLineText(options.program));
  }

  ProgramOutcome outcome = program.Wait();
  if (std::string ending = DescribeOutcome(outcome); !ending.empty()) log->Line(pid, ending);
  ReportProcesses(options, program.TakeManifest(), pid, working_directory, *log);
  // Puts a --log-file in place: nothing runs after EndLikeTheProgram's signal.
  if (Status closed = log->Close(); !closed.ok()) CommandError(closed.message());
  log.reset();
  EndLikeTheProgram(outcome);
  return ExitCodeFor(outcome);
}

}  // namespace gpuscope::cli
