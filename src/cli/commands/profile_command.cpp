#include "cli/commands/profile_command.h"

#include <cstdio>
#include <cstdlib>  // mkdtemp
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "cli/launch/manifest_file.h"
#include "cli/launch/profile_request.h"
#include "cli/launch/program_outcome.h"
#include "cli/launch/run_preparation.h"
#include "cli/launch/traced_program.h"
#include "cli/options/command_prologue.h"
#include "cli/options/profile_options.h"
#include "cli/output/exit_codes.h"
#include "cli/output/step_timer.h"
#include "cli/output/temp_dir.h"
#include "cli/reports/metric_query.h"
#include "cli/reports/profile_output.h"
#include "cli/reports/report_preparation.h"
#include "contract/profile_request.h"
#include "evaluate/report_evaluation.h"
#include "render/section_listing.h"
#include "store/report_reader.h"
#include "util/comma_list.h"
#include "util/demangle.h"

namespace gpuscope::cli {
namespace {

// gpuscope's own progress lines, apart from the program's output (ncu's "==PROF=="); errors
// are CommandError's, as in every command.
void Say(std::string_view message) { std::cerr << "==PROF== " << message << '\n'; }

// The names of the kernels the reports saw, for the "nothing matched" warning.
std::vector<std::string> SeenKernelNames(const std::vector<std::string>& reports,
                                         NameBase name_base) {
  std::set<std::string> names;
  for (const std::string& path : reports) {
    StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
    if (!report.ok()) continue;
    // A report that cannot be read only shortens the list of names.
    (void)(*report)->ForEachKernel([&](const store::KernelRow& row) {
      std::string mangled(row.record.mangled_name);
      if (name_base == NameBase::kMangled) {
        names.insert(mangled);
      } else if (name_base == NameBase::kDemangled) {
        names.insert(std::string(row.demangled_name));
      } else {
        names.insert(FunctionBaseName(row.demangled_name));
      }
      return names.size() < 50;
    });
  }
  return {names.begin(), names.end()};
}

int ListOrQuery(const ProfileOptions& options) {
  if (options.list_sets || options.list_sections) {
    // Pass counts need the chip's catalog; without one the column says so.
    std::unique_ptr<cupti::host::MetricHost> host;
    if (StatusOr<std::string> chip = ChooseChip(options); chip.ok()) {
      if (auto opened = cupti::host::MetricHost::Open(*chip); opened.ok())
        host = std::move(*opened);
    }
    render::PassCounter passes = nullptr;
    if (host) {
      passes = [&host](const std::vector<std::string>& names) -> std::optional<int> {
        std::vector<std::string> valid;
        for (const std::string& name : names) {
          if (host->CheckMetric(name).ok()) valid.push_back(name);
        }
        StatusOr<std::uint32_t> count = host->CountPasses(valid);
        if (!count.ok()) return std::nullopt;
        return static_cast<int>(*count);
      };
    }
    std::cout << (options.list_sets ? render::FormatSetList(passes)
                                    : render::FormatSectionList(passes));
    return kExitOk;
  }
  StatusOr<std::string> chip = ChooseChip(options);
  if (!chip.ok()) {
    CommandError("--query-metrics needs a chip: " + chip.status().message() +
                 " (give --chip, e.g. --chip gh100)");
    return kExitUsage;
  }
  Status printed = PrintMetricQuery(std::cout, *chip, options.csv);
  if (!printed.ok()) {
    CommandError(printed.message());
    return kExitUsage;
  }
  return kExitOk;
}

// Refuses a request that cannot run (application replay needs one launch and the pass count
// before the start) and says what will be measured. Returns the exit code when the program
// must not start.
std::optional<int> CheckAndAnnounce(const ProfileOptions& options, const ProfileRequestPlan& plan) {
  for (const std::string& note : plan.notes) Say("Warning: " + note);
  // CUPTI keeps one pass counter per profiler object and every Stop advances it, so one run of
  // the program can add a pass to one launch only (measured on the H200: a second launch's
  // SetConfig(pass 0) continued at pass 2).
  if (options.replay_mode == model::ReplayMode::kApplication &&
      options.filter.launch_count != 1u) {
    CommandError(
        "--replay-mode application measures one launch per series of runs: add -c 1 "
        "(and -s N or -k to choose the launch)");
    return kExitUsage;
  }
  if (options.replay_mode == model::ReplayMode::kAppRange && options.filter.launch_count != 1u) {
    CommandError(
        "--replay-mode app-range measures one range per series of runs: add -c 1 "
        "(and -s N to choose the range)");
    return kExitUsage;
  }
  if (contract::RunsPerPass(options.replay_mode) && plan.passes == 0) {
    CommandError("--replay-mode " + std::string(contract::ReplayModeName(options.replay_mode)) +
                 " needs the number of passes before the start: give --chip (no GPU was found "
                 "to ask)");
    return kExitUsage;
  }
  if (!options.traced.quiet) {
    std::string what = std::to_string(plan.metrics.size()) + " metrics";
    if (!plan.section_ids.empty()) {
      what += " in " + std::to_string(plan.section_ids.size()) + " sections";
    }
    const std::string source =
        plan.source_counters ? " + " + std::to_string(ProfileRequestPlan::kSourcePasses) +
                                   " source passes (PC sampling, SASS patching)"
                             : "";
    Say(plan.passes != 0 ? what + " on " + plan.chip + ": " + std::to_string(plan.passes) +
                               " replay passes" + source + " per profiled kernel"
                         : what + " (passes unknown until the program runs)" + source);
  }
  return std::nullopt;
}

// Files that live only as long as the program runs: the config image the CLI built, and
// application replay's directory (the scratch reports of all runs but the last, and the
// counter data kept between runs).
struct ScratchFiles {
  std::string config_file;  // empty: the injection builds the image itself (slower, not wrong)
  std::string replay_dir;   // empty: kernel replay
  void Remove() const {
    if (!config_file.empty()) std::remove(config_file.c_str());
    if (!replay_dir.empty()) std::filesystem::remove_all(replay_dir);
  }
};

// Returns the exit code when the replay directory cannot be created.
std::optional<int> CreateScratchFiles(const ProfileOptions& options, const ProfileRequestPlan& plan,
                                      ScratchFiles& scratch) {
  if (!plan.config_image.empty()) {
    StatusOr<std::string> written = WriteConfigImage(plan);
    if (written.ok()) {
      scratch.config_file = *written;
    } else {
      Say("Warning: " + written.status().message());
    }
  }
  if (contract::RunsPerPass(options.replay_mode)) {
    std::string pattern = TemporaryDirectory() + "/gpuscope-replay-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      scratch.Remove();
      CommandError("cannot create a directory for application replay in " + pattern);
      return kExitGpuscopeFailure;
    }
    scratch.replay_dir = pattern;
  }
  return std::nullopt;
}

// Runs the program: once, or with application replay once per pass, where every run but the
// last writes its report into the scratch directory. `program` is left holding the last run,
// whose reports are kept. Returns the exit code when gpuscope must end here (the program did
// not start, or a run before the last one failed).
std::optional<int> RunProgram(const ProfileOptions& options, const ProfileRequestPlan& plan,
                              const ScratchFiles& scratch, contract::ProfileRequest request,
                              TracedProgram& program, ProgramOutcome& outcome) {
  const bool application = contract::RunsPerPass(options.replay_mode);
  const std::uint32_t runs = application ? plan.passes : 1;
  const std::string working_directory = CurrentWorkingDirectory();
  for (std::uint32_t pass = 0; pass < runs; ++pass) {
    const bool last = pass + 1 == runs;
    RunOptions run;
    run.traced = options.traced;
    if (!last) {
      run.traced.report_pattern =
          scratch.replay_dir + "/pass" + std::to_string(pass) + "_%p.sqlite";
      run.traced.force_overwrite = true;
    }
    // Application replay keeps one image per profiled launch between runs, numbered per
    // process: child processes would write over the root's.
    if (application) run.follow_children = false;
    run.jit_line_info = plan.source_counters;  // line tables from JIT compilers (contract)
    run.program = options.program;
    if (application) {
      request.app_pass = pass;
      request.app_passes = runs;
      request.app_dir = scratch.replay_dir;
      if (!options.traced.quiet) {
        Say("Application replay: run " + std::to_string(pass + 1) + " of " + std::to_string(runs));
      }
    }
    PreparationFailure failure;
    if (!program.Start(run, working_directory, failure, request)) {
      scratch.Remove();
      CommandError(failure.message);
      return failure.exit_code;
    }
    for (const std::string& warning : program.warnings()) Say(warning);
    outcome = program.Wait();
    if (!last) {
      // The scratch reports are not kept; their manifest neither.
      program.DiscardManifest();
      if (ExitCodeFor(outcome) != 0) {
        scratch.Remove();
        CommandError("run " + std::to_string(pass + 1) + " of the application replay ended with " +
                 (DescribeOutcome(outcome).empty() ? std::string("an error")
                                                   : DescribeOutcome(outcome)) +
                 "; the program must run the same way " + std::to_string(runs) + " times");
        EndLikeTheProgram(outcome);
        return ExitCodeFor(outcome);
      }
    }
  }
  return std::nullopt;
}

// How the launches were replayed, kept in the report (meta.profile_replay) and printed with
// its pages, so that numbers read later say what they were measured under.
std::string ReplayInWords(const ProfileOptions& options) {
  if (options.replay_mode == model::ReplayMode::kApplication) {
    return "application replay: the program ran once per pass";
  }
  if (options.replay_mode == model::ReplayMode::kAppRange) {
    const std::string ranges = options.nvtx_include.empty()
                                   ? std::string("cudaProfilerStart/Stop")
                                   : "NVTX " + JoinCommaList(options.nvtx_include);
    return "application range replay: each range (" + ranges +
           ") measured as one result, the program ran once per pass";
  }
  std::string words = options.cache_control == contract::CacheControl::kAll
                          ? "kernel replay, L2 flushed before each pass (--cache-control all)"
                          : "kernel replay, caches not flushed (--cache-control none)";
  return words + (options.replay_no_restore
                      ? ", device memory NOT saved or restored between passes "
                        "(--replay-no-restore: the kernel must leave its inputs unchanged)"
                      : ", device memory restored before each pass");
}

// Finalises (with --backtrace: symbolizes) and evaluates each report the program's processes
// wrote; returns the paths of those evaluated. `written`: how many reports were written.
std::vector<std::string> EvaluateReports(TracedProgram& program, const ProfileOptions& options,
                                         const ProfileRequestPlan& plan, std::size_t& written) {
  std::vector<std::string> reports;
  StatusOr<Manifest> manifest = program.TakeManifest();
  if (!manifest.ok()) {
    CommandError(manifest.status().message());
    return reports;
  }
  written = manifest->entries.size();
  for (const ManifestEntry& entry : manifest->entries) {
    std::vector<std::string> warnings;
    Status finished = FinishAfterRun(entry.report_path, options.traced.backtrace, warnings);
    for (const std::string& warning : warnings) CommandError(warning);
    if (!finished.ok()) {
      CommandError(finished.message());
      Say("Report (not evaluated): " + entry.report_path);
      continue;
    }
    evaluate::ProfileAsk asked;
    asked.request.present = true;
    asked.request.sections = plan.section_ids;
    asked.request.metrics = plan.extra_metrics;
    asked.request.replay = ReplayInWords(options);
    asked.metric_names = plan.metrics;
    StatusOr<evaluate::EvaluationSummary> evaluated =
        EvaluateBeforeReading(entry.report_path, asked);
    if (!evaluated.ok()) {
      // The counter data is in the report: `gpuscope stats --page details` evaluates it again.
      CommandError(evaluated.status().message());
      Say("Report (not evaluated): " + entry.report_path);
      continue;
    }
    for (const std::string& problem : evaluated->problems) CommandError(problem);
    // Its own report, just written, should take them; the pages show them all the same.
    if (!evaluated->not_stored.empty()) CommandError(evaluated->not_stored);
    reports.push_back(entry.report_path);
  }
  return reports;
}

// Nsight Compute's pages of the evaluated reports and their paths, or why there are none.
// False when an error was printed.
bool PrintResults(const ProfileOptions& options, const contract::ProfileRequest& request,
                  const std::vector<std::string>& reports, std::size_t reports_written,
                  StepTimer& timer) {
  if (reports.empty()) {
    if (reports_written == 0) {
      CommandError("no report was written: the program made no CUDA call that gpuscope saw");
      return false;
    }
    return true;
  }
  ProfileOutputOptions output;
  output.csv = options.csv;
  output.page = options.page;
  output.summary = options.print_summary;
  StatusOr<ProfileOutputResult> printed = PrintProfiles(std::cout, reports, output);
  bool ok = printed.ok();
  if (printed.ok()) {
    for (const std::string& warning : printed->warnings) Say("Warning: " + warning);
  }
  if (!printed.ok()) {
    CommandError(printed.status().message());
  } else if (printed->profiled == 0 && options.replay_mode == model::ReplayMode::kAppRange) {
    Say(options.nvtx_include.empty()
            ? "Warning: no range was profiled: the program called no cudaProfilerStart/Stop "
              "pair (or -s skipped them); name NVTX ranges with --nvtx-include"
            : "Warning: no range was profiled: no NVTX range matched --nvtx-include " +
                  JoinCommaList(options.nvtx_include) +
                  " (or -s skipped them; a domain created before CUDA was initialised is "
                  "not known by name)");
  } else if (printed->profiled == 0) {
    std::vector<std::string> seen = SeenKernelNames(reports, request.filter.name_base);
    std::string list;
    for (const std::string& name : seen) list += (list.empty() ? "" : ", ") + name;
    Say("Warning: no kernel was profiled: the filter matched none of the launches" +
        (seen.empty() ? std::string(" (the program launched no kernel)")
                      : " (kernels seen: " + list + ")"));
  }
  for (const std::string& path : reports) Say("Report: " + path);
  timer.Lap("printing");
  return ok;
}

}  // namespace

int ProfileCommand(std::span<const std::string> args) {
  StatusOr<ProfileOptions> parsed = ParseProfileOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, ProfileUsage(), "profile", CommandError)) {
    return *exit_code;
  }
  const ProfileOptions& options = parsed.value();
  if (options.list_sets || options.list_sections || options.query_metrics) {
    return ListOrQuery(options);
  }

  StepTimer timer;
  StatusOr<ProfileRequestPlan> plan = PlanProfile(options);
  timer.Lap("checking the request (chip, metric names, passes)");
  if (!plan.ok()) {
    CommandError(plan.status().message());
    return kExitUsage;
  }
  StatusOr<contract::ProfileRequest> request = InjectionRequest(options, *plan);
  if (!request.ok()) {
    CommandError(request.status().message());
    return kExitUsage;
  }
  if (std::optional<int> refused = CheckAndAnnounce(options, *plan)) return *refused;
  ScratchFiles scratch;
  if (std::optional<int> failed = CreateScratchFiles(options, *plan, scratch)) return *failed;
  if (!scratch.config_file.empty()) {
    request->config_image_file = scratch.config_file;
    request->config_image_chip = plan->chip;
    request->config_image_passes = plan->passes;
  }
  TracedProgram program;
  ProgramOutcome outcome;
  if (std::optional<int> ended = RunProgram(options, *plan, scratch, *request, program, outcome)) {
    return *ended;
  }
  scratch.Remove();
  timer.Lap("the program");
  if (std::string ending = DescribeOutcome(outcome); !ending.empty()) Say(ending);

  std::size_t reports_written = 0;
  std::vector<std::string> reports = EvaluateReports(program, options, *plan, reports_written);
  timer.Lap("finalising and evaluating the reports");
  bool printed = PrintResults(options, *request, reports, reports_written, timer);
  std::cout.flush();
  EndLikeTheProgram(outcome);
  return ExitCodeAfterResults(outcome, !printed);
}

}  // namespace gpuscope::cli
