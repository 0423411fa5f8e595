// What `gpuscope run` was asked to do, parsed from nvprof's option spellings.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/options/traced_run_options.h"
#include "cli/reports/nvprof_output.h"
#include "contract/report_path_rules.h"
#include "render/output_options.h"
#include "util/status.h"
#include "util/trace_scope.h"

namespace gpuscope::cli {

struct RunOptions {
  // What is printed for each traced process. With no print option at all, nvprof prints the
  // whole summary; asking for a trace replaces the summary, asking for one summary half
  // prints only that half.
  NvprofSelection print;
  render::OutputOptions output;  // --csv, -u, --demangling

  std::optional<std::string> log_file;  // pattern; "%1" stdout, "%2" stderr; unset: stderr
  TracedRunOptions traced{.report_pattern = contract::kDefaultReportPattern};
  bool profile_from_start = true;
  bool follow_children = true;
  // `gpuscope profile` with source counters: the JIT compilers' line-table switches for the
  // program (ChildEnvironmentSettings::jit_line_info); `gpuscope run` never sets it.
  bool jit_line_info = false;
  // The trace rules' findings after the summary (analysis/trace_rules); --no-rules: none.
  bool print_rules = true;
  // --gpu-metrics: the set sampled on every device (empty: none) and its rate.
  std::string gpu_metrics_set;
  std::uint32_t gpu_metrics_frequency_hz = 0;
  // --gpu-metrics-set list (or --gpu-metrics --list): print the sets for `gpu_metrics_chip`
  // and run nothing.
  bool list_gpu_metrics = false;
  std::string gpu_metrics_chip = "GH100";
  // --trace, --api-capture, --cuda-graph-trace: what the injection records and how.
  TraceScope trace;
  bool help = false;

  std::vector<std::string> program;  // the program and its arguments; empty only with help
};

// `args` are the words after "run" (or all words, for the shorthand `gpuscope <program>`).
// Errors are usage errors (one line, exit code 2).
StatusOr<RunOptions> ParseRunOptions(std::span<const std::string> args);

// The `gpuscope run --help` text.
std::string RunUsage();

}  // namespace gpuscope::cli
