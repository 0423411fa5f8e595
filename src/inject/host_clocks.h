// The host's clocks for a clock sample (model::ClockSampleRecord): CLOCK_REALTIME and
// CLOCK_MONOTONIC_RAW, read right after CUPTI's clock. Vendor-neutral: the tracing backend
// reads CUPTI's clock (and a device's) and calls this.
#pragma once

#include "model/records.h"

namespace gpuscope::inject {

// A sample of the host clocks only (no device), CUPTI's clock having read `cupti_now` just
// before. Async-signal-safe (clock_gettime), never throws.
model::ClockSampleRecord HostClockSample(model::Timestamp cupti_now);

}  // namespace gpuscope::inject
