#include "cupti/tracing/hot_api_calls.h"

namespace gpuscope::cupti {
namespace {

constexpr CUpti_CallbackId kRuntimeHot[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010,
};

constexpr CUpti_CallbackId kDriverHot[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice_v2,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetId,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGet,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount,
    CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute,
    CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState,
    CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion,
    CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing,
    CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo,
    CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3,
    CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuGetErrorName,
    CUPTI_DRIVER_TRACE_CBID_cuGetErrorString,
    CUPTI_DRIVER_TRACE_CBID_cuThreadExchangeStreamCaptureMode,
};

constexpr int kRuntimeCount = static_cast<int>(sizeof(kRuntimeHot) / sizeof(kRuntimeHot[0]));
constexpr int kDriverCount = static_cast<int>(sizeof(kDriverHot) / sizeof(kDriverHot[0]));
static_assert(kRuntimeCount + kDriverCount <= kHotCallSlots);

// Callback id -> slot + 1 (0: not hot), one small table per domain, built at compile time:
// the lookup on every callback is one bounds check and one load.
template <std::size_t N>
struct SlotTable {
  unsigned char slot_plus_one[N] = {};
};

template <std::size_t N, std::size_t M>
constexpr SlotTable<N> MakeTable(const CUpti_CallbackId (&ids)[M], int first_slot) {
  SlotTable<N> table;
  for (std::size_t i = 0; i < M; ++i) {
    table.slot_plus_one[ids[i]] = static_cast<unsigned char>(first_slot + static_cast<int>(i) + 1);
  }
  return table;
}

constexpr std::size_t kRuntimeIds = CUPTI_RUNTIME_TRACE_CBID_SIZE;
constexpr std::size_t kDriverIds = CUPTI_DRIVER_TRACE_CBID_SIZE;
constexpr SlotTable<kRuntimeIds> kRuntimeSlots = MakeTable<kRuntimeIds>(kRuntimeHot, 0);
constexpr SlotTable<kDriverIds> kDriverSlots = MakeTable<kDriverIds>(kDriverHot, kRuntimeCount);

}  // namespace

int HotCallSlot(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    return cbid < kRuntimeIds ? kRuntimeSlots.slot_plus_one[cbid] - 1 : -1;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    return cbid < kDriverIds ? kDriverSlots.slot_plus_one[cbid] - 1 : -1;
  }
  return -1;
}

HotCall HotCallOfSlot(int slot) {
  if (slot >= 0 && slot < kRuntimeCount) return {CUPTI_CB_DOMAIN_RUNTIME_API, kRuntimeHot[slot]};
  if (slot >= kRuntimeCount && slot < kRuntimeCount + kDriverCount) {
    return {CUPTI_CB_DOMAIN_DRIVER_API, kDriverHot[slot - kRuntimeCount]};
  }
  return {};
}

}  // namespace gpuscope::cupti
