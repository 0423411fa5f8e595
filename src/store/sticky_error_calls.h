// The first API call of a report that returned a sticky CUDA error (model/sticky_errors.h):
// which call, when, on which thread, and how many calls failed with a sticky error in all.
// Readers put it first among a report's warnings: it is why a crashed run ended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/records.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

struct StickyErrorCalls {
  std::string first_call;  // e.g. "cudaDeviceSynchronize"
  model::ApiDomain domain = model::ApiDomain::kRuntime;
  std::int32_t code = 0;
  model::Timestamp start = 0;  // absolute, the clock of the report's records
  std::uint32_t thread_id = 0;
  std::uint64_t failed_calls = 0;  // calls that returned a sticky error, the first included
};

// nullopt when no call returned a sticky error. Driver calls made inside a runtime call are
// left out: the runtime call that returned the error is the one the program saw.
StatusOr<std::optional<StickyErrorCalls>> FindStickyErrorCalls(const ReportReader& report);

}  // namespace gpuscope::store
