// Rule allocation_in_loop: device memory allocated and freed over and over with the same size,
// the signature of cudaMalloc/cudaFree inside a loop. Both calls are expensive (cudaFree
// synchronises the device) and the buffer could be allocated once, or taken from a pool
// (cudaMallocAsync).
//
// Memory records come first: an allocation of a size whose earlier allocation was freed is a
// reallocation; it and the free before it are the calls a loop repeats. Their correlation ids
// then pick the API calls, whose time is what the loop costs.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"
#include "util/units.h"

namespace gpuscope::analysis::trace_rules {
namespace {

// Fewer reallocations than this is setup and teardown (a buffer resized once or twice), not a
// loop.
constexpr std::uint64_t kMinReallocations = 10;
// Sizes tracked per device; a program allocating more distinct sizes than this is not
// repeating one buffer.
constexpr std::size_t kMaxSizesTracked = 4096;
// Correlation ids kept to find the loop's API calls (4 bytes each, 4 MB at most); beyond
// this the time of the calls found is scaled up to all reallocations.
constexpr std::size_t kMaxCallsTracked = 1 << 20;
// Sizes named in the message; more would not help the reader find the loop.
constexpr std::size_t kSizesNamed = 3;

class AllocationInLoopRule final : public TraceRule {
 public:
  void OnMemory(const model::MemoryRecord& record) override {
    // Stream-ordered allocations come from a pool: they are the cure, not the problem.
    if (record.is_async) return;
    auto key = std::make_pair(record.device_id, record.bytes);
    auto size = sizes_.find(key);
    if (size == sizes_.end()) {
      if (sizes_.size() >= kMaxSizesTracked) return;
      size = sizes_.emplace(key, Size{}).first;
    }
    if (record.op == model::MemoryOp::kFree) {
      ++size->second.freed;
      size->second.last_free = record.correlation_id;
      return;
    }
    if (size->second.freed == 0) return;
    --size->second.freed;
    ++reallocations_;
    if (sizes_reallocated_.size() < kSizesNamed) sizes_reallocated_.insert(record.bytes);
    Track(size->second.last_free);
    Track(record.correlation_id);
  }

  void OnApiCall(const store::ApiCallRow& call) override {
    if (!sorted_) {
      std::sort(calls_.begin(), calls_.end());
      sorted_ = true;
    }
    if (!std::binary_search(calls_.begin(), calls_.end(), call.record.correlation_id)) return;
    if (call.nested_in_runtime) return;  // the runtime call around it is counted
    std::uint64_t duration =
        call.record.end > call.record.start ? call.record.end - call.record.start : 0;
    ++calls_found_;
    calls_ns_ += duration;
    examples_.Offer(CitedRow{"api_calls", call.record.correlation_id, call.record.start, duration,
                             std::string(call.record.name) + " repeated in a loop"});
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    if (reallocations_ < kMinReallocations) return std::nullopt;
    std::uint64_t time_ns = calls_ns_;
    if (calls_untracked_ > 0 && calls_found_ > 0) {
      time_ns = static_cast<std::uint64_t>(static_cast<double>(calls_ns_) *
                                           static_cast<double>(calls_found_ + calls_untracked_) /
                                           static_cast<double>(calls_found_));
    }
    if (!WorthReporting(time_ns, run)) return std::nullopt;
    Finding finding;
    finding.rule_id = "allocation_in_loop";
    // Estimated gain: allocated once (or from a pool) the repeated calls cost nothing.
    finding.est_gain_ns = time_ns;
    finding.severity = SeverityFor(finding.est_gain_ns, run);
    finding.title = "Allocation and free inside a loop";
    std::string sizes;
    for (std::uint64_t bytes : sizes_reallocated_) {
      sizes += (sizes.empty() ? "" : ", ") + FormatBytes(bytes);
    }
    if (sizes_reallocated_.size() >= kSizesNamed) sizes += ", ...";
    finding.message =
        "Device memory of the same size (" + sizes + ") was freed and allocated again " +
        Count(reallocations_, "time", "times") + "; those cudaMalloc/cudaFree calls took " +
        Duration(time_ns) + ", " + Percent(ShareOfRun(time_ns, run)) +
        " of the run (cudaFree also waits for the device). Allocate the buffers once outside "
        "the loop, or use cudaMallocAsync/cudaFreeAsync, which reuse a pool (est. gain " +
        Duration(finding.est_gain_ns) + ", the calls' time).";
    finding.occurrences = reallocations_;
    finding.time_ns = time_ns;
    finding.cited = examples_.Sorted();
    return finding;
  }

 private:
  struct Size {
    std::uint64_t freed = 0;  // frees not yet matched by a later allocation
    std::uint32_t last_free = 0;
  };

  void Track(std::uint32_t correlation_id) {
    if (calls_.size() < kMaxCallsTracked) {
      calls_.push_back(correlation_id);
    } else {
      ++calls_untracked_;
    }
  }

  std::map<std::pair<std::uint32_t, std::uint64_t>, Size> sizes_;  // (device, bytes)
  std::set<std::uint64_t> sizes_reallocated_;                      // the first few, for the message
  std::uint64_t reallocations_ = 0;
  std::vector<std::uint32_t> calls_;  // correlation ids of the loop's calls
  std::uint64_t calls_untracked_ = 0;
  bool sorted_ = false;
  std::uint64_t calls_found_ = 0;
  std::uint64_t calls_ns_ = 0;
  ExampleRows examples_;
};

}  // namespace

std::unique_ptr<TraceRule> MakeAllocationInLoopRule() {
  return std::make_unique<AllocationInLoopRule>();
}

}  // namespace gpuscope::analysis::trace_rules
