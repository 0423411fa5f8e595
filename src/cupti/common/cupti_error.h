// CUPTI status values as text for our one-line messages.
#pragma once

#include <cupti_result.h>

#include <string>

#include "util/status.h"

namespace gpuscope::cupti {

// "CUPTI_ERROR_NOT_INITIALIZED" (CUPTI's own name for the value).
std::string CuptiResultName(CUptiResult result);

// Ok for CUPTI_SUCCESS, else "<what>: <CUPTI_ERROR_...>".
Status CuptiStatus(CUptiResult result, const char* what);

}  // namespace gpuscope::cupti
