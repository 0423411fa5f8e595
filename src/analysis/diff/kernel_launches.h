// The kernels of one report grouped for comparison with another: one group per kernel name
// and launch configuration (grid, block), holding the traced durations of all its launches
// and, for the launches `gpuscope profile` measured, each metric's values.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::diff {

// What makes two launches "the same kernel" across reports: the demangled name (the full
// signature, so template instantiations stay apart) and the launch shape.
struct KernelKey {
  std::string name;
  std::array<std::int32_t, 3> grid{};
  std::array<std::int32_t, 3> block{};
  auto operator<=>(const KernelKey&) const = default;
};

struct KernelLaunches {
  KernelKey key;
  std::string function_name;  // "k_saxpy", for titles
  std::size_t launches = 0;   // rows in the kernels table
  // Launches with both timestamps (a replayed launch has none: CUPTI does not time it).
  std::vector<double> traced_durations_ns;
  std::size_t profiled = 0;  // launches measured by replay
  // Metric name -> its value in each measured launch (a launch lacking it adds nothing).
  std::map<std::string, std::vector<double>> metrics;
};

struct ReportKernels {
  std::string path;
  std::vector<KernelLaunches> kernels;       // in key order
  std::map<std::string, std::string> units;  // metric name -> unit ("byte", "%", ...)
};

// Reads the kernels table and the profile tables of an open report.
StatusOr<ReportKernels> LoadReportKernels(const store::ReportReader& report);

}  // namespace gpuscope::analysis::diff
