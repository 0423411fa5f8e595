// The production TracingBackend: CUPTI's activity and callback APIs.
#pragma once

#include <memory>

#include "inject/tracing_backend.h"

namespace gpuscope::cupti {

std::unique_ptr<inject::TracingBackend> MakeCuptiBackend();

}  // namespace gpuscope::cupti
