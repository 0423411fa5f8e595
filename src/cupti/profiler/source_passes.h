// gpuscope's own replay of a profiled launch for its source counters (`profile --section
// SourceCounters`, in --set full), run from the launch's driver enter callback before the
// counter passes: device memory saved; the kernel launched once under PC sampling, memory put
// back; launched once under SASS patching, memory put back; then the program's launch goes on
// (measured by the counter passes as before). The program's results are unchanged.
//
// What CUPTI 2025.3.1 allows, measured on the H100 (2026-11-25, src/cupti/profiler/README.md):
//   * SASS patching counts nothing (and takes ~18 s) while the tracing activity kinds are on:
//     tracing is paused for the passes, and the pause is counted (own_replay_calls.h).
//   * PC sampling gets no samples once the context's range profiler is enabled, the range
//     profiler cannot start while sampling is enabled, and enabling it a second time crashes:
//     so only launches before the context's first counter measurement are sampled (with -c 1,
//     every one); the others say why in their source message.
//   * Sampling must come before patching in the launch, or it gets no samples.
//
// The extra launches and synchronisations are gpuscope's, not the program's: while they run,
// the callbacks of this thread are ignored and their correlation ids noted, so that any of
// their activity records stay out of the trace (inject/own_replay_calls.h).
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <cstdint>
#include <string>

#include "cupti/profiler/module_cubins.h"
#include "cupti/profiler/pc_sampling_pass.h"
#include "cupti/profiler/sass_metrics_pass.h"
#include "inject/profiled_kernel.h"

namespace gpuscope::cupti {

class LaunchCall;

class SourcePasses {
 public:
  // Fills `out` (requested, values, cubins, or the one-line reason they are missing). Runs on
  // the program's thread inside its launch call; never throws.
  // `can_sample`: the context's range profiler was never enabled (see above).
  // `program_correlation_id`: the launch's record id (its outermost call's).
  void Run(const LaunchCall& call, std::uint32_t device, const std::string& chip, bool can_sample,
           std::uint32_t program_correlation_id, inject::OwnedSourceCounters& out);

  // CUPTI_CBID_RESOURCE_MODULE_LOADED (enabled with source counters).
  void OnModuleLoaded(const void* cubin, std::size_t size) { cubins_.OnModuleLoaded(cubin, size); }
  // A context is about to be destroyed (CONTEXT_DESTROY_STARTING): SASS patching is unset on
  // its device first. Never throws.
  void ForgetContext(CUcontext context);
  // The end of the session: SASS patching unset on every device. Never throws.
  void Release() { sass_.UnconfigureAll(); }

 private:
  Status RunPasses(const LaunchCall& call, std::uint32_t device, const std::string& chip,
                   bool can_sample, inject::OwnedSourceCounters& out);
  void AttachCubins(inject::OwnedSourceCounters& out);

  ModuleCubins cubins_;
  SassMetricsPass sass_;
};

}  // namespace gpuscope::cupti
