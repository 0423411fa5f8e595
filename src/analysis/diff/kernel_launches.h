// The kernels of one report grouped for comparison with another: one group per kernel name
// (or per name and launch configuration, `MatchBy::kNameAndConfig`), holding the
// configurations it was launched with, the traced durations of all its launches and, for the
// launches `gpuscope profile` measured, each metric's values and the source page; and the GPU
// time projected per NVTX range.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/source/source_view.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::diff {

// A launch's shape: the grid and block dimensions.
struct LaunchConfig {
  std::array<std::int32_t, 3> grid{};
  std::array<std::int32_t, 3> block{};
  auto operator<=>(const LaunchConfig&) const = default;
};

// How kernels of two reports are paired. By name (the default): a kernel whose block size
// changed is still the same kernel, and the diff shows the configuration change. By name and
// configuration: each shape is its own kernel (a launch with another grid is another
// workload).
// kNameAndCallSite: the name and the call site of the launch (`--backtrace` stacks,
// analysis/call_sites.h); compares traced GPU time only (profiled launches are left out).
enum class MatchBy { kName, kNameAndConfig, kNameAndCallSite };

std::string_view MatchByName(MatchBy match);  // "name", "name+config", "name+callsite"
std::optional<MatchBy> ParseMatchBy(std::string_view text);

// What makes two launches "the same kernel" across reports: the demangled name (the full
// signature, so template instantiations stay apart) and, with kNameAndConfig, the shape.
struct KernelKey {
  std::string name;
  std::optional<LaunchConfig> config;
  std::string call_site;  // kNameAndCallSite only ("[no call stack]" for launches without)
  auto operator<=>(const KernelKey&) const = default;
};

struct KernelLaunches {
  KernelKey key;
  std::string function_name;       // "k_saxpy", for titles
  std::set<LaunchConfig> configs;  // every shape it was launched with
  std::size_t launches = 0;        // rows in the kernels table
  // Launches with both timestamps (a replayed launch has none: CUPTI does not time it).
  std::vector<double> traced_durations_ns;
  std::size_t profiled = 0;  // launches measured by replay
  // Metric name -> its value in each measured launch (a launch lacking it adds nothing).
  std::map<std::string, std::vector<double>> metrics;
  // The source page of its first profiled launch with source counters (--set full), if any.
  std::optional<source::KernelSource> source;
};

struct ReportKernels {
  std::string path;
  std::vector<KernelLaunches> kernels;       // in key order
  std::map<std::string, std::string> units;  // metric name -> unit ("byte", "%", ...)
  // NVTX range label -> projected GPU time of each instance that launched GPU work
  // (analysis/nvtx_projection.h).
  std::map<std::string, std::vector<double>> nvtx_projected_ns;
  MatchBy match = MatchBy::kName;  // how `kernels` were grouped
  // Why the source pages could not be read ("" when they could, or the report has none): the
  // rest of the diff does not need them.
  std::string source_problem;
  // What was left out as damaged, one line each, as `stats` and `export` say it: rows
  // (analysis::SkippedRowWarnings) and metric values that cannot be true
  // (analysis/value_range.h).
  std::vector<std::string> warnings;
};

// Reads the kernels table, the profile tables, the source counters and the NVTX ranges of an
// open report.
StatusOr<ReportKernels> LoadReportKernels(const store::ReportReader& report,
                                          MatchBy match = MatchBy::kName);

}  // namespace gpuscope::analysis::diff
