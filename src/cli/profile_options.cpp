#include "cli/profile_options.h"

#include <charconv>

#include "cli/format_option.h"
#include "cli/kernel_filter_options.h"
#include "cli/option_parser.h"
#include "cli/profile_output.h"
#include "util/comma_list.h"
#include "util/nvtx_range_filter.h"

namespace gpuscope::cli {
namespace {

enum ProfileOptionId {
  kSet,
  kSection,
  kMetrics,
  kReplayMode,
  kNvtxInclude,
  kCacheControl,
  kReplayNoRestore,
  kListSets,
  kListSections,
  kQueryMetrics,
  kChip,
  kFormat,
  kCsv,
  kPage,
  kPrintSummary,
  kExport,
  kForceOverwrite,
  kReportPermissions,
  kQuiet,
  kBacktrace,
  kHelp,
  kImportSource,
};

constexpr OptionSpec kProfileOwnOptions[] = {
    {kSet, "set", 0, "basic|full", "section set to collect (default basic)"},
    {kSection, "section", 0, "name", "collect this section (repeatable)"},
    {kMetrics, "metrics", 0, "a,b,...", "collect these metrics too (any name the chip has)"},
    {kReplayMode, "replay-mode", 0, "kernel|application|app-range",
     "replay each kernel alone (default), run the program once per pass (with -c 1), or "
     "measure a range of the program as one result, the program run once per pass "
     "(app-range, with -c 1; the range: cudaProfilerStart to Stop, or --nvtx-include)"},
    {kNvtxInclude, "nvtx-include", 0, "[domain@]name[/]",
     "app-range: measure this NVTX range instead (name/ push/pop, name start/end; "
     "name may be regex:expr; repeatable)"},
    {kImportSource, "import-source", 0, "yes|no",
     "with SourceCounters (in --set full): per-instruction counts, stall samples and the cubin "
     "(default yes; no: the section's kernel-level metrics only)"},
    {kCacheControl, "cache-control", 0, "all|none",
     "flush the L2 cache before each replay pass (default all, as ncu), or leave it as the "
     "last pass left it"},
    {kReplayNoRestore, "replay-no-restore", 0, "",
     "kernel replay: do not save and restore device memory around the passes (faster; only "
     "for kernels that leave their inputs unchanged, e.g. separate input and output buffers)"},
    {kListSets, "list-sets", 0, "", "list the section sets and exit"},
    {kListSections, "list-sections", 0, "", "list the sections and exit"},
    {kQueryMetrics, "query-metrics", 0, "",
     "list the metrics of the chip and exit (no GPU needed)"},
    {kChip, "chip", 0, "name", "chip for --query-metrics and name checks (default: the GPU's)"},
    FormatOption(kFormat, "column|csv"),
    {kCsv, "csv", 0, "", "print CSV (one row per kernel and metric), as --format csv"},
    {kPage, "page", 0, "details|raw", "sections (default) or every collected metric"},
    {kPrintSummary, "print-summary", 0, "none|per-kernel",
     "aggregate the launches of each kernel (default none)"},
    {kExport, "export", 'o', "file", "report file pattern (default gpuscope_profile_%p.sqlite)"},
    {kForceOverwrite, "force-overwrite", 'f', "", "overwrite existing reports"},
    {kReportPermissions, "report-permissions", 0, "private|umask",
     "reports readable by their owner only (default), or as the umask allows"},
    {kQuiet, "quiet", 'q', "", "no progress lines"},
    {kBacktrace, "backtrace", 0, "", "record the host call stack of each launch, copy and sync"},
    {kHelp, "help", 'h', "", "show this help"},
};

// The kernel filters (shared with `stats --page`) first, as ncu lists them, then the rest.
std::span<const OptionSpec> ProfileOptionSpecs() {
  static const std::vector<OptionSpec> specs = [] {
    std::vector<OptionSpec> all = KernelFilterOptionSpecs("profile");
    all.insert(all.end(), std::begin(kProfileOwnOptions), std::end(kProfileOwnOptions));
    return all;
  }();
  return specs;
}

Status OneOf(const ParsedOption& option, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* value : allowed) {
    if (option.value == value) return {};
    list += (list.empty() ? "" : ", ") + std::string(value);
  }
  return Status::Error("option '" + option.spelling + "' expects " + list + ", not '" +
                       option.value + "'");
}

Status Apply(const ParsedOption& option, ProfileOptions& options) {
  StatusOr<bool> filter = ApplyKernelFilterOption(option, options.filter);
  if (!filter.ok()) return filter.status();
  if (*filter) return {};
  switch (static_cast<ProfileOptionId>(option.id)) {
    case kSet:
      options.set = option.value;
      return {};
    case kSection:
      options.sections.push_back(option.value);
      return {};
    case kMetrics:
      for (std::string& name : SplitCommaList(option.value)) {
        options.metrics.push_back(std::move(name));
      }
      return {};
    case kReplayMode:
      if (option.value == "range") {
        return Status::Error(
            "--replay-mode range (the range replayed inside one run) is not supported yet: use "
            "--replay-mode app-range (the program runs once per pass)");
      }
      GPUSCOPE_RETURN_IF_ERROR(OneOf(option, {"kernel", "application", "app-range"}));
      options.replay_mode = option.value;
      return {};
    case kNvtxInclude: {
      StatusOr<NvtxRangeSpec> spec = ParseNvtxRangeSpec(option.value);
      if (!spec.ok()) return spec.status();
      options.nvtx_include.push_back(option.value);
      return {};
    }
    case kImportSource:
      GPUSCOPE_RETURN_IF_ERROR(OneOf(option, {"yes", "no"}));
      options.import_source = option.value == "yes";
      return {};
    case kCacheControl:
      GPUSCOPE_RETURN_IF_ERROR(OneOf(option, {"all", "none"}));
      options.cache_control = option.value;
      return {};
    case kReplayNoRestore:
      options.replay_no_restore = true;
      return {};
    case kListSets:
      options.list_sets = true;
      return {};
    case kListSections:
      options.list_sections = true;
      return {};
    case kQueryMetrics:
      options.query_metrics = true;
      return {};
    case kChip:
      options.chip = option.value;
      return {};
    case kFormat: {
      StatusOr<OutputFormat> format = ParseFormatOption(option.value, kColumnAndCsv);
      if (!format.ok()) return format.status();
      options.csv = *format == OutputFormat::kCsv;
      return {};
    }
    case kCsv:
      options.csv = true;
      return {};
    case kPage:
      GPUSCOPE_RETURN_IF_ERROR(OneOf(option, {"details", "raw"}));
      options.page = option.value == "raw" ? ProfilePage::kRaw : ProfilePage::kDetails;
      return {};
    case kPrintSummary:
      GPUSCOPE_RETURN_IF_ERROR(OneOf(option, {"none", "per-kernel"}));
      options.print_summary =
          option.value == "per-kernel" ? ProfileSummary::kPerKernel : ProfileSummary::kNone;
      return {};
    case kExport:
      options.report_pattern = option.value;
      return {};
    case kForceOverwrite:
      options.force_overwrite = true;
      return {};
    case kReportPermissions: {
      StatusOr<ReportPermissions> permissions = ParseReportPermissionsOption(option);
      if (!permissions.ok()) return permissions.status();
      options.report_permissions = *permissions;
      return {};
    }
    case kQuiet:
      options.quiet = true;
      return {};
    case kBacktrace:
      options.backtrace = true;
      return {};
    case kHelp:
      options.help = true;
      return {};
  }
  return {};
}

// app-range measures ranges, not launches: the options that choose or replay launches make
// no sense with it, and --nvtx-include makes sense with it only.
Status CheckRangeOptions(const ProfileOptions& options) {
  const bool app_range = options.replay_mode == "app-range";
  if (!options.nvtx_include.empty() && !app_range) {
    return Status::Error("option '--nvtx-include' chooses the ranges of --replay-mode app-range");
  }
  if (!app_range) return {};
  if (!options.filter.kernel_name.empty() || !options.filter.kernel_id.empty()) {
    return Status::Error("--replay-mode app-range measures ranges, not kernels: -k and "
                         "--kernel-id do not apply (-s/-c count ranges)");
  }
  if (options.cache_control != "all") {
    return Status::Error("option '--cache-control' applies to kernel replay only");
  }
  return {};
}

}  // namespace

StatusOr<ProfileOptions> ParseProfileOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(ProfileOptionSpecs(), args, OperandMode::kStopAtFirstOperand);
  if (!parsed.ok()) return parsed.status();
  ProfileOptions options;
  for (const ParsedOption& option : parsed->options) {
    GPUSCOPE_RETURN_IF_ERROR(Apply(option, options));
  }
  options.program = parsed->operands;
  ProfileOutputOptions output;
  output.csv = options.csv;
  output.page = options.page;
  output.summary = options.print_summary;
  GPUSCOPE_RETURN_IF_ERROR(CheckProfileOutputOptions(output));
  if (options.help || options.list_sets || options.list_sections || options.query_metrics) {
    return options;
  }
  GPUSCOPE_RETURN_IF_ERROR(CheckRangeOptions(options));
  if (options.replay_no_restore && options.replay_mode != "kernel") {
    return Status::Error("option '--replay-no-restore' applies to kernel replay only (application "
                         "replay runs the program again for each pass)");
  }
  if (options.program.empty()) {
    return Status::Error("no program to profile (gpuscope profile [options] -- program [args])");
  }
  return options;
}

std::string ProfileUsage() {
  return "Usage: gpuscope profile [options] [--] <program> [arguments]\n"
         "       gpuscope profile --list-sets | --list-sections | --query-metrics [--chip gh100]\n"
         "\n"
         "Measures hardware metrics of selected kernel launches by replaying each one with\n"
         "CUPTI's Range Profiler (device memory is restored between passes), prints them in\n"
         "Nsight Compute's layout and keeps them in the report. Launches that are not selected\n"
         "run at full speed and are traced as by `gpuscope run`. The GPU's clocks are never\n"
         "changed: the SM and DRAM frequencies measured during each kernel are shown.\n"
         "\n" +
         FormatOptionHelp(ProfileOptionSpecs()) +
         "\n"
         "Examples:\n"
         "  gpuscope profile -k regex:conv -c 1 --set full -- python3 app.py\n"
         "  gpuscope profile --metrics dram__bytes.sum,gpu__time_duration.sum -- ./app\n"
         "  gpuscope stats --page details gpuscope_profile_1234.sqlite\n";
}

}  // namespace gpuscope::cli
