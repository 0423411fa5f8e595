// `--replay-mode app-range`: where the program's ranges begin and end, told by CUPTI's
// callbacks (CUPTI-bound but GPU-free, so the tests feed it real callback structs):
//   without --nvtx-include  cudaProfilerStart/cuProfilerStart (exit: the range holds what
//                           follows) to cudaProfilerStop/cuProfilerStop (enter: it holds what
//                           came before); the runtime call and its nested driver call are one
//                           boundary. Named "cudaProfilerStart/Stop range N" (N from 0).
//   with --nvtx-include     the NVTX ranges the filter matches (util/nvtx_range_filter.h):
//                           push/pop ranges per thread (nvtxRangePushA/Ex,
//                           nvtxDomainRangePushEx to the matching pop), start/end ranges by
//                           their id (nvtxRangeStartA/Ex, nvtxDomainRangeStartEx to the
//                           nvtxRangeEnd/nvtxDomainRangeEnd of that id). Named "name" in the
//                           default domain, "domain@name" in another one.
// Domains are known by name only when gpuscope saw their nvtxDomainCreateA (a domain created
// before CUDA loaded gpuscope has no name here, and matches no `domain@` spec). Wide-character
// and registered-string messages have no name here either.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "util/nvtx_range_filter.h"

namespace gpuscope::cupti {

struct RangeBoundary {
  enum class Kind { kNone, kBegin, kEnd };
  Kind kind = Kind::kNone;
  // Begin and end of one range carry the same token (a range ends only the range it began).
  std::uint64_t token = 0;
  std::string name;  // begin only
};

class RangeBoundaries {
 public:
  explicit RangeBoundaries(NvtxRangeFilter filter) : filter_(std::move(filter)) {}

  bool nvtx() const { return !filter_.empty(); }
  // The NVTX callbacks to enable (empty without --nvtx-include).
  std::vector<CUpti_CallbackId> NvtxCallbacks() const;

  // A runtime or driver API callback (cudaProfilerStart/Stop and their driver calls).
  RangeBoundary OnApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const CUpti_CallbackData& data);
  // An NVTX callback (CUPTI calls it after the NVTX function ran: the return value is set).
  // `thread`: the calling thread (push/pop ranges pair per thread).
  RangeBoundary OnNvtxCallback(CUpti_CallbackId cbid, const CUpti_NvtxData& data,
                               std::thread::id thread = std::this_thread::get_id());

 private:
  RangeBoundary Begin(std::uint64_t token, std::string name);
  RangeBoundary PushRange(std::thread::id thread, const void* domain, const char* message);
  RangeBoundary PopRange(std::thread::id thread);
  RangeBoundary StartRange(const void* domain, const char* message, const void* returned_id);
  RangeBoundary EndRange(std::uint64_t id);
  std::string DomainName(const void* domain) const;

  const NvtxRangeFilter filter_;
  std::mutex mutex_;
  // cudaProfilerStart/Stop
  bool profiler_range_open_ = false;
  std::uint32_t profiler_ranges_ = 0;
  // Per thread, one entry per open push: the token of a matched range, else 0.
  std::map<std::thread::id, std::vector<std::uint64_t>> push_stacks_;
  std::uint64_t next_push_token_ = 1;
  // nvtxRangeStart ids of matched ranges still open.
  std::unordered_set<std::uint64_t> open_start_ids_;
  std::unordered_map<const void*, std::string> domains_;  // nvtxDomainHandle_t -> name
};

}  // namespace gpuscope::cupti
