#include "cupti/common/cupti_error.h"

namespace gpuscope::cupti {

std::string CuptiResultName(CUptiResult result) {
  const char* name = nullptr;
  if (cuptiGetResultString(result, &name) == CUPTI_SUCCESS && name != nullptr) return name;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

Status CuptiStatus(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return Status();
  return Status::Error(std::string(what) + ": " + CuptiResultName(result));
}

}  // namespace gpuscope::cupti
