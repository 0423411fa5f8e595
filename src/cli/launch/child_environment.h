// The environment of the traced program: the caller's own, plus the variables of the
// launcher -> injection contract (src/contract/README.md).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "util/report_permissions.h"
#include "util/trace_scope.h"

namespace gpuscope::cli {

struct ChildEnvironmentSettings {
  std::string injection_library;  // absolute path of libgpuscope_inject.so
  std::string cupti_dir;          // holds libcupti.so.13 and the libnvperf_* it dlopens
  std::string report_pattern;     // unexpanded; each traced process expands it
  std::string manifest_path;
  bool follow_children = true;
  bool force_overwrite = false;
  ReportPermissions report_permissions = kDefaultReportPermissions;
  bool profile_from_start = true;
  bool quiet = false;  // the injection prints no banner on the program's stderr
  TraceScope trace;    // GPUSCOPE_TRACE, GPUSCOPE_API_CAPTURE, GPUSCOPE_CUDA_GRAPH_TRACE
  bool backtrace = false;  // --backtrace: host call stacks of launches, copies and syncs
  // Source counters are collected: the JIT compilers' line-table switches
  // (contract::kLineInfoDefaults) are added where the user's environment has none.
  bool jit_line_info = false;
  // With jit_line_info: the directory of the Python start-up hook (Numba's lineinfo
  // default), put first on PYTHONPATH; empty where the install has none.
  std::string python_hook_dir;
  // `gpuscope profile`: GPUSCOPE_PROFILE_METRICS and the kernel filter, by name
  // (contract::kProfileVariables). Every one of them is always set (empty when not given), so
  // that a `gpuscope run` started from inside a profiled program's environment never inherits
  // a profiling request.
  std::vector<std::pair<std::string, std::string>> profile_variables;
  // `gpuscope run --gpu-metrics`: the set and rate (always set, empty when not asked for, for
  // the same reason as the profiling variables).
  std::string gpu_metrics_set;
  std::uint32_t gpu_metrics_frequency_hz = 0;
};

// `current` holds "NAME=value" entries (environ). Contract variables replace any the user
// had (a gpuscope run inside a gpuscope run traces with the inner settings); everything else,
// GPUSCOPE_FLUSH_MS included, passes through unchanged. The line-table defaults never replace
// a value the user set, even an empty one. GPUSCOPE_ROOT_PID is left out: only
// the forked child knows its pid, and the launcher adds it there. The Python hook's directory
// goes before the user's PYTHONPATH, which is kept.
std::vector<std::string> BuildChildEnvironment(const std::vector<std::string>& current,
                                               const ChildEnvironmentSettings& settings);

// This process's environ as "NAME=value" strings.
std::vector<std::string> CurrentEnvironment();

}  // namespace gpuscope::cli
