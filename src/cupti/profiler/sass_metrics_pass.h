// One pass of CUPTI's SASS metrics over a replayed launch: exact per-instruction counts by
// binary patching (executions, threads, predication, global sectors and their ideal, shared
// wavefronts and their ideal, divergent branch targets).
//
// CUPTI quirks, verified on CUPTI 2025.3.1 (H100): the configuration is set once per device and
// never unset (setting it again after unsetting fails with CUPTI_ERROR_OUT_OF_MEMORY); patching
// is enabled for the one replayed launch and disabled after it, so the program's own launch
// and the counter passes run unpatched; and it yields records for more than one launch only
// when a PC-sampling pass ran before it (pc_sampling_pass.h).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "inject/profiled_kernel.h"
#include "util/status.h"

namespace gpuscope::cupti {

// The SASS metrics collected, in CUPTI's names (ncu's Source page columns come from them).
const std::vector<std::string>& SourceSassMetrics();

class SassMetricsPass {
 public:
  // Patches `context` while `launch_and_wait` runs the launch to completion; adds one value per
  // (instruction, metric) to `out`. `device` is CUPTI's device index, `chip` its chip name.
  Status Run(CUcontext context, std::uint32_t device, const std::string& chip,
             const std::function<Status()>& launch_and_wait, inject::OwnedSourceCounters& out);

  // The device's configuration unset, before a context of it is destroyed (a Numba program
  // that destroys its context at exit crashed in CUPTI with it set, H100, 2026-11-25).
  void Unconfigure(std::uint32_t device);
  void UnconfigureAll();

 private:
  Status Configure(std::uint32_t device, const std::string& chip);

  std::map<std::uint32_t, bool> configured_;  // by device: set once, never unset
  std::map<std::uint64_t, std::string> metric_names_;  // CUPTI's metric id -> name
};

}  // namespace gpuscope::cupti
