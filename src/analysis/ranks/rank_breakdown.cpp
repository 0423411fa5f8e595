#include "analysis/ranks/rank_breakdown.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "analysis/collection_warnings.h"
#include "analysis/ranks/interval_union.h"
#include "analysis/ranks/nccl_api_calls.h"
#include "analysis/trace_rules/gpu_activity_stream.h"
#include "analysis/trace_rules/side_table.h"
#include "store/report_reader.h"

namespace gpuscope::analysis::ranks {

void OperationTotals::Add(std::uint64_t duration_ns, std::optional<std::uint64_t> size) {
  min_ns = count == 0 ? duration_ns : std::min(min_ns, duration_ns);
  max_ns = std::max(max_ns, duration_ns);
  ++count;
  total_ns += duration_ns;
  if (size) {
    bytes += *size;
  } else {
    ++without_bytes;
  }
}

void OperationTotals::Merge(const OperationTotals& other) {
  if (other.count == 0) return;
  min_ns = count == 0 ? other.min_ns : std::min(min_ns, other.min_ns);
  max_ns = std::max(max_ns, other.max_ns);
  count += other.count;
  total_ns += other.total_ns;
  bytes += other.bytes;
  without_bytes += other.without_bytes;
}

namespace {

// An API call as the idle-gap rule needs it: when it began, and what it launched.
struct LaunchCall {
  std::int64_t start = 0;
  std::uint32_t correlation_id = 0;
};

using CallQueue = trace_rules::RowQueue<LaunchCall>;

class BreakdownBuilder {
 public:
  BreakdownBuilder(CallQueue& calls, std::int64_t offset_ns, RankCommunication& out)
      : calls_(calls), offset_ns_(offset_ns), out_(out) {}

  void OnActivity(const GpuActivity& activity) {
    auto start = static_cast<std::int64_t>(activity.start);
    auto end = static_cast<std::int64_t>(activity.end);
    TakeCallsUntil(start);
    std::uint64_t gap = all_.Add(start, end);
    if (gap > 0) {
      (calls_in_gap_.contains(activity.correlation_id) ? host_idle_ : other_idle_) += gap;
    }
    // Every call taken so far began no later than `start`, so before any later gap begins.
    if (!calls_in_gap_.empty()) calls_in_gap_.clear();
    if (activity.kind != GpuActivityKind::kKernel) return;
    kernels_.Add(start, end);
    const std::string* kind = NcclKind(activity.kernel_name);
    if (kind == nullptr) {
      compute_.Add(start, end);
      return;
    }
    communication_.Add(start, end);
    out_.collectives.push_back({*kind, start + offset_ns_, end + offset_ns_});
    out_.nccl_kernels[*kind].Add(activity.duration_ns(), std::nullopt);
  }

  // The calls left after the last activity are read to the end, so that a failure to read
  // them is seen.
  void TakeRemainingCalls() {
    while (calls_.Peek()) calls_.Pop();
  }

  void Finish() {
    RankBreakdown& b = out_.breakdown;
    if (!all_.empty()) b.span_ns = static_cast<std::uint64_t>(all_.end() - all_.first_start());
    b.compute_ns = compute_.length();
    b.communication_ns = communication_.length();
    std::uint64_t both = b.compute_ns + b.communication_ns;
    b.overlap_ns = both > kernels_.length() ? both - kernels_.length() : 0;
    b.exposed_ns = b.communication_ns - std::min(b.communication_ns, b.overlap_ns);
    b.busy_ns = all_.length();
    b.idle_ns = b.span_ns - std::min(b.span_ns, b.busy_ns);
    b.idle_host_ns = host_idle_;
    b.idle_other_ns = other_idle_;
  }

 private:
  // Takes the API calls that began by `time`, remembering those that began inside the gap
  // now open (after everything so far ended).
  void TakeCallsUntil(std::int64_t time) {
    for (;;) {
      std::optional<LaunchCall> call = calls_.Peek();
      if (!call || call->start > time) return;
      if (!all_.empty() && call->start > all_.end()) calls_in_gap_.insert(call->correlation_id);
      calls_.Pop();
    }
  }

  // The collective of an NCCL kernel, nullptr for other kernels; names are interned by the
  // reader, so one look-up per distinct name.
  const std::string* NcclKind(std::string_view name) {
    auto [it, inserted] = kinds_.try_emplace(name.data());
    if (inserted && IsNcclKernel(name)) it->second = CollectiveKind(name);
    return it->second ? &*it->second : nullptr;
  }

  CallQueue& calls_;
  std::int64_t offset_ns_;
  RankCommunication& out_;
  IntervalUnion all_;      // kernels, copies, memsets
  IntervalUnion kernels_;  // all kernels
  IntervalUnion compute_;  // kernels that are not NCCL's
  IntervalUnion communication_;
  std::unordered_set<std::uint32_t> calls_in_gap_;
  std::uint64_t host_idle_ = 0;
  std::uint64_t other_idle_ = 0;
  std::unordered_map<const char*, std::optional<std::string>> kinds_;
};

}  // namespace

StatusOr<RankCommunication> ReadRankCommunication(const std::string& path, std::int64_t offset_ns) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  if (!reader.ok()) return reader.status();
  StatusOr<std::unique_ptr<store::ReportReader>> call_reader = store::ReportReader::Open(path);
  if (!call_reader.ok()) return call_reader.status();
  RankCommunication result;
  {
    trace_rules::SideTable<LaunchCall> calls(std::move(call_reader.value()), [](const store::
                                                                                    ReportReader&
                                                                                        side,
                                                                                CallQueue& queue) {
      return side.ForEachApiCall([&](const store::ApiCallRow& row) {
        // The runtime call is the launch; the driver call inside it began later.
        if (row.nested_in_runtime || row.record.start == 0) return true;
        return queue.Push({static_cast<std::int64_t>(row.record.start), row.record.correlation_id});
      });
    });
    BreakdownBuilder builder(calls.queue(), offset_ns, result);
    GPUSCOPE_RETURN_IF_ERROR(trace_rules::ForEachGpuActivity(
        **reader, [&](const GpuActivity& activity) { builder.OnActivity(activity); }));
    builder.TakeRemainingCalls();
    GPUSCOPE_RETURN_IF_ERROR(calls.queue().status());
    builder.Finish();
    for (const std::string& warning : SkippedRowWarnings(calls.reader())) {
      result.warnings.push_back(path + ": " + warning);
    }
  }
  GPUSCOPE_RETURN_IF_ERROR((*reader)->ForEachNvtx([&](const model::NvtxRecord& range) {
    if (std::optional<NcclApiCall> call = RecognizeNcclApiCall(range)) {
      result.nccl_api_calls[call->name].Add(range.end - range.start, call->bytes);
    }
    return true;
  }));
  std::vector<std::string> warnings = CollectionWarnings(**reader);
  for (const std::string& warning : SkippedRowWarnings(**reader)) warnings.push_back(warning);
  for (const std::string& warning : warnings) result.warnings.push_back(path + ": " + warning);
  return result;
}

}  // namespace gpuscope::analysis::ranks
