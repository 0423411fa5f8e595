// What `gpuscope stats` was asked to print.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/options/kernel_filter_options.h"
#include "cli/reports/nvprof_output.h"
#include "render/output_options.h"
#include "render/source_page.h"
#include "render/stats_table_format.h"
#include "util/status.h"

namespace gpuscope::cli {

struct StatsOptions {
  // nsys-style tables by name, in the order given; empty: nvprof's summary.
  std::vector<std::string> report_names;
  render::StatsFormat format = render::StatsFormat::kColumn;
  render::OutputOptions output;  // -u and --demangling, for the nvprof summary and traces
  // nvprof's --print-gpu-trace, --print-api-trace, --print-gpu-summary, --print-api-summary,
  // as `gpuscope run` prints them.
  NvprofSelection print;
  // `--page details|raw|source`: the profiled kernels' metrics (source: their source page) (gpuscope profile) instead of the
  // trace summary; `--print-summary per-kernel` aggregates them.
  std::optional<std::string> page;
  bool per_kernel_summary = false;
  // With --page: ncu's filters (-k, -s, -c, --kernel-id, --devices) over the profiled kernels,
  // and the collected sections and metrics to print (empty: all).
  KernelFilterText filter;
  std::vector<std::string> sections;
  std::vector<std::string> metrics;
  // With --page source: --print-source and --sort (as `gpuscope source` takes them).
  render::SourcePageOptions source_page;
  bool source_options_given = false;
  // `--rules`: the trace rules' findings (analysis/trace_rules) instead of the summary.
  bool rules = false;
  bool help = false;
  std::vector<std::string> report_paths;  // one per process or rank, aggregated
};

// Errors are usage errors (exit 2), including an unknown --report name (the message lists
// the known ones) and "--format json" without --report (nvprof's summary has no JSON form).
StatusOr<StatsOptions> ParseStatsOptions(std::span<const std::string> args);

std::string StatsUsage();

}  // namespace gpuscope::cli
