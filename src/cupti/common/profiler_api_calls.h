// cudaProfilerStart/Stop and their driver calls, as CUPTI's callbacks name them: where
// --profile-from-start off turns tracing on and off, and where --replay-mode app-range's
// ranges begin and end.
#pragma once

#include <cupti.h>

namespace gpuscope::cupti {

bool IsProfilerStartCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
bool IsProfilerStopCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

}  // namespace gpuscope::cupti
