// gpuscope's own replay of a profiled launch for its source counters (`profile --section
// SourceCounters`, in --set full), run from the launch's driver enter callback before the
// counter passes: device memory saved; the kernel launched once under PC sampling, memory put
// back; launched once under SASS patching, memory put back; then the program's launch goes on
// (measured by the counter passes as before). The program's results are unchanged.
//
// The extra launches and synchronisations are gpuscope's, not the program's: while they run,
// the callbacks of this thread are ignored and their correlation ids noted, so that their
// activity records stay out of the trace (inject/own_replay_calls.h).
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "cupti/module_cubins.h"
#include "cupti/pc_sampling_pass.h"
#include "cupti/sass_metrics_pass.h"
#include "inject/profiled_kernel.h"

namespace gpuscope::cupti {

class LaunchCall;

// Whether this thread is inside gpuscope's own replay (its CUDA calls are not the program's).
bool ReplayingOnThisThread();

class SourcePasses {
 public:
  // Fills `out` (requested, values, cubins, or the one-line reason they are missing). Runs on
  // the program's thread inside its launch call; never throws.
  void Run(const LaunchCall& call, std::uint32_t device, const std::string& chip,
           inject::OwnedSourceCounters& out);

  // CUPTI_CBID_RESOURCE_MODULE_LOADED (enabled with source counters).
  void OnModuleLoaded(const void* cubin, std::size_t size) { cubins_.OnModuleLoaded(cubin, size); }
  // A context is going away: its sampling goes with it.
  void ForgetContext(CUcontext context);

 private:
  Status RunPasses(const LaunchCall& call, std::uint32_t device, const std::string& chip,
                   inject::OwnedSourceCounters& out);
  void AttachCubins(inject::OwnedSourceCounters& out);

  ModuleCubins cubins_;
  SassMetricsPass sass_;
  std::map<CUcontext, std::unique_ptr<PcSamplingPass>> sampling_;
};

}  // namespace gpuscope::cupti
