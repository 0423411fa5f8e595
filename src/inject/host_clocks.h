// The host's clocks for a clock sample (model::ClockSampleRecord): CLOCK_REALTIME and
// CLOCK_MONOTONIC_RAW, read right after CUPTI's clock. Vendor-neutral: the tracing backend
// reads CUPTI's clock (and a device's) and calls this.
//
// A GPU pair (a device's own timestamp against the host clocks) cannot be read at one instant:
// the GPU's clock is read by a kernel, somewhere between the host reads before its launch and
// after its value was seen. GpuClockPair stores the host clocks at the middle of that window
// and half the window as the pair's uncertainty: the GPU read lies within +- that of them.
#pragma once

#include <cstdint>
#include <optional>

#include "model/records.h"

namespace gpuscope::inject {

// One read of the host clocks (CUPTI's given, the two host clocks read right after it).
struct HostClockRead {
  model::Timestamp cupti_ns = 0;
  std::int64_t realtime_ns = 0;
  std::int64_t monotonic_ns = 0;
};

// CLOCK_REALTIME and CLOCK_MONOTONIC_RAW read now, CUPTI's clock having read `cupti_now`
// just before. Async-signal-safe (clock_gettime), never throws.
HostClockRead ReadHostClocks(model::Timestamp cupti_now);

// A sample of the host clocks only (no device).
model::ClockSampleRecord HostClockSample(model::Timestamp cupti_now);

// The GPU pair of `device_id` whose timestamp `gpu_ns` was read between `before` and
// `after`: each host clock at the middle of the window, gpu_uncertainty_ns half the window on
// CLOCK_MONOTONIC_RAW (rounded up). nullopt when a clock went backwards between the reads
// (CLOCK_REALTIME stepped, or the reads were swapped) or a read failed (0): such a pair
// would claim a precision it does not have.
std::optional<model::ClockSampleRecord> GpuClockPair(const HostClockRead& before,
                                                      const HostClockRead& after,
                                                      std::uint32_t device_id,
                                                      std::int64_t gpu_ns);

}  // namespace gpuscope::inject
