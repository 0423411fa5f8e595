// One profiled kernel launch as the metric sections, printers and rules see it: the launch
// (from the kernel's trace record), the device, and the evaluated metric values. Built by
// the store side from a report (profiled_kernels + kernel_metrics + kernels + devices);
// plain values only, no CUPTI and no SQLite.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "analysis/value_range.h"

namespace gpuscope::analysis::metrics {

struct ProfiledDevice {
  std::uint32_t id = 0;
  std::string name;  // "NVIDIA H200"
  std::uint32_t compute_major = 0;
  std::uint32_t compute_minor = 0;
  std::uint32_t num_sms = 0;
  std::uint32_t max_warps_per_sm = 0;
  std::uint32_t max_blocks_per_sm = 0;
  std::uint32_t max_registers_per_sm = 0;
  std::uint32_t max_shared_memory_per_sm = 0;
  std::uint32_t max_shared_memory_per_block_optin = 0;
  std::uint64_t global_memory_bandwidth_kbps = 0;
  std::uint32_t l2_cache_bytes = 0;
};

struct KernelProfile {
  std::int64_t id = 0;              // profiled_kernels.id in the report
  std::uint32_t profile_index = 0;  // n-th profiled kernel of the process (ncu's ID)
  std::uint32_t invocation = 0;     // n-th launch of this kernel name, selected or not
  std::uint32_t pid = 0;
  std::string mangled_name;
  std::string demangled_name;  // equal to mangled_name for C names
  std::string function_name;   // demangled, without parameters ("saxpy")
  // A range of the program measured as one result (--replay-mode app-range), not a launch:
  // the names are the range's, there is no launch configuration (zeros below).
  bool is_range = false;
  std::uint32_t range_kernels = 0;  // a range: the kernel launches it held
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t device_id = 0;
  // Launch configuration, from the kernel's trace record (zeros when it was not traced).
  std::array<std::int32_t, 3> grid{};
  std::array<std::int32_t, 3> block{};
  std::array<std::uint32_t, 3> cluster{};
  std::uint32_t registers_per_thread = 0;
  std::uint32_t static_shared_memory = 0;    // bytes per block
  std::uint32_t dynamic_shared_memory = 0;   // bytes per block
  std::uint32_t shared_memory_executed = 0;  // SM carveout the driver chose, bytes
  std::uint32_t local_memory_per_thread = 0;
  std::int64_t traced_duration_ns = -1;  // the unreplayed launch's duration; -1: unknown
  ProfiledDevice device;
  std::string chip;  // "GH100"
  std::uint32_t passes = 0;
  bool measured = false;  // false: `failure` says why there are no metric values
  std::string failure;
  // Evaluated metrics by name (as CUPTI names them). A metric of the request that could not
  // be evaluated, or whose value cannot be true, is absent; sections print "n/a" for it.
  std::map<std::string, double> metrics;
  // Stored values left out of `metrics` because they cannot be true (analysis/value_range.h).
  ImpossibleValueCounts impossible_values;

  // Its counter data was evaluated: it has values, or had only impossible ones.
  bool Evaluated() const { return !metrics.empty() || impossible_values.total() != 0; }
};

}  // namespace gpuscope::analysis::metrics
