// Rule serialized_transfers: a GPU that both copied between host and device and ran kernels,
// but never did the two at once, although its copy engines work alongside its SMs.
// Typically everything was issued on one stream (or the default stream), so each copy waits
// for the kernel before it and the other way round.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"
#include "util/units.h"

namespace gpuscope::analysis::trace_rules {
namespace {

// Overlap under 1% of the shorter of copy and kernel time is as good as none (a copy that
// began while the tail of a kernel drained).
constexpr double kMaxOverlapShare = 0.01;
// Streams remembered per device, to say how many carried the work; more than this is not
// a serialised program anyway.
constexpr std::size_t kMaxStreamsTracked = 64;

bool HostDeviceCopy(const GpuActivity& activity) {
  if (activity.kind != GpuActivityKind::kMemcpy) return false;
  if (activity.copy_kind != model::CopyKind::kHtoD &&
      activity.copy_kind != model::CopyKind::kDtoH) {
    return false;
  }
  // Pageable copies can never overlap; pageable_copies reports them with the fix.
  return activity.src_kind != model::MemoryKind::kPageable &&
         activity.dst_kind != model::MemoryKind::kPageable;
}

class SerializedTransfersRule final : public TraceRule {
 public:
  void OnGpuActivity(const GpuActivity& activity) override {
    bool copy = HostDeviceCopy(activity);
    if (!copy && activity.kind != GpuActivityKind::kKernel) return;
    Device& device = devices_[activity.device_id];
    if (device.streams.size() < kMaxStreamsTracked) device.streams.insert(activity.stream_id);
    // Rows arrive in start order, so whatever of the other kind is still running overlaps.
    model::Timestamp& other_until = copy ? device.kernels_until : device.copies_until;
    if (activity.start < other_until) {
      device.overlap_ns += std::min(activity.end, other_until) - activity.start;
    }
    model::Timestamp& own_until = copy ? device.copies_until : device.kernels_until;
    own_until = std::max(own_until, activity.end);
    if (copy) {
      ++device.copies;
      device.copy_ns += activity.duration_ns();
      device.examples.Offer(CiteActivity(activity, FormatBytes(activity.bytes) + " on stream " +
                                                       std::to_string(activity.stream_id) +
                                                       ", overlapping no kernel"));
    } else {
      ++device.kernels;
      device.kernel_ns += activity.duration_ns();
    }
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    if (run.kernel_replay) return std::nullopt;  // see RunExtent
    Finding finding;
    std::uint64_t copies = 0, kernels = 0, copy_ns = 0, kernel_ns = 0;
    std::set<std::pair<std::uint32_t, std::uint32_t>> streams;  // (device, stream)
    ExampleRows examples;
    for (auto& [id, device] : devices_) {
      std::uint64_t hideable = std::min(device.copy_ns, device.kernel_ns);
      if (hideable == 0) continue;
      if (static_cast<double>(device.overlap_ns) >
          kMaxOverlapShare * static_cast<double>(hideable)) {
        continue;
      }
      finding.est_gain_ns += hideable;
      copies += device.copies;
      kernels += device.kernels;
      copy_ns += device.copy_ns;
      kernel_ns += device.kernel_ns;
      for (std::uint32_t stream : device.streams) streams.insert({id, stream});
      for (CitedRow& row : device.examples.Sorted()) examples.Offer(std::move(row));
    }
    if (!WorthReporting(finding.est_gain_ns, run)) return std::nullopt;
    finding.rule_id = "serialized_transfers";
    finding.severity = SeverityFor(finding.est_gain_ns, run);
    finding.title = "Copies and kernels that could overlap but do not";
    // Estimated gain: with the work cut into chunks on several streams, copies of one chunk
    // run while kernels of another do; at best the shorter of the two disappears.
    finding.message =
        Count(copies, "host-device copy", "host-device copies") + " (" + Duration(copy_ns) +
        ") and " + Count(kernels, "kernel", "kernels") + " (" + Duration(kernel_ns) + ") on " +
        Count(streams.size(), "stream", "streams") +
        " ran one after the other: no copy overlapped a kernel, though the copy engines "
        "work alongside the SMs. Split the work into chunks issued on several streams with "
        "cudaMemcpyAsync from pinned memory, so that one chunk's copies overlap another's "
        "kernels (est. gain up to " +
        Duration(finding.est_gain_ns) + ", " + Percent(ShareOfRun(finding.est_gain_ns, run)) +
        " of the run: the shorter of copy and kernel time).";
    finding.occurrences = copies;
    finding.time_ns = copy_ns;
    finding.cited = examples.Sorted();
    return finding;
  }

 private:
  struct Device {
    std::uint64_t copies = 0, kernels = 0;
    std::uint64_t copy_ns = 0, kernel_ns = 0, overlap_ns = 0;
    model::Timestamp copies_until = 0, kernels_until = 0;
    std::set<std::uint32_t> streams;
    ExampleRows examples;
  };
  std::map<std::uint32_t, Device> devices_;
};

}  // namespace

std::unique_ptr<TraceRule> MakeSerializedTransfersRule() {
  return std::make_unique<SerializedTransfersRule>();
}

}  // namespace gpuscope::analysis::trace_rules
