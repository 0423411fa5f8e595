// The metric sets of `gpuscope run --gpu-metrics` (hardware counters sampled over the whole run
// with CUPTI's PM sampling, as Nsight Systems' --gpu-metrics-set): data only, no CUPTI, so that
// the CLI (listing, checking against the chip's catalog), the injection (configuring CUPTI) and
// the analysis (finding "SM active" or DRAM bandwidth among a report's metrics) share one list.
//
// Every name is a CUPTI PM sampling metric of GH100 (H100/H200), checked GPU-free against the
// Profiler Host API's PM sampling catalog for chip GH100 (tests/cupti/host/gpu_metric_sets_test):
// PM sampling has its own catalog (the *_realtime counters exist only there) and a config must
// fit in one pass.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace gpuscope {

// What a metric means to the analysis (the trace rule, the summaries): found by role, never by
// CUPTI name, so that another chip's set can use other names for the same idea.
enum class GpuMetricRole : std::uint8_t {
  kOther = 0,
  kSmActive,       // % of elapsed cycles with at least one warp in flight, averaged over SMs
  kSmIssue,        // % of peak instruction issue
  kWarpsInFlight,  // % of the SMs' warp slots in use (achieved occupancy)
  kTensorActive,   // % of cycles the tensor pipe was busy
  kDramRead,       // byte/second read from DRAM
  kDramWrite,      // byte/second written to DRAM
  kDramThroughput, // % of peak DRAM throughput
  kPcieRead,       // byte/second
  kPcieWrite,      // byte/second
  kNvlinkReceive,  // byte/second
  kNvlinkTransmit, // byte/second
};

struct GpuMetricSpec {
  std::string_view name;   // CUPTI's full metric name
  std::string_view label;  // what the report, the viewer and `stats` call it
  std::string_view unit;   // "%" or "byte/second"
  GpuMetricRole role = GpuMetricRole::kOther;
  // Counted only where the hardware has it (NVLink: not on PCIe cards): when the device refuses
  // the set, it is configured again without these.
  bool only_where_present = false;
};

struct GpuMetricSet {
  std::string_view name;
  std::string_view description;
  std::span<const GpuMetricSpec> metrics;
};

inline constexpr std::string_view kDefaultGpuMetricSet = "default";
// Samples per second (Nsight Systems' default is 10 kHz too).
inline constexpr std::uint32_t kDefaultGpuMetricsFrequencyHz = 10'000;
// The range --gpu-metrics-frequency accepts: below 10 Hz a sample spans most kernels; above
// 200 kHz (5 us) the hardware buffer fills faster than it can be decoded.
inline constexpr std::uint32_t kMinGpuMetricsFrequencyHz = 10;
inline constexpr std::uint32_t kMaxGpuMetricsFrequencyHz = 200'000;

std::span<const GpuMetricSet> GpuMetricSets();
// Case-sensitive; nullptr for an unknown name.
const GpuMetricSet* FindGpuMetricSet(std::string_view name);

}  // namespace gpuscope
