// Rule pageable_copies: copies to or from pageable host memory.
//
// The driver copies pageable memory through a pinned staging buffer, chunk by chunk, so such
// a copy is slower than one from pinned memory and can never overlap with kernels or other
// copies, even when issued with cudaMemcpyAsync.
#include <string>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"
#include "util/units.h"

namespace gpuscope::analysis::trace_rules {
namespace {

// Estimated gain: a staged copy typically reaches about half of the bandwidth of the same
// copy from pinned memory (the staging copy on the host and the DMA alternate), so pinning
// the buffer saves about half of the copy time. Overlap gained with async copies comes on top
// and is not counted.
constexpr double kPinnedGainShare = 0.5;

class PageableCopiesRule final : public TraceRule {
 public:
  void OnGpuActivity(const GpuActivity& activity) override {
    if (activity.kind != GpuActivityKind::kMemcpy) return;
    if (activity.src_kind != model::MemoryKind::kPageable &&
        activity.dst_kind != model::MemoryKind::kPageable) {
      return;
    }
    ++copies_;
    bytes_ += activity.bytes;
    time_ns_ += activity.duration_ns();
    examples_.Offer(CiteActivity(
        activity, FormatBytes(activity.bytes) + " " +
                      (activity.src_kind == model::MemoryKind::kPageable ? "from pageable memory"
                                                                         : "to pageable memory")));
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    if (!WorthReporting(time_ns_, run)) return std::nullopt;
    Finding finding;
    finding.rule_id = "pageable_copies";
    finding.est_gain_ns =
        static_cast<std::uint64_t>(static_cast<double>(time_ns_) * kPinnedGainShare);
    finding.severity = SeverityFor(finding.est_gain_ns, run);
    finding.title = "Copies from or to pageable host memory";
    finding.message =
        Count(copies_, "copy", "copies") + " (" + FormatBytes(bytes_) +
        ") used pageable host memory and took " + Duration(time_ns_) + ", " +
        Percent(ShareOfRun(time_ns_, run)) +
        " of the run. The driver stages such copies through a pinned buffer: they run at "
        "about half the bandwidth and cannot overlap with kernels. Allocate the host buffers "
        "with cudaMallocHost or register them with cudaHostRegister (est. gain " +
        Duration(finding.est_gain_ns) + ", half of the copy time).";
    finding.occurrences = copies_;
    finding.time_ns = time_ns_;
    finding.cited = examples_.Sorted();
    return finding;
  }

 private:
  std::uint64_t copies_ = 0;
  std::uint64_t bytes_ = 0;
  std::uint64_t time_ns_ = 0;
  ExampleRows examples_;
};

}  // namespace

std::unique_ptr<TraceRule> MakePageableCopiesRule() {
  return std::make_unique<PageableCopiesRule>();
}

}  // namespace gpuscope::analysis::trace_rules
