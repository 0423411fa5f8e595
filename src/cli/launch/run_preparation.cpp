#include "cli/launch/run_preparation.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "cli/command_suggestion.h"
#include "cli/launch/child_environment.h"
#include "cli/launch/install_paths.h"
#include "cli/launch/manifest_file.h"
#include "cli/launch/program_resolver.h"
#include "cli/output/exit_codes.h"
#include "cli/output/output_claim.h"
#include "cli/output/output_path_checks.h"
#include "contract/environment_variables.h"
#include "contract/report_path_rules.h"
#include "util/path_pattern.h"

namespace gpuscope::cli {
namespace {

bool Fail(PreparationFailure& failure, int exit_code, std::string message) {
  failure = {exit_code, std::move(message)};
  return false;
}

StatusOr<std::string> LocateInjectionLibrary() {
  StatusOr<std::string> executable_dir = ExecutableDirectory();
  if (!executable_dir.ok()) return executable_dir.status();
  return FindInjectionLibrary(std::getenv(contract::kInjectionLibraryVariable),
                              executable_dir.value());
}

}  // namespace

std::string CurrentWorkingDirectory() {
  char buffer[PATH_MAX] = {};
  return getcwd(buffer, sizeof(buffer)) != nullptr ? std::string(buffer) : std::string(".");
}

std::string CommandLineText(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& word : words) {
    if (!line.empty()) line += ' ';
    line += word;
  }
  return line;
}

bool PrepareRun(const RunOptions& options, const std::string& working_directory,
                RunPreparation& preparation, PreparationFailure& failure,
                const contract::ProfileRequest& profile) {
  const std::string& name = options.program.at(0);
  ResolvedProgram program = ResolveProgramFromEnvironment(name);
  // `gpuscope run r.sqlite`: a report where the program belongs is said to be one (as the short
  // form says), not "not executable" or exec'd.
  if (program.problem != ProgramProblem::kNotFound && IsSqliteFile(program.path)) {
    return Fail(failure, kExitUsage, ReportIsNoProgramError(name));
  }
  if (program.problem != ProgramProblem::kNone) {
    return Fail(failure, kExitProgramNotFound, DescribeProgramProblem(name, program.problem));
  }

  PatternContext stand_in = CurrentProcessPatternContext();
  StatusOr<std::string> report_pattern =
      PrepareReportPattern(options.traced.report_pattern, options.traced.force_overwrite, stand_in,
                           working_directory, {program.path});
  if (!report_pattern.ok()) {
    return Fail(failure, kExitGpuscopeFailure, report_pattern.status().message());
  }
  if (options.log_file.has_value()) {
    Status log_ok = CheckLogFilePattern(*options.log_file, stand_in, options.traced.force_overwrite,
                                        {program.path});
    if (!log_ok.ok()) return Fail(failure, kExitGpuscopeFailure, log_ok.message());
    // Both expanded with the same stand-in pid, so that "-o r_%p.sqlite --log-file
    // r_%p.sqlite" is caught too.
    StatusOr<std::string> report =
        contract::ExpandReportPath(report_pattern.value(), stand_in, /*is_root=*/true);
    StatusOr<std::string> log = ExpandPathPattern(*options.log_file, stand_in);
    if (report.ok() && log.ok() && SameFile(report.value(), log.value())) {
      return Fail(failure, kExitGpuscopeFailure,
                  "--log-file " + *options.log_file +
                      " names the report's file (-o); not overwriting the report with the log");
    }
  }

  StatusOr<std::string> library = LocateInjectionLibrary();
  if (!library.ok()) return Fail(failure, kExitGpuscopeFailure, library.status().message());
  std::string cupti_dir = CuptiDirectory(std::getenv(contract::kCuptiDirVariable));
  if (!CuptiLibraryPresent(cupti_dir)) {
    preparation.warnings.push_back(std::string("Warning: ") + kCuptiLibraryName +
                                   " was not found in " + cupti_dir +
                                   "; NVTX ranges and tracing may fail (set " +
                                   contract::kCuptiDirVariable + " to the directory holding it)");
  }

  // Created last: nothing after this can fail, so no failure path leaves it behind.
  StatusOr<std::string> manifest = CreateManifestFile();
  if (!manifest.ok()) return Fail(failure, kExitGpuscopeFailure, manifest.status().message());
  preparation.manifest_path = manifest.value();

  ChildEnvironmentSettings settings;
  settings.injection_library = library.value();
  settings.cupti_dir = cupti_dir;
  contract::TraceRequest& tracing = settings.tracing;
  tracing.report_pattern = report_pattern.value();
  tracing.manifest_path = preparation.manifest_path;
  tracing.follow_children = options.follow_children;
  tracing.force_overwrite = options.traced.force_overwrite;
  tracing.report_permissions = options.traced.report_permissions;
  tracing.profile_from_start = options.profile_from_start;
  tracing.trace = options.trace;
  tracing.backtrace = options.traced.backtrace;
  // With --log-file the user asked for gpuscope's lines in the log, not on the program's
  // stderr; the launcher writes the banner there itself.
  tracing.quiet = options.traced.quiet || options.log_file.has_value();
  settings.gpu_metrics = {.set_name = options.gpu_metrics_set,
                          .frequency_hz = options.gpu_metrics_frequency_hz};
  settings.profile = profile;
  settings.jit_line_info = options.jit_line_info;
  if (options.jit_line_info) {
    settings.python_hook_dir = PythonHookDirectory(library.value());
    if (settings.python_hook_dir.empty()) {
      preparation.warnings.push_back(
          std::string("Warning: gpuscope's Python start-up hook (") +
          contract::kPythonHookDirectoryName + "/sitecustomize.py next to " +
          library.value() + ") is missing: Numba kernels get source lines only with "
          "@cuda.jit(lineinfo=True)");
    }
  }
  preparation.request.executable = program.path;
  preparation.report_pattern = report_pattern.value();
  preparation.request.argv = options.program;
  preparation.request.environment = BuildChildEnvironment(CurrentEnvironment(), settings);
  return true;
}

}  // namespace gpuscope::cli
