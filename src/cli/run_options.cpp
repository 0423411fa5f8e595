#include "cli/run_options.h"

#include <charconv>
#include <vector>

#include "cli/nvprof_output.h"
#include "cli/option_parser.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::cli {
namespace {

enum RunOptionId {
  kCsv,
  kLogFile,
  kExportProfile,
  kForceOverwrite,
  kReportPermissions,
  kDemangling,
  kTimeUnit,
  kProfileFromStart,
  kProfileChildren,
  kQuiet,
  kNoRules,
  kGpuMetrics,
  kGpuMetricsSet,
  kGpuMetricsFrequency,
  kGpuMetricsChip,
  kList,
  kTrace,
  kApiCapture,
  kCudaGraphTrace,
  kBacktrace,
  kHelp,
};

constexpr OptionSpec kRunOwnOptions[] = {
    {kExportProfile, "export-profile", 'o', "file",
     "report path pattern (default gpuscope_%p.sqlite); %p pid, %h host, %q{ENV}, %%"},
    {kForceOverwrite, "force-overwrite", 'f', "",
     "overwrite existing reports and log file (never a report with the log)"},
    {kReportPermissions, "report-permissions", 0, "private|umask",
     "reports readable by their owner only (default), or as the umask allows"},
    {kCsv, "csv", 0, "", "print comma-separated values instead of columns"},
    {kLogFile, "log-file", 0, "file",
     "write gpuscope's output to a file (%1 stdout, %2 stderr, macros as for -o)"},
    {kDemangling, "demangling", 0, "on|off", "demangle kernel names (default on)"},
    {kTimeUnit, "normalized-time-unit", 'u', "s|ms|us|ns|auto", "time unit (default auto)"},
    {kProfileFromStart, "profile-from-start", 0, "on|off",
     "off: record only between cudaProfilerStart and cudaProfilerStop"},
    {kProfileChildren, "profile-child-processes", 0, "on|off",
     "trace child processes too, one report each (default on)"},
    {kQuiet, "quiet", 0, "", "print no summary"},
    {kNoRules, "no-rules", 0, "", "print no findings of the trace rules after the summary"},
    {kGpuMetrics, "gpu-metrics", 0, "",
     "sample device-wide hardware counters (SM active, DRAM, PCIe, NVLink...) over the run"},
    {kGpuMetricsSet, "gpu-metrics-set", 0, "name|list",
     "the metric set to sample (default 'default'); 'list' shows the sets and runs nothing"},
    {kGpuMetricsFrequency, "gpu-metrics-frequency", 0, "hz",
     "samples per second (default 10000, 10 to 200000)"},
    {kGpuMetricsChip, "chip", 0, "name", "with --list: the chip whose sets are shown (default GH100)"},
    {kList, "list", 0, "", "with --gpu-metrics: show the metric sets and run nothing"},
    {kTrace, "trace", 't', "list",
     "what to record, default cuda,nvtx: cuda (API calls, GPU work), cuda-gpu (GPU work only), nvtx, none"},
    {kApiCapture, "api-capture", 0, "activity|callback",
     "how API calls are recorded: CUPTI activity records, or callbacks (hot no-op calls counted)"},
    {kCudaGraphTrace, "cuda-graph-trace", 0, "graph|node",
     "node (default): every kernel of a graph launch; graph: one row per graph launch"},
    {kBacktrace, "backtrace", 0, "",
     "record the host call stack (Python file:line, else native) of each launch, copy and sync"},
    {kHelp, "help", 'h', "", "show this help"},
};

// The command's own options, then nvprof's --print-* (shared with `stats`).
std::span<const OptionSpec> RunOptionSpecs() {
  static const std::vector<OptionSpec> specs = [] {
    std::vector<OptionSpec> all(std::begin(kRunOwnOptions), std::end(kRunOwnOptions));
    std::span<const OptionSpec> print = NvprofSelectionOptionSpecs();
    all.insert(all.end() - 1, print.begin(), print.end());  // before --help
    return all;
  }();
  return specs;
}

// Applies one parsed option; errors are the option's bad value.
Status Apply(const ParsedOption& option, RunOptions& options) {
  if (ApplyNvprofSelectionOption(option, options.print)) return {};
  switch (static_cast<RunOptionId>(option.id)) {
    case kCsv:
      options.output.csv = true;
      return {};
    case kLogFile:
      if (option.value.empty()) return Status::Error("option '--log-file' needs a file name");
      options.log_file = option.value;
      return {};
    case kExportProfile:
      if (option.value.empty()) {
        return Status::Error("option '" + option.spelling + "' needs a file name");
      }
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
    case kNoRules:
      options.print_rules = false;
      return {};
    case kBacktrace:
      options.backtrace = true;
      return {};
    case kHelp:
      options.help = true;
      return {};
    case kGpuMetrics:
      if (options.gpu_metrics_set.empty()) options.gpu_metrics_set = kDefaultGpuMetricSet;
      return {};
    case kGpuMetricsSet:
      if (option.value == "list") {
        options.list_gpu_metrics = true;
        return {};
      }
      if (FindGpuMetricSet(option.value) == nullptr) {
        std::string names;
        for (const GpuMetricSet& set : GpuMetricSets()) {
          names += (names.empty() ? "" : ", ") + std::string(set.name);
        }
        return Status::Error("option '--gpu-metrics-set': unknown set '" + option.value +
                             "' (sets: " + names + "; 'list' describes them)");
      }
      options.gpu_metrics_set = option.value;
      return {};
    case kGpuMetricsFrequency: {
      std::uint32_t hz = 0;
      const char* end = option.value.data() + option.value.size();
      auto [stop, error] = std::from_chars(option.value.data(), end, hz);
      if (error != std::errc() || stop != end || hz < kMinGpuMetricsFrequencyHz ||
          hz > kMaxGpuMetricsFrequencyHz) {
        return Status::Error("option '--gpu-metrics-frequency' expects samples per second from " +
                             std::to_string(kMinGpuMetricsFrequencyHz) + " to " +
                             std::to_string(kMaxGpuMetricsFrequencyHz) + ", not '" +
                             option.value + "'");
      }
      options.gpu_metrics_frequency_hz = hz;
      return {};
    }
    case kGpuMetricsChip:
      if (option.value.empty()) return Status::Error("option '--chip' needs a chip name");
      options.gpu_metrics_chip = option.value;
      return {};
    case kList:
      options.list_gpu_metrics = true;
      return {};
    case kTrace: {
      StatusOr<TraceScope> scope = ParseTraceList(option.value, options.trace);
      if (!scope.ok()) return scope.status();
      options.trace = *scope;
      return {};
    }
    case kApiCapture: {
      StatusOr<ApiCapture> capture = ParseApiCapture(option.value);
      if (!capture.ok()) return capture.status();
      options.trace.api_capture = *capture;
      return {};
    }
    case kCudaGraphTrace: {
      StatusOr<CudaGraphTrace> trace = ParseCudaGraphTrace(option.value);
      if (!trace.ok()) return trace.status();
      options.trace.cuda_graph_trace = *trace;
      return {};
    }
    case kTimeUnit: {
      StatusOr<analysis::TimeUnit> unit = analysis::ParseTimeUnit(option.value);
      if (!unit.ok()) {
        return Status::Error("option '" + option.spelling +
                             "' expects s, ms, us, ns or auto, not '" + option.value + "'");
      }
      options.output.unit = unit.value();
      return {};
    }
    case kDemangling:
    case kProfileFromStart:
    case kProfileChildren: {
      StatusOr<bool> on = ParseOnOff(option);
      if (!on.ok()) return on.status();
      if (option.id == kDemangling) options.output.demangle = on.value();
      if (option.id == kProfileFromStart) options.profile_from_start = on.value();
      if (option.id == kProfileChildren) options.follow_children = on.value();
      return {};
    }
  }
  return Status::Error("internal error: unhandled option '" + option.spelling + "'");
}

}  // namespace

StatusOr<RunOptions> ParseRunOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(RunOptionSpecs(), args, OperandMode::kStopAtFirstOperand);
  if (!parsed.ok()) return parsed.status();
  RunOptions options;
  for (const ParsedOption& option : parsed->options) {
    GPUSCOPE_RETURN_IF_ERROR(Apply(option, options));
  }
  options.program = std::move(parsed->operands);
  if (options.list_gpu_metrics) return options;  // nothing runs: a program is not needed
  if (options.gpu_metrics_frequency_hz != 0 && options.gpu_metrics_set.empty()) {
    return Status::Error("option '--gpu-metrics-frequency' needs --gpu-metrics");
  }
  if (!options.gpu_metrics_set.empty() && options.gpu_metrics_frequency_hz == 0) {
    options.gpu_metrics_frequency_hz = kDefaultGpuMetricsFrequencyHz;
  }
  if (options.program.empty() && !options.help) {
    return Status::Error("no program given: gpuscope run [options] -- <program> [args]");
  }
  return options;
}

std::string RunUsage() {
  return "Usage: gpuscope run [options] [--] <program> [args]\n"
         "       gpuscope [options] <program> [args]\n"
         "\n"
         "Runs <program> unchanged with CUDA tracing, writes one SQLite report per traced\n"
         "process and prints nvprof's summary of each on stderr. The program's stdin, stdout,\n"
         "stderr and exit code pass through; gpuscope's own lines start with ==PID==.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(RunOptionSpecs());
}

}  // namespace gpuscope::cli
