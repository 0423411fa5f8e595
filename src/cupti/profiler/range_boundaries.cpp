#include "cupti/profiler/range_boundaries.h"

#include <generated_nvtx_meta.h>

#include "cupti/common/profiler_api_calls.h"

namespace gpuscope::cupti {
namespace {

// Push/pop tokens and start/end ids must never meet: start/end ids keep their value, push
// tokens have the top bit set, the profiler range is token 1 in a space of its own (bit 62).
constexpr std::uint64_t kPushTokenBit = 1ull << 63;
constexpr std::uint64_t kProfilerToken = 1ull << 62;

// The ASCII message of an event attribute structure; nullptr for any other kind.
const char* AsciiMessage(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr || attributes->messageType != NVTX_MESSAGE_TYPE_ASCII) return nullptr;
  return attributes->message.ascii;
}

}  // namespace

std::vector<CUpti_CallbackId> RangeBoundaries::NvtxCallbacks() const {
  std::vector<CUpti_CallbackId> ids;
  if (filter_.empty()) return ids;
  ids.push_back(CUPTI_CBID_NVTX_nvtxDomainCreateA);
  if (filter_.Wants(NvtxRangeKind::kPushPop)) {
    for (CUpti_CallbackId id : {CUPTI_CBID_NVTX_nvtxRangePushA, CUPTI_CBID_NVTX_nvtxRangePushW,
                                CUPTI_CBID_NVTX_nvtxRangePushEx, CUPTI_CBID_NVTX_nvtxRangePop,
                                CUPTI_CBID_NVTX_nvtxDomainRangePushEx,
                                CUPTI_CBID_NVTX_nvtxDomainRangePop}) {
      ids.push_back(id);
    }
  }
  if (filter_.Wants(NvtxRangeKind::kStartEnd)) {
    for (CUpti_CallbackId id : {CUPTI_CBID_NVTX_nvtxRangeStartA, CUPTI_CBID_NVTX_nvtxRangeStartEx,
                                CUPTI_CBID_NVTX_nvtxRangeEnd,
                                CUPTI_CBID_NVTX_nvtxDomainRangeStartEx,
                                CUPTI_CBID_NVTX_nvtxDomainRangeEnd}) {
      ids.push_back(id);
    }
  }
  return ids;
}

RangeBoundary RangeBoundaries::Begin(std::uint64_t token, std::string name) {
  RangeBoundary boundary;
  boundary.kind = RangeBoundary::Kind::kBegin;
  boundary.token = token;
  boundary.name = std::move(name);
  return boundary;
}

RangeBoundary RangeBoundaries::OnApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                             const CUpti_CallbackData& data) {
  if (nvtx()) return {};
  std::lock_guard<std::mutex> lock(mutex_);
  // The runtime call and the driver call nested in it are one boundary: the first callback
  // that finds the range in the other state takes it.
  if (IsProfilerStartCall(domain, cbid) && data.callbackSite == CUPTI_API_EXIT &&
      !profiler_range_open_) {
    profiler_range_open_ = true;
    return Begin(kProfilerToken,
                 "cudaProfilerStart/Stop range " + std::to_string(profiler_ranges_++));
  }
  if (IsProfilerStopCall(domain, cbid) && data.callbackSite == CUPTI_API_ENTER &&
      profiler_range_open_) {
    profiler_range_open_ = false;
    return {RangeBoundary::Kind::kEnd, kProfilerToken, {}};
  }
  return {};
}

std::string RangeBoundaries::DomainName(const void* domain) const {
  if (domain == nullptr) return {};
  auto found = domains_.find(domain);
  return found == domains_.end() ? std::string() : found->second;
}

RangeBoundary RangeBoundaries::PushRange(std::thread::id thread, const void* domain,
                                         const char* message) {
  std::vector<std::uint64_t>& stack = push_stacks_[thread];
  const std::string domain_name = DomainName(domain);
  if (message == nullptr || !filter_.Matches(NvtxRangeKind::kPushPop, domain_name, message)) {
    stack.push_back(0);
    return {};
  }
  const std::uint64_t token = kPushTokenBit | next_push_token_++;
  stack.push_back(token);
  return Begin(token, NvtxRangeDisplayName(domain_name, message));
}

RangeBoundary RangeBoundaries::PopRange(std::thread::id thread) {
  auto found = push_stacks_.find(thread);
  if (found == push_stacks_.end() || found->second.empty()) return {};  // a pop without push
  const std::uint64_t token = found->second.back();
  found->second.pop_back();
  if (found->second.empty()) push_stacks_.erase(found);
  if (token == 0) return {};
  return {RangeBoundary::Kind::kEnd, token, {}};
}

RangeBoundary RangeBoundaries::StartRange(const void* domain, const char* message,
                                          const void* returned_id) {
  if (message == nullptr || returned_id == nullptr) return {};
  const std::string domain_name = DomainName(domain);
  if (!filter_.Matches(NvtxRangeKind::kStartEnd, domain_name, message)) return {};
  const std::uint64_t id = *static_cast<const nvtxRangeId_t*>(returned_id);
  if (id == 0 || (id & (kPushTokenBit | kProfilerToken)) != 0) return {};
  open_start_ids_.insert(id);
  return Begin(id, NvtxRangeDisplayName(domain_name, message));
}

RangeBoundary RangeBoundaries::EndRange(std::uint64_t id) {
  if (open_start_ids_.erase(id) == 0) return {};
  return {RangeBoundary::Kind::kEnd, id, {}};
}

RangeBoundary RangeBoundaries::OnNvtxCallback(CUpti_CallbackId cbid, const CUpti_NvtxData& data,
                                              std::thread::id thread) {
  if (!nvtx() || data.functionParams == nullptr) return {};
  std::lock_guard<std::mutex> lock(mutex_);
  const void* params = data.functionParams;
  switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
      const auto* p = static_cast<const nvtxDomainCreateA_params*>(params);
      if (p->name != nullptr && data.functionReturnValue != nullptr) {
        domains_[*static_cast<const nvtxDomainHandle_t*>(data.functionReturnValue)] = p->name;
      }
      return {};
    }
    case CUPTI_CBID_NVTX_nvtxRangePushA:
      return PushRange(thread, nullptr, static_cast<const nvtxRangePushA_params*>(params)->message);
    case CUPTI_CBID_NVTX_nvtxRangePushW:  // no name here, but the pop must pair
      return PushRange(thread, nullptr, nullptr);
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
      return PushRange(thread, nullptr,
                       AsciiMessage(static_cast<const nvtxRangePushEx_params*>(params)->eventAttrib));
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
      const auto* p = static_cast<const nvtxDomainRangePushEx_params*>(params);
      return PushRange(thread, p->domain, AsciiMessage(p->core.eventAttrib));
    }
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
      return PopRange(thread);
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
      return StartRange(nullptr, static_cast<const nvtxRangeStartA_params*>(params)->message,
                        data.functionReturnValue);
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
      return StartRange(nullptr,
                        AsciiMessage(static_cast<const nvtxRangeStartEx_params*>(params)->eventAttrib),
                        data.functionReturnValue);
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
      const auto* p = static_cast<const nvtxDomainRangeStartEx_params*>(params);
      return StartRange(p->domain, AsciiMessage(p->core.eventAttrib), data.functionReturnValue);
    }
    case CUPTI_CBID_NVTX_nvtxRangeEnd:
      return EndRange(static_cast<const nvtxRangeEnd_params*>(params)->id);
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
      return EndRange(static_cast<const nvtxDomainRangeEnd_params*>(params)->core.id);
    default:
      return {};
  }
}

}  // namespace gpuscope::cupti
