// The CUDA errors that leave a context unusable ("sticky" errors: every later call of the
// process returns them too, and only a new process recovers). A run that meets one is a run
// the user wants to see the end of, so the collector saves the report the moment a call
// returns one, and readers name the call that returned it.
//
// The CUDA runtime (cudaError_t) and the driver (CUresult) share these numbers; the names
// differ. The list follows the CUDA runtime API's error documentation ("the process is left in
// an inconsistent state and any further CUDA work will return the same error").
#pragma once

#include <cstdint>
#include <string_view>

#include "model/records.h"

namespace gpuscope::model {

struct StickyError {
  std::int32_t code;
  std::string_view runtime_name;
  std::string_view driver_name;
  std::string_view meaning;
};

inline constexpr StickyError kStickyErrors[] = {
    {700, "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS",
     "a kernel accessed an illegal memory address"},
    {702, "cudaErrorLaunchTimeout", "CUDA_ERROR_LAUNCH_TIMEOUT",
     "a kernel ran past the watchdog's time limit"},
    {710, "cudaErrorAssert", "CUDA_ERROR_ASSERT", "a device-side assert failed"},
    {714, "cudaErrorHardwareStackError", "CUDA_ERROR_HARDWARE_STACK_ERROR",
     "a kernel corrupted its call stack"},
    {715, "cudaErrorIllegalInstruction", "CUDA_ERROR_ILLEGAL_INSTRUCTION",
     "a kernel executed an illegal instruction"},
    {716, "cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS",
     "a kernel accessed a misaligned address"},
    {717, "cudaErrorInvalidAddressSpace", "CUDA_ERROR_INVALID_ADDRESS_SPACE",
     "a kernel accessed memory through the wrong address space"},
    {718, "cudaErrorInvalidPc", "CUDA_ERROR_INVALID_PC",
     "a kernel's program counter became invalid"},
    {719, "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED",
     "a kernel failed (an exception on the device)"},
};

inline constexpr const StickyError* FindStickyError(std::int32_t code) {
  for (const StickyError& error : kStickyErrors) {
    if (error.code == code) return &error;
  }
  return nullptr;
}

// The name a call of `domain` returns for `error`.
inline constexpr std::string_view StickyErrorName(const StickyError& error, ApiDomain domain) {
  return domain == ApiDomain::kDriver ? error.driver_name : error.runtime_name;
}

}  // namespace gpuscope::model
