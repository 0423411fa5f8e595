// The environment of the traced program: the caller's own, plus the variables of the
// launcher -> injection contract (src/contract/README.md).
#pragma once

#include <string>
#include <vector>

#include "contract/gpu_metrics_request.h"
#include "contract/profile_request.h"
#include "contract/trace_request.h"

namespace gpuscope::cli {

struct ChildEnvironmentSettings {
  std::string injection_library;  // absolute path of libgpuscope_inject.so
  std::string cupti_dir;          // holds libcupti.so.13 and the libnvperf_* it dlopens
  // What the injection is asked: the report (its pattern unexpanded: each traced process
  // expands it) and what is traced; `gpuscope run --gpu-metrics`'s sampling; `gpuscope
  // profile`'s measurements. Each request sets all its variables, empty where not asked for,
  // so that a run started inside a traced program's environment never inherits an outer
  // request.
  contract::TraceRequest tracing;
  contract::GpuMetricsRequest gpu_metrics;
  contract::ProfileRequest profile;
  // Source counters are collected: the JIT compilers' line-table switches
  // (contract::kLineInfoDefaults) are added where the user's environment has none.
  bool jit_line_info = false;
  // With jit_line_info: the directory of the Python start-up hook (Numba's lineinfo
  // default), put first on PYTHONPATH; empty where the install has none.
  std::string python_hook_dir;
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
