// CUPTI activity records -> model records: the one place that knows CUPTI's structs.
//
// Walks a completed buffer with cuptiActivityGetNextRecord (never by sizeof: record
// versions only append fields, and CUPTI knows each record's real size) and translates
// CUpti_ActivityKernel10, Memcpy6, MemcpyPtoP4, Memset4, API (runtime and driver), GraphTrace2,
// Memory4, Synchronization2, Marker2, MarkerData2, Overhead3, Device5 and Context3.
// Anything else is counted as unknown. Strings CUPTI owns (kernel names, NVTX names) are
// passed as views; the sink copies or interns them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cupti/common/api_names.h"
#include "inject/collector.h"
#include "inject/record_router.h"

namespace gpuscope::cupti {

class ActivityTranslator : public inject::BufferTranslator {
 public:
  void Translate(std::uint8_t* buffer, std::size_t valid_bytes,
                 inject::RecordRouter& router) override;
  // `--api-capture callback`'s buffers (inject/captured_api_calls.h): calls become top-level
  // API call records, counts api_call_counts rows, named as CUPTI names the callback ids.
  void TranslateCapturedCalls(std::uint8_t* buffer, std::size_t valid_bytes,
                              inject::RecordRouter& router) override;
  void TallyLateRecords(std::uint8_t* buffer, std::size_t valid_bytes,
                        inject::LateRecords& late) override;
  void TallyLateCapturedCalls(std::uint8_t* buffer, std::size_t valid_bytes,
                              inject::LateRecords& late) override;

 private:
  ApiNameCache api_names_;
};

}  // namespace gpuscope::cupti
