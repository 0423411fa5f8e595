// The production TracingBackend: CUPTI's activity and callback APIs.
#pragma once

#include <memory>

#include "inject/tracing_backend.h"

namespace gpuscope::inject::cupti {

std::unique_ptr<TracingBackend> MakeCuptiBackend();

}  // namespace gpuscope::inject::cupti
