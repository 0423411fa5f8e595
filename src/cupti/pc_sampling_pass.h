// One pass of CUPTI's PC sampling over a replayed launch: warp stall reasons sampled per SASS
// instruction. Per context, enabled once and kept enabled (enabling costs ~0.4 s on the H100,
// a start/stop around one launch ~2 ms; measured 2026-11-25, ARCHITECTURE.md).
//
// CUPTI quirk, verified on CUPTI 2025.3.1: sampling gets no samples in a context where SASS
// patching was enabled before, and SASS patching gets records for one launch only unless a
// sampling pass ran before it. So the source passes run sampling first, then patching, for
// every launch (cupti/source_passes).
#pragma once

#include <cuda.h>
#include <cupti_pcsampling.h>

#include <functional>
#include <string>
#include <vector>

#include "inject/profiled_kernel.h"
#include "util/status.h"

namespace gpuscope::cupti {

class PcSamplingPass {
 public:
  explicit PcSamplingPass(CUcontext context) : context_(context) {}
  ~PcSamplingPass();
  PcSamplingPass(const PcSamplingPass&) = delete;
  PcSamplingPass& operator=(const PcSamplingPass&) = delete;

  // Samples while `launch_and_wait` runs the launch to completion; adds one value per
  // (instruction, stall reason) with samples to `out`, and the totals.
  Status Run(const std::function<Status()>& launch_and_wait, inject::OwnedSourceCounters& out);

  // Before the context goes (or at the end): sampling off.
  void Disable();

  // log2 of the cycles between two samples of one SM sub-partition.
  static constexpr std::uint32_t kSamplingPeriod = 9;

 private:
  Status Enable();
  Status Collect(inject::OwnedSourceCounters& out);

  CUcontext context_;
  bool enabled_ = false;
  std::vector<std::string> reason_names_;    // by position in reason_indices_
  std::vector<std::uint32_t> reason_indices_;  // CUPTI's indices, chip-specific
  CUpti_PCSamplingData config_buffer_{};     // CUPTI's own, set in the configuration
  CUpti_PCSamplingData data_{};              // where GetData copies to: must be another one
  std::vector<CUpti_PCSamplingPCData> config_pcs_, data_pcs_;
  std::vector<std::vector<CUpti_PCSamplingStallReason>> config_reasons_, data_reasons_;
};

}  // namespace gpuscope::cupti
