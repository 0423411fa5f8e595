// Achieved occupancy well below what the launch allows: warp scheduling overheads, or
// imbalance between warps and blocks (some finish early and leave their slots idle).
#include <algorithm>
#include <cmath>

#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

// ncu's threshold: a gap of more than 10 occupancy points.
constexpr double kMinGapPoints = 10.0;

std::optional<Finding> EvaluateAchievedOccupancy(const RuleInputs& in) {
  const auto achieved = in.Metric("sm__warps_active.avg.pct_of_peak_sustained_active");
  const auto& occupancy = in.occupancy();
  if (!achieved || !occupancy || occupancy->blocks_per_sm <= 0 || in.grid_smaller_than_sms()) {
    return std::nullopt;
  }
  // What the launch allows: the theoretical occupancy, or less when the grid is too small to
  // give every SM its theoretical blocks.
  double allowed = occupancy->occupancy_percent;
  if (in.num_sms() > 0 && occupancy->max_warps_per_sm > 0) {
    const double blocks_per_sm = std::ceil(static_cast<double>(in.grid_blocks()) / in.num_sms());
    const double grid_warps = blocks_per_sm * occupancy->warps_per_block;
    allowed = std::min(allowed, grid_warps / occupancy->max_warps_per_sm * 100.0);
  }
  if (allowed - *achieved <= kMinGapPoints) return std::nullopt;
  // Speedup = (allowed - achieved) / allowed x (1 - busiest unit %) (latency-hiding).
  const double speedup = in.LatencySpeedup((allowed - *achieved) / allowed);
  return MakeFinding(
      AchievedOccupancyRule(), "Achieved Occupancy",
      "The difference between calculated theoretical (" + Fixed(allowed, 1) +
          "%) and measured achieved occupancy (" + Fixed(*achieved, 1) +
          "%) can be the result of warp scheduling overheads or workload imbalances during the "
          "kernel execution. Load imbalances can occur between warps within a block as well as "
          "across blocks; very short blocks spend a large share of their life starting and "
          "retiring (a grid-stride loop keeps warps resident).",
      speedup);
}

}  // namespace

const Rule& AchievedOccupancyRule() {
  static const Rule rule{
      "achieved_occupancy",
      "Occupancy",
      Severity::kOpt,
      "achieved occupancy more than 10 points below the theoretical one (or below what the grid "
      "can fill)",
      "(allowed - achieved) / allowed x (1 - busiest unit throughput %)",
      EvaluateAchievedOccupancy};
  return rule;
}

}  // namespace gpuscope::analysis::rules
