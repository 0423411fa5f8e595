// Records whose fields each hold a value of their own: no field repeats another field's
// value in the same record (for the `i` the tests use, 0..2), and every field is off its
// default for some `i` (flags and optional fields alternate with `i`). A writer or reader
// that stores one column in another, or drops one, is caught by comparing what comes back
// with what went in. The values need not describe a real launch.
#pragma once

#include "model/records.h"

namespace gpuscope::store::testing {

// Absolute timestamps in the range CUPTI produces (CLOCK_REALTIME ns, 2025).
inline constexpr model::Timestamp kSampleStart = 1'760'000'000'123'456'789ull;

// `i` varies the values (times grow with it); string views point to static storage.
model::KernelRecord SampleKernel(int i);
model::MemcpyRecord SampleMemcpy(int i);
model::MemsetRecord SampleMemset(int i);
model::ApiCallRecord SampleApiCall(int i);
model::MemoryRecord SampleMemory(int i);
model::SyncRecord SampleSync(int i);
model::NvtxRecord SampleNvtx(int i);
model::OverheadRecord SampleOverhead(int i);
model::DeviceRecord SampleDevice(int i);

}  // namespace gpuscope::store::testing
