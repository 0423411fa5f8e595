#include "cli/options/profile_options.h"

#include "cli/options/format_option.h"
#include "cli/options/kernel_filter_options.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/options/traced_run_options.h"
#include "cli/reports/profile_output.h"
#include "util/nvtx_range_filter.h"

namespace gpuscope::cli {
namespace {

// The kernel filters (shared with `stats --page`) first, as ncu lists them, then the rest.
std::vector<OptionSpec> ProfileOptionSpecs(ProfileOptions& options) {
  TracedRunOptionSpecs traced = DeclareTracedRunOptions(
      options.traced, {.output_name = "export",
                       .output_help = "report file pattern (default gpuscope_profile_%p.sqlite)",
                       .force_overwrite_help = "overwrite existing reports",
                       .quiet_short_name = 'q',
                       .quiet_help = "no progress lines"});
  std::vector<OptionSpec> specs = KernelFilterOptionSpecs("profile", options.filter);
  std::vector<OptionSpec> own = {
      {"set", 0, "basic|full", "section set to collect (default basic)", StoreText(options.set)},
      {"section", 0, "name", "collect this section (repeatable)", AppendText(options.sections)},
      {"metrics", 0, "a,b,...", "collect these metrics too (any name the chip has)",
       AppendCommaList(options.metrics)},
      {"replay-mode", 0, "kernel|application|app-range",
       "replay each kernel alone (default), run the program once per pass (with -c 1), or "
       "measure a range of the program as one result, the program run once per pass "
       "(app-range, with -c 1; the range: cudaProfilerStart to Stop, or --nvtx-include)",
       [choice = StoreSpelling(options.replay_mode, contract::kReplayModeSpellings)](
           const ParsedOption& option) {
         if (option.value == "range") {
           return Status::Error(
               "--replay-mode range (the range replayed inside one run) is not supported yet: "
               "use --replay-mode app-range (the program runs once per pass)");
         }
         return choice(option);
       }},
      {"nvtx-include", 0, "[domain@]name[/]",
       "app-range: measure this NVTX range instead (name/ push/pop, name start/end; "
       "name may be regex:expr; repeatable)",
       [&options](const ParsedOption& option) {
         GPUSCOPE_RETURN_IF_ERROR(ParseNvtxRangeSpec(option.value).status());
         options.nvtx_include.push_back(option.value);
         return Status();
       }},
      {"import-source", 0, "yes|no",
       "with SourceCounters (in --set full): per-instruction counts, stall samples and the cubin "
       "(default yes; no: the section's kernel-level metrics only)",
       StoreChoice<bool>(options.import_source, {{"yes", true}, {"no", false}})},
      {"cache-control", 0, "all|none",
       "flush the L2 cache before each replay pass (default all, as ncu), or leave it as the "
       "last pass left it",
       StoreSpelling(options.cache_control, contract::kCacheControlSpellings)},
      {"replay-no-restore", 0, "",
       "kernel replay: do not save and restore device memory around the passes (faster; only "
       "for kernels that leave their inputs unchanged, e.g. separate input and output buffers)",
       SetFlag(options.replay_no_restore)},
      {"list-sets", 0, "", "list the section sets and exit", SetFlag(options.list_sets)},
      {"list-sections", 0, "", "list the sections and exit", SetFlag(options.list_sections)},
      {"query-metrics", 0, "", "list the metrics of the chip and exit (no GPU needed)",
       SetFlag(options.query_metrics)},
      {"chip", 0, "name", "chip for --query-metrics and name checks (default: the GPU's)",
       StoreText(options.chip)},
      FormatOption(options.csv),
      {"csv", 0, "", "print CSV (one row per kernel and metric), as --format csv",
       SetFlag(options.csv)},
      {"page", 0, "details|raw", "sections (default) or every collected metric",
       StoreChoice<ProfilePage>(options.page,
                                {{"details", ProfilePage::kDetails}, {"raw", ProfilePage::kRaw}})},
      {"print-summary", 0, "none|per-kernel",
       "aggregate the launches of each kernel (default none)",
       StoreChoice<ProfileSummary>(
           options.print_summary,
           {{"none", ProfileSummary::kNone}, {"per-kernel", ProfileSummary::kPerKernel}})},
      traced.output,
      traced.force_overwrite,
      traced.report_permissions,
      traced.quiet,
      traced.backtrace,
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
  specs.insert(specs.end(), std::make_move_iterator(own.begin()),
               std::make_move_iterator(own.end()));
  return specs;
}

// app-range measures ranges, not launches: the options that choose or replay launches make
// no sense with it, and --nvtx-include makes sense with it only.
Status CheckRangeOptions(const ProfileOptions& options) {
  const bool app_range = options.replay_mode == model::ReplayMode::kAppRange;
  if (!options.nvtx_include.empty() && !app_range) {
    return Status::Error("option '--nvtx-include' chooses the ranges of --replay-mode app-range");
  }
  if (!app_range) return {};
  if (!options.filter.kernel_name.empty() || !options.filter.kernel_id.empty()) {
    return Status::Error("--replay-mode app-range measures ranges, not kernels: -k and "
                         "--kernel-id do not apply (-s/-c count ranges)");
  }
  if (options.cache_control != contract::CacheControl::kAll) {
    return Status::Error("option '--cache-control' applies to kernel replay only");
  }
  return {};
}

}  // namespace

StatusOr<ProfileOptions> ParseProfileOptions(std::span<const std::string> args) {
  ProfileOptions options;
  StatusOr<std::vector<std::string>> program =
      ParseCommandLine(ProfileOptionSpecs(options), args, OperandMode::kStopAtFirstOperand);
  if (!program.ok()) return program.status();
  options.program = std::move(*program);
  ProfileOutputOptions output;
  output.csv = options.csv;
  output.page = options.page;
  output.summary = options.print_summary;
  GPUSCOPE_RETURN_IF_ERROR(CheckProfileOutputOptions(output));
  if (options.help || options.list_sets || options.list_sections || options.query_metrics) {
    return options;
  }
  GPUSCOPE_RETURN_IF_ERROR(CheckRangeOptions(options));
  if (options.replay_no_restore && options.replay_mode != model::ReplayMode::kKernel) {
    return Status::Error("option '--replay-no-restore' applies to kernel replay only (application "
                         "replay runs the program again for each pass)");
  }
  if (options.program.empty()) {
    return Status::Error("no program to profile (gpuscope profile [options] -- program [args])");
  }
  return options;
}

std::string ProfileUsage() {
  ProfileOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope profile [options] [--] <program> [arguments]\n"
         "       gpuscope profile --list-sets | --list-sections | --query-metrics [--chip gh100]\n"
         "\n"
         "Measures hardware metrics of selected kernel launches by replaying each one with\n"
         "CUPTI's Range Profiler (device memory is restored between passes), prints them in\n"
         "Nsight Compute's layout and keeps them in the report. Launches that are not selected\n"
         "run at full speed and are traced as by `gpuscope run`. The GPU's clocks are never\n"
         "changed: the SM and DRAM frequencies measured during each kernel are shown.\n"
         "\n" +
         FormatOptionHelp(ProfileOptionSpecs(described)) +
         "\n"
         "Examples:\n"
         "  gpuscope profile -k regex:conv -c 1 --set full -- python3 app.py\n"
         "  gpuscope profile --metrics dram__bytes.sum,gpu__time_duration.sum -- ./app\n"
         "  gpuscope stats --page details gpuscope_profile_1234.sqlite\n";
}

}  // namespace gpuscope::cli
