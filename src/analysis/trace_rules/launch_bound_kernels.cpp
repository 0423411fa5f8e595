// Rule launch_bound_kernels: long runs of tiny kernels, one after the other, where the GPU
// spends more time between kernels (launch cost) than in them.
#include <algorithm>
#include <map>
#include <string>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"

namespace gpuscope::analysis::trace_rules {
namespace {

// A kernel shorter than 5 us cannot hide the cost of its own launch (a few microseconds of
// driver and front-end work on current GPUs), so a series of them is paced by launches.
constexpr std::uint64_t kTinyKernelNs = 5'000;
// Gaps longer than this between two tiny kernels are not launch cost but host work
// (idle_gaps reports those): they end the stretch.
constexpr std::uint64_t kMaxLaunchGapNs = 50'000;
// Fewer kernels than this in a row is a pattern that fusion or a CUDA graph would not pay
// for.
constexpr std::uint64_t kMinStretchKernels = 20;

class LaunchBoundKernelsRule final : public TraceRule {
 public:
  void OnGpuActivity(const GpuActivity& activity) override {
    if (activity.kind != GpuActivityKind::kKernel) return;
    Stretch& stretch = stretches_[activity.device_id];
    bool tiny = activity.duration_ns() < kTinyKernelNs;
    bool continues = stretch.kernels > 0 && activity.start >= stretch.end &&
                     activity.start - stretch.end <= kMaxLaunchGapNs;
    if (stretch.kernels > 0 && (!tiny || !continues)) Close(stretch);
    if (!tiny) return;
    if (stretch.kernels == 0) {
      stretch.first = activity;
      stretch.busy_ns = 0;
    }
    ++stretch.kernels;
    stretch.busy_ns += activity.duration_ns();
    stretch.end = std::max(stretch.end, activity.end);
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    for (auto& [device, stretch] : stretches_) {
      if (stretch.kernels > 0) Close(stretch);
    }
    if (run.kernel_replay) return std::nullopt;  // see RunExtent
    if (!WorthReporting(gap_ns_, run)) return std::nullopt;
    Finding finding;
    finding.rule_id = "launch_bound_kernels";
    // Estimated gain: fused into fewer kernels, or launched as one CUDA graph, the time
    // between the kernels of each stretch mostly disappears; their own time stays.
    finding.est_gain_ns = gap_ns_;
    finding.severity = SeverityFor(finding.est_gain_ns, run);
    finding.title = "Tiny kernels bound by launch cost";
    finding.message =
        Count(stretches_found_, "stretch", "stretches") + " of at least " +
        std::to_string(kMinStretchKernels) + " consecutive kernels shorter than " +
        Duration(kTinyKernelNs) + " (" + std::to_string(kernels_) + " kernels) lasted " +
        Duration(span_ns_) + ", " + Percent(ShareOfRun(span_ns_, run)) +
        " of the run, yet the kernels ran for only " + Duration(span_ns_ - gap_ns_) +
        ": the rest is launch cost. Fuse the kernels, give each more work, or launch the "
        "sequence as a CUDA graph (est. gain up to " +
        Duration(finding.est_gain_ns) + ", the time between the kernels).";
    finding.occurrences = stretches_found_;
    finding.time_ns = span_ns_;
    finding.cited = examples_.Sorted();
    return finding;
  }

 private:
  struct Stretch {
    std::uint64_t kernels = 0;
    GpuActivity first;
    model::Timestamp end = 0;
    std::uint64_t busy_ns = 0;
  };

  void Close(Stretch& stretch) {
    if (stretch.kernels >= kMinStretchKernels) {
      std::uint64_t span = stretch.end - stretch.first.start;
      std::uint64_t gaps = span > stretch.busy_ns ? span - stretch.busy_ns : 0;
      ++stretches_found_;
      kernels_ += stretch.kernels;
      span_ns_ += span;
      gap_ns_ += gaps;
      examples_.Offer(CiteActivity(stretch.first, "first of " + std::to_string(stretch.kernels) +
                                                      " tiny kernels in " + Duration(span) + ", " +
                                                      Duration(gaps) + " of it between kernels"),
                      gaps);
    }
    stretch = Stretch{};
  }

  std::map<std::uint32_t, Stretch> stretches_;  // the open stretch per device
  std::uint64_t stretches_found_ = 0;
  std::uint64_t kernels_ = 0;
  std::uint64_t span_ns_ = 0;
  std::uint64_t gap_ns_ = 0;
  ExampleRows examples_;
};

}  // namespace

std::unique_ptr<TraceRule> MakeLaunchBoundKernelsRule() {
  return std::make_unique<LaunchBoundKernelsRule>();
}

}  // namespace gpuscope::analysis::trace_rules
