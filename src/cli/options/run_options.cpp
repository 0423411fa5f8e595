#include "cli/options/run_options.h"

#include <charconv>
#include <vector>

#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/options/traced_run_options.h"
#include "cli/reports/nvprof_output.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::cli {
namespace {

Status UnknownGpuMetricSet(const std::string& name) {
  std::string names;
  for (const GpuMetricSet& set : GpuMetricSets()) {
    names += (names.empty() ? "" : ", ") + std::string(set.name);
  }
  return Status::Error("option '--gpu-metrics-set': unknown set '" + name + "' (sets: " + names +
                       "; 'list' describes them)");
}

StatusOr<std::uint32_t> ParseGpuMetricsFrequency(const std::string& text) {
  std::uint32_t hz = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, hz);
  if (error != std::errc() || stop != end || hz < kMinGpuMetricsFrequencyHz ||
      hz > kMaxGpuMetricsFrequencyHz) {
    return Status::Error("option '--gpu-metrics-frequency' expects samples per second from " +
                         std::to_string(kMinGpuMetricsFrequencyHz) + " to " +
                         std::to_string(kMaxGpuMetricsFrequencyHz) + ", not '" + text + "'");
  }
  return hz;
}

// The command's own options, with nvprof's --print-* (shared with `stats`) before --help.
std::vector<OptionSpec> RunOptionSpecs(RunOptions& options) {
  TracedRunOptionSpecs traced = DeclareTracedRunOptions(
      options.traced,
      {.output_name = "export-profile",
       .output_help =
           "report path pattern (default gpuscope_%p.sqlite); %p pid, %h host, %q{ENV}, %%",
       .force_overwrite_help =
           "overwrite existing reports and log file (never a report with the log)",
       .quiet_help = "print no summary"});
  std::vector<OptionSpec> specs = {
      traced.output,
      traced.force_overwrite,
      traced.report_permissions,
      {"csv", 0, "", "print comma-separated values instead of columns",
       SetFlag(options.output.csv)},
      {"log-file", 0, "file",
       "write gpuscope's output to a file (%1 stdout, %2 stderr, macros as for -o)",
       StoreNonEmptyText(options.log_file, "a file name")},
      {"demangling", 0, "on|off", "demangle kernel names (default on)",
       StoreOnOff(options.output.demangle)},
      {"normalized-time-unit", 'u', "s|ms|us|ns|auto", "time unit (default auto)",
       StoreTimeUnit(options.output.unit)},
      {"profile-from-start", 0, "on|off",
       "off: record only between cudaProfilerStart and cudaProfilerStop",
       StoreOnOff(options.profile_from_start)},
      {"profile-child-processes", 0, "on|off",
       "trace child processes too, one report each (default on)",
       StoreOnOff(options.follow_children)},
      traced.quiet,
      {"no-rules", 0, "", "print no findings of the trace rules after the summary",
       ClearFlag(options.print_rules)},
      {"gpu-metrics", 0, "",
       "sample device-wide hardware counters (SM active, DRAM, PCIe, NVLink...) over the run",
       [&options](const ParsedOption&) {
         if (options.gpu_metrics_set.empty()) options.gpu_metrics_set = kDefaultGpuMetricSet;
         return Status();
       }},
      {"gpu-metrics-set", 0, "name|list",
       "the metric set to sample (default 'default'); 'list' shows the sets and runs nothing",
       [&options](const ParsedOption& option) {
         if (option.value == "list") {
           options.list_gpu_metrics = true;
           return Status();
         }
         if (FindGpuMetricSet(option.value) == nullptr) return UnknownGpuMetricSet(option.value);
         options.gpu_metrics_set = option.value;
         return Status();
       }},
      {"gpu-metrics-frequency", 0, "hz", "samples per second (default 10000, 10 to 200000)",
       StoreParsed(options.gpu_metrics_frequency_hz, ParseGpuMetricsFrequency)},
      {"chip", 0, "name", "with --list: the chip whose sets are shown (default GH100)",
       StoreNonEmptyText(options.gpu_metrics_chip, "a chip name")},
      {"list", 0, "", "with --gpu-metrics: show the metric sets and run nothing",
       SetFlag(options.list_gpu_metrics)},
      {"trace", 't', "list",
       "what to record, default cuda,nvtx: cuda (API calls, GPU work), cuda-gpu (GPU work only), "
       "nvtx, none",
       [&options](const ParsedOption& option) {
         StatusOr<TraceScope> scope = ParseTraceList(option.value, options.trace);
         if (!scope.ok()) return scope.status();
         options.trace = *scope;
         return Status();
       }},
      {"api-capture", 0, "activity|callback",
       "how API calls are recorded: CUPTI activity records, or callbacks (hot no-op calls counted)",
       StoreParsed(options.trace.api_capture, ParseApiCapture)},
      {"cuda-graph-trace", 0, "graph|node",
       "node (default): every kernel of a graph launch; graph: one row per graph launch",
       StoreParsed(options.trace.cuda_graph_trace, ParseCudaGraphTrace)},
      traced.backtrace,
  };
  std::vector<OptionSpec> print = NvprofSelectionOptionSpecs(options.print);
  specs.insert(specs.end(), print.begin(), print.end());
  specs.push_back({"help", 'h', "", "show this help", SetFlag(options.help)});
  return specs;
}

}  // namespace

StatusOr<RunOptions> ParseRunOptions(std::span<const std::string> args) {
  RunOptions options;
  StatusOr<std::vector<std::string>> program =
      ParseCommandLine(RunOptionSpecs(options), args, OperandMode::kStopAtFirstOperand);
  if (!program.ok()) return program.status();
  options.program = std::move(*program);
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
  RunOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope run [options] [--] <program> [args]\n"
         "       gpuscope [options] <program> [args]\n"
         "\n"
         "Runs <program> unchanged with CUDA tracing, writes one SQLite report per traced\n"
         "process and prints nvprof's summary of each on stderr. The program's stdin, stdout,\n"
         "stderr and exit code pass through; gpuscope's own lines start with ==PID==.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(RunOptionSpecs(described));
}

}  // namespace gpuscope::cli
