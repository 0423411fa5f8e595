// Devices as CUPTI describes them, for reports and records built in tests and benchmarks.
#pragma once

#include "model/records.h"

namespace gpuscope::store::testing {

// The H200 (GH100, 132 SMs) of our test machine with the limits CUPTI's device record gave
// there: what analyses that need a device (occupancy, rooflines) should see.
model::DeviceRecord H200();

}  // namespace gpuscope::store::testing
