// Rule idle_gaps: stretches in which a GPU ran nothing at all (no kernel, copy or memset)
// between two of its activities, typically the host preparing the next piece of work, or
// waiting, while the GPU waits for it.
#include <map>
#include <string>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"

namespace gpuscope::analysis::trace_rules {
namespace {

// A gap shorter than 50 us is launch latency and scheduling, which launch_bound_kernels
// covers; longer ones mean the host did something else while the GPU had nothing queued.
constexpr std::uint64_t kMinIdleGapNs = 50'000;

class IdleGapsRule final : public TraceRule {
 public:
  void OnGpuActivity(const GpuActivity& activity) override {
    Device& device = devices_[activity.device_id];
    if (device.seen && activity.start > device.busy_until &&
        activity.start - device.busy_until >= kMinIdleGapNs) {
      std::uint64_t gap = activity.start - device.busy_until;
      ++gaps_;
      idle_ns_ += gap;
      examples_.Offer(
          CiteActivity(activity, "starts after " + Duration(gap) + " with device " +
                                     std::to_string(activity.device_id) + " idle, since " +
                                     device.last_table + " correlation " +
                                     std::to_string(device.last_id) + " ended"),
          gap);
    }
    if (!device.seen || activity.end > device.busy_until) {
      device.busy_until = activity.end;
      device.last_table = ActivityTable(activity.kind);
      device.last_id = activity.correlation_id;
    }
    device.seen = true;
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    if (run.kernel_replay) return std::nullopt;  // see RunExtent
    if (!WorthReporting(idle_ns_, run)) return std::nullopt;
    Finding finding;
    finding.rule_id = "idle_gaps";
    // Estimated gain: at best the host work in the gaps overlaps with GPU work (queued ahead
    // on streams), removing the gaps from the run.
    finding.est_gain_ns = idle_ns_;
    finding.severity = SeverityFor(finding.est_gain_ns, run);
    finding.title = "GPU idle between activities";
    finding.message =
        "The GPU ran nothing in " + Count(gaps_, "gap", "gaps") + " of at least " +
        Duration(kMinIdleGapNs) +
        " between its kernels, copies and memsets: " + Duration(idle_ns_) + " idle, " +
        Percent(ShareOfRun(idle_ns_, run)) +
        " of the run. Queue the next work before the host prepares what follows (streams, "
        "asynchronous copies, fewer synchronisations) so the GPU always has work (est. gain up "
        "to " +
        Duration(finding.est_gain_ns) + ", the idle time).";
    finding.occurrences = gaps_;
    finding.time_ns = idle_ns_;
    finding.cited = examples_.Sorted();
    return finding;
  }

 private:
  struct Device {
    bool seen = false;
    model::Timestamp busy_until = 0;  // latest end of any activity so far
    const char* last_table = "";      // the activity that ends there
    std::uint32_t last_id = 0;
  };
  std::map<std::uint32_t, Device> devices_;  // a handful of GPUs
  std::uint64_t gaps_ = 0;
  std::uint64_t idle_ns_ = 0;
  ExampleRows examples_;
};

}  // namespace

std::unique_ptr<TraceRule> MakeIdleGapsRule() { return std::make_unique<IdleGapsRule>(); }

}  // namespace gpuscope::analysis::trace_rules
