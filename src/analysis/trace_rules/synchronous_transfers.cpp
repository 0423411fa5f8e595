// Rule synchronous_transfers: copies and memsets issued with a synchronous call
// (cudaMemcpy, cudaMemset, ...), which hold the calling host thread until the GPU is done.
//
// Copies that use pageable memory are left to pageable_copies (pinning them is the first fix
// and makes them asynchronous-capable); device-to-device copies are left out because
// cudaMemcpy returns before a device-to-device copy completes.
#include <string>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"
#include "util/units.h"

namespace gpuscope::analysis::trace_rules {
namespace {

bool UsesPageable(const GpuActivity& activity) {
  return activity.src_kind == model::MemoryKind::kPageable ||
         activity.dst_kind == model::MemoryKind::kPageable;
}

class SynchronousTransfersRule final : public TraceRule {
 public:
  void OnGpuActivity(const GpuActivity& activity) override {
    if (activity.kind == GpuActivityKind::kKernel || activity.is_async) return;
    if (activity.kind == GpuActivityKind::kMemcpy &&
        (UsesPageable(activity) || activity.copy_kind == model::CopyKind::kDtoD)) {
      return;
    }
    bool copy = activity.kind == GpuActivityKind::kMemcpy;
    ++(copy ? copies_ : memsets_);
    time_ns_ += activity.duration_ns();
    examples_.Offer(CiteActivity(
        activity, std::string(copy ? "synchronous copy of " : "synchronous memset of ") +
                      FormatBytes(activity.bytes)));
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    if (!WorthReporting(time_ns_, run)) return std::nullopt;
    Finding finding;
    finding.rule_id = "synchronous_transfers";
    // Estimated gain: the host thread waits for the whole transfer; issued asynchronously on
    // a stream, at best all of that time becomes available for other work.
    finding.est_gain_ns = time_ns_;
    finding.severity = SeverityFor(finding.est_gain_ns, run);
    finding.title = "Synchronous copies and memsets";
    finding.message =
        Count(copies_, "synchronous copy", "synchronous copies") + " and " +
        Count(memsets_, "synchronous memset", "synchronous memsets") + " took " +
        Duration(time_ns_) + ", " + Percent(ShareOfRun(time_ns_, run)) +
        " of the run, with the calling host thread blocked until each one ended. Use "
        "cudaMemcpyAsync / cudaMemsetAsync on a stream (pinned host memory) and synchronise "
        "once, where the result is needed (est. gain up to " +
        Duration(finding.est_gain_ns) + ", the blocked time).";
    finding.occurrences = copies_ + memsets_;
    finding.time_ns = time_ns_;
    finding.cited = examples_.Sorted();
    return finding;
  }

 private:
  std::uint64_t copies_ = 0;
  std::uint64_t memsets_ = 0;
  std::uint64_t time_ns_ = 0;
  ExampleRows examples_;
};

}  // namespace

std::unique_ptr<TraceRule> MakeSynchronousTransfersRule() {
  return std::make_unique<SynchronousTransfersRule>();
}

}  // namespace gpuscope::analysis::trace_rules
