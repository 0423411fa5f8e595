// What every rule reads about one kernel: its metrics (missing ones are nullopt, never a
// crash), where it stands against the Speed Of Light roofs, its launch and occupancy, and the
// two ways a speedup is estimated, so that all rules estimate alike:
//   * work-reducing findings (uncoalesced accesses, bank conflicts, spills, FP64, divergence)
//     remove work from one unit: gain = share of that unit's work removed x the unit's
//     utilisation (as Nsight Compute weights its access-pattern rules). A unit at its roof
//     gains fully; an idle unit gains nothing.
//   * latency-hiding findings (occupancy, stalls, eligible warps) make units busier, which
//     only helps while they are idle: gain = the share of the lost time the finding explains
//     x (1 - busiest unit's utilisation). A kernel at 85% of a roof gains at most 15%.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/occupancy.h"
#include "analysis/source/source_view.h"

namespace gpuscope::analysis::rules {

// Throughput (% of peak) from which a unit counts as busy, and as near its roof: ncu's own
// thresholds (its SOL rule speaks of "latency issues" below 60% and "High Throughput" above
// 80%).
inline constexpr double kBusyPct = 60.0;
inline constexpr double kNearRoofPct = 80.0;

class RuleInputs {
 public:
  // `source`: the kernel's source page (issue 11), when the report has one for it; the rules
  // that can then name the lines where their finding happens. Must outlive the inputs.
  explicit RuleInputs(const metrics::KernelProfile& profile,
                      const source::KernelSource* source = nullptr);

  const metrics::KernelProfile& profile() const { return profile_; }
  // nullptr: no source data for this kernel.
  const source::KernelSource* source() const { return source_; }
  std::optional<double> Metric(std::string_view name) const;
  // Sum of metrics; nullopt when any is missing.
  std::optional<double> Sum(std::initializer_list<std::string_view> names) const;

  // Speed Of Light: Compute (SM) Throughput, and the busiest memory unit among Memory, L1/TEX,
  // L2 and DRAM throughput. nullopt when the SOL metrics were not collected.
  std::optional<double> sm_pct() const { return sm_pct_; }
  std::optional<double> memory_pct() const { return memory_pct_; }
  const std::string& memory_unit() const { return memory_unit_; }  // "DRAM", "L2 Cache", ...
  double busiest_pct() const;
  std::string busiest_unit() const;
  // Memory is the busier side and busy: waiting on memory is then the bound itself.
  bool memory_bound() const;
  bool near_roof() const { return busiest_pct() >= kNearRoofPct; }

  // 1 - busiest/100, clamped to 0..1.
  double IdleShare() const;
  // Percent: local share (0..1) of work removed x unit utilisation (percent).
  static double WorkSpeedup(double removed_share, double unit_pct);
  // Percent: local share (0..1) x IdleShare().
  double LatencySpeedup(double local_share) const;

  std::int64_t grid_blocks() const;
  int threads_per_block() const;
  std::uint32_t num_sms() const { return profile_.device.num_sms; }
  // Some SMs get no block at all.
  bool grid_smaller_than_sms() const;
  const std::optional<OccupancyResult>& occupancy() const { return occupancy_; }

 private:
  const metrics::KernelProfile& profile_;
  const source::KernelSource* source_ = nullptr;
  std::optional<double> sm_pct_;
  std::optional<double> memory_pct_;
  std::string memory_unit_;
  std::optional<OccupancyResult> occupancy_;
};

// Number formatting for messages: "1,234,567", "12.3", "7.1".
std::string Count(double value);
std::string Fixed(double value, int digits);

}  // namespace gpuscope::analysis::rules
