// Facts about a counter-data image that need no host object (and no chip).
#include <cupti_pmsampling.h>
#include <cupti_range_profiler.h>

#include "cupti/host/host_object.h"
#include "cupti/host/metric_host.h"

namespace gpuscope::cupti::host {

StatusOr<std::size_t> CounterDataRangeCount(std::span<const std::uint8_t> counter_data) {
  if (counter_data.empty()) return Status::Error("the counter data is empty");
  auto params = ZeroedParams<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  GPUSCOPE_RETURN_IF_ERROR(HostCuptiStatus(cuptiRangeProfilerGetCounterDataInfo(&params),
                                           "cannot read the counter data"));
  return params.numTotalRanges;
}

StatusOr<std::size_t> PmSamplingSampleCount(std::span<const std::uint8_t> counter_data) {
  if (counter_data.empty()) return Status::Error("the counter data is empty");
  auto params = ZeroedParams<CUpti_PmSampling_GetCounterDataInfo_Params>(
      CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  GPUSCOPE_RETURN_IF_ERROR(HostCuptiStatus(cuptiPmSamplingGetCounterDataInfo(&params),
                                           "cannot read the PM sampling counter data"));
  return params.numCompletedSamples;
}

}  // namespace gpuscope::cupti::host
