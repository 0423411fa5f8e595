// Rule gpu_metric_stretches (needs `run --gpu-metrics`): stretches where kernels ran while the
// SMs were mostly idle (grids too small for the GPU, the tail of uneven blocks: SM active
// sampled below 30 %), and stretches where DRAM bandwidth was saturated (read + write at 80 %
// of the device's bandwidth or more). Samples come first (kept as stretches, a few numbers
// each), then the kernels in start order, each measured against the stretches of its device.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "analysis/trace_rules/example_rows.h"
#include "analysis/trace_rules/rule_support.h"
#include "util/demangle.h"

namespace gpuscope::analysis::trace_rules {
namespace {

// Below this share of cycles with a warp in flight, most SMs had nothing to run.
constexpr double kLowSmActivePct = 30.0;
// At this share of the device's bandwidth DRAM is the limit.
constexpr double kSaturatedDramShare = 0.8;

struct Stretch {
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  double weighted_sum = 0;  // value x ns, for the stretch's average
  std::uint64_t kernel_ns = 0;  // kernels running inside it (their union)
  std::string top_kernel;       // the one with the most time inside
  std::uint64_t top_kernel_ns = 0;

  double Average() const { return end > start ? weighted_sum / static_cast<double>(end - start) : 0; }
};

// Consecutive samples that meet a condition, merged.
struct StretchList {
  std::vector<Stretch> stretches;
  std::size_t next = 0;  // first stretch a later kernel can overlap

  void Add(const GpuMetricPoint& sample, double value) {
    if (!stretches.empty() && stretches.back().end >= sample.start) {
      stretches.back().end = std::max(stretches.back().end, sample.end);
    } else {
      Stretch& added = stretches.emplace_back();
      added.start = sample.start;
      added.end = sample.end;
    }
    stretches.back().weighted_sum += value * static_cast<double>(sample.end - sample.start);
  }

  // The kernel's time inside stretches not yet counted (kernels overlap: `covered_until` keeps
  // their union); returns it.
  std::uint64_t AddKernel(const GpuActivity& kernel, model::Timestamp& covered_until,
                          const std::string& name) {
    while (next < stretches.size() && stretches[next].end <= kernel.start) ++next;
    const model::Timestamp from = std::max(kernel.start, covered_until);
    std::uint64_t inside = 0;
    for (std::size_t i = next; i < stretches.size() && stretches[i].start < kernel.end; ++i) {
      Stretch& s = stretches[i];
      const model::Timestamp lo = std::max(from, s.start);
      const model::Timestamp hi = std::min(kernel.end, s.end);
      if (hi <= lo) continue;
      s.kernel_ns += hi - lo;
      inside += hi - lo;
      if (hi - lo > s.top_kernel_ns) {
        s.top_kernel_ns = hi - lo;
        s.top_kernel = name;
      }
    }
    return inside;
  }
};

class GpuMetricStretchesRule final : public TraceRule {
 public:
  void OnGpuMetricSample(const GpuMetricPoint& sample) override {
    if (sample.end <= sample.start) return;
    Device& device = devices_[sample.device_id];
    if (sample.sm_active_pct && *sample.sm_active_pct < kLowSmActivePct) {
      device.low_sm.Add(sample, *sample.sm_active_pct);
    }
    if (sample.dram_bytes_per_second && sample.dram_peak_bytes_per_second &&
        *sample.dram_bytes_per_second >= kSaturatedDramShare * *sample.dram_peak_bytes_per_second) {
      device.saturated_dram.Add(sample, *sample.dram_bytes_per_second);
    }
  }

  void OnGpuActivity(const GpuActivity& activity) override {
    if (activity.kind != GpuActivityKind::kKernel) return;
    auto found = devices_.find(activity.device_id);
    if (found == devices_.end()) return;
    Device& device = found->second;
    const std::string name = Demangle(activity.kernel_name);
    const std::uint64_t low = device.low_sm.AddKernel(activity, device.covered_until, name);
    if (low != 0) {
      low_sm_kernel_ns_ += low;
      ++low_sm_kernels_;
      low_examples_.Offer(CiteActivity(activity, "runs " + Duration(low) +
                                                     " while SM active was below " +
                                                     Percent(kLowSmActivePct / 100)),
                          low);
    }
    const std::uint64_t saturated =
        device.saturated_dram.AddKernel(activity, device.covered_until, name);
    if (saturated != 0) {
      saturated_kernel_ns_ += saturated;
      dram_examples_.Offer(
          CiteActivity(activity, "runs " + Duration(saturated) + " with DRAM bandwidth saturated"),
          saturated);
    }
    device.covered_until = std::max(device.covered_until, activity.end);
  }

  std::optional<Finding> Finish(const RunExtent& run) override {
    if (run.kernel_replay) return std::nullopt;  // replayed kernels are not the program's
    const bool low = WorthReporting(low_sm_kernel_ns_, run);
    const bool saturated = WorthReporting(saturated_kernel_ns_, run);
    if (!low && !saturated) return std::nullopt;
    Finding finding;
    finding.rule_id = "gpu_metric_stretches";
    if (low) {
      const Stretch* longest = Longest([](const Device& d) -> const StretchList& { return d.low_sm; });
      finding.title = "Kernels ran while the SMs were mostly idle";
      // At best the idle SMs do work: the time inside the stretches shrinks by their idle share.
      finding.est_gain_ns = static_cast<std::uint64_t>(
          static_cast<double>(low_sm_kernel_ns_) * (1.0 - kLowSmActivePct / 100.0 / 2.0));
      finding.message =
          "SM active was sampled below " + Percent(kLowSmActivePct / 100) + " for " +
          Duration(low_sm_kernel_ns_) + " while " + Count(low_sm_kernels_, "kernel", "kernels") +
          " ran (" + Percent(ShareOfRun(low_sm_kernel_ns_, run)) + " of the run)";
      if (longest != nullptr) {
        finding.message += "; the longest stretch, " + Duration(longest->end - longest->start) +
                           " from " +
                           Duration(longest->start > run.start ? longest->start - run.start : 0) +
                           " after the start at " + Percent(longest->Average() / 100) +
                           " SM active, ran mostly " + longest->top_kernel;
      }
      finding.message +=
          ". Grids with fewer blocks than the GPU has SMs, or blocks of uneven work (a tail), "
          "leave SMs idle: launch more blocks, balance them, or run independent kernels "
          "concurrently on streams (est. gain up to " + Duration(finding.est_gain_ns) + ").";
      finding.time_ns = low_sm_kernel_ns_;
      finding.occurrences = low_sm_kernels_;
      finding.cited = low_examples_.Sorted();
    }
    if (saturated) {
      const Stretch* longest =
          Longest([](const Device& d) -> const StretchList& { return d.saturated_dram; });
      if (!low) {
        finding.title = "DRAM bandwidth saturated";
        finding.time_ns = saturated_kernel_ns_;
        finding.cited = dram_examples_.Sorted();
      } else {
        finding.message += " Also: ";
      }
      finding.message += "DRAM read + write was at " + Percent(kSaturatedDramShare) +
                         " of the device's bandwidth or more for " +
                         Duration(saturated_kernel_ns_) + " of kernel time";
      if (longest != nullptr) {
        finding.message += " (longest stretch " + Duration(longest->end - longest->start) +
                           " at " + FormatBandwidth(longest->Average()) + ", mostly " +
                           longest->top_kernel + ")";
      }
      finding.message +=
          ": those kernels are memory-bound; only moving fewer bytes (reuse in shared memory "
          "or L2, fusing kernels, smaller types) makes them faster.";
    }
    finding.severity = SeverityFor(std::max(finding.est_gain_ns, saturated_kernel_ns_ / 4), run);
    return finding;
  }

 private:
  struct Device {
    StretchList low_sm, saturated_dram;
    model::Timestamp covered_until = 0;  // the latest end of its kernels so far
  };

  template <typename Pick>
  const Stretch* Longest(Pick pick) const {
    const Stretch* longest = nullptr;
    for (const auto& [id, device] : devices_) {
      for (const Stretch& s : pick(device).stretches) {
        if (s.kernel_ns == 0) continue;
        if (longest == nullptr || s.end - s.start > longest->end - longest->start) longest = &s;
      }
    }
    return longest;
  }

  static std::string FormatBandwidth(double bytes_per_second) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.0f GB/s", bytes_per_second / 1e9);
    return text;
  }

  std::map<std::uint32_t, Device> devices_;
  std::uint64_t low_sm_kernel_ns_ = 0;
  std::uint64_t low_sm_kernels_ = 0;
  std::uint64_t saturated_kernel_ns_ = 0;
  ExampleRows low_examples_, dram_examples_;
};

}  // namespace

std::unique_ptr<TraceRule> MakeGpuMetricStretchesRule() {
  return std::make_unique<GpuMetricStretchesRule>();
}

}  // namespace gpuscope::analysis::trace_rules
