// The hot no-op CUDA calls that `--api-capture callback` counts per thread and function
// instead of recording one row each: queries that return at once and that frameworks make
// around every operation (PyTorch calls cudaGetDevice and cudaStreamIsCapturing several
// times per op; the runtime's error checks call cudaGetLastError). One row per call would
// cost more than the calls themselves; their count, total, min and max time keep the API
// summary right (store: api_call_counts).
//
// Chosen: device, context and version queries, capture-state queries, error-state reads
// and the two capture-mode exchanges. Not chosen: anything that may wait, allocate, create
// a context or change state the trace should show (cudaSetDevice can create a context,
// cudaPointerGetAttributes can fault a page in).
#pragma once

#include <cupti.h>

namespace gpuscope::cupti {

// Slots 0 .. kHotCallSlots-1, one per (domain, callback id) of the list.
inline constexpr int kHotCallSlots = 40;

// The slot of a hot call, -1 for any other call.
int HotCallSlot(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

struct HotCall {
  CUpti_CallbackDomain domain = CUPTI_CB_DOMAIN_INVALID;  // INVALID: an unused slot
  CUpti_CallbackId cbid = 0;
};
// The call a slot counts.
HotCall HotCallOfSlot(int slot);

}  // namespace gpuscope::cupti
