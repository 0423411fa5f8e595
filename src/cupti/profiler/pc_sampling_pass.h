// One pass of CUPTI's PC sampling over a replayed launch: warp stall reasons sampled per SASS
// instruction. Enabled for the pass and disabled after it: CUPTI's range profiler cannot start
// in a context where sampling is enabled (CUPTI_ERROR_INVALID_PARAMETER, H100, 2026-11-25).
// Enabling costs ~0.13 s with the 32 MiB hardware buffer set here.
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

  // Sampling off (after each pass; idempotent).
  void Disable();

  // log2 of the cycles between two samples of one SM sub-partition.
  static constexpr std::uint32_t kSamplingPeriod = 9;
  static constexpr std::size_t kHardwareBufferBytes = std::size_t{32} << 20;

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
