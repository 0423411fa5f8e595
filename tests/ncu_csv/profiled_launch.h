// One profiled kernel launch as a profiler's CSV describes it, the same for Nsight Compute
// and gpuscope: who launched it, where, and its metric values by metric name.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metric_value.h"

namespace gpuscope::ncu_csv {

struct ProfiledLaunch {
  long id = -1;                    // the tool's "ID": n-th profiled launch
  std::string process_id;          // "" when the CSV has no such column
  std::string kernel_name;         // as printed: "k_saxpy(long, float, const float *, float *)"
  std::string function_name;       // KernelFunctionName(kernel_name): what launches are matched by
  std::optional<long> invocation;  // gpuscope's "Invocation"; ncu prints none
  std::string context;
  std::string stream;
  std::string device;
  std::string cc;
  std::string grid_size;                       // "(262144, 1, 1)"
  std::string block_size;                      // "(256, 1, 1)"
  std::map<std::string, MetricValue> metrics;  // by metric name ("dram__bytes_read.sum")
};

// The function name of a kernel name as profilers print it, without return type,
// parameters, template arguments or namespaces: "void ns::k_fill<float>(float *, int)" ->
// "k_fill". Two tools that print names differently (mangled, demangled, function) still
// agree on it for the kernels the tests use.
std::string KernelFunctionName(std::string_view kernel_name);

}  // namespace gpuscope::ncu_csv
