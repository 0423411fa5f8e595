// Schedulers that find no eligible warp on many cycles (ncu's IssueSlotUtilization).
#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

// ncu's target: one instruction issued on at least 60% of cycles.
constexpr double kIssueActiveTarget = 0.6;

std::optional<Finding> EvaluateFewEligibleWarps(const RuleInputs& in) {
  const auto issue = in.Metric("smsp__issue_active.avg.per_cycle_active");
  const auto active = in.Metric("smsp__warps_active.avg.per_cycle_active");
  const auto eligible = in.Metric("smsp__warps_eligible.avg.per_cycle_active");
  const auto max_warps = in.Metric("smsp__warps_active.avg.peak_sustained");
  // A memory-bound kernel issues little because it waits on memory (that is its bound), and a
  // grid smaller than the SM count is the small-grid finding: neither is an issue problem.
  if (!issue || !active || !eligible || !max_warps || *issue <= 0 || *issue >= kIssueActiveTarget ||
      in.memory_bound() || in.grid_smaller_than_sms()) {
    return std::nullopt;
  }
  // Speedup = (1 - issue active) x (1 - busiest unit %) (latency-hiding).
  const double speedup = in.LatencySpeedup(1.0 - *issue);
  return MakeFinding(
      FewEligibleWarpsRule(), "Issue Slot Utilization",
      "Every scheduler is capable of issuing one instruction per cycle, but for this kernel "
      "each scheduler only issues an instruction every " +
          Fixed(1.0 / *issue, 1) + " cycles. Out of the maximum of " + Fixed(*max_warps, 0) +
          " warps per scheduler, this kernel allocates an average of " + Fixed(*active, 2) +
          " active warps per scheduler, but only an average of " + Fixed(*eligible, 2) +
          " warps were eligible per cycle. To increase the number of eligible warps, reduce the "
          "time the active warps are stalled (see the top stall reasons) or run more warps.",
      speedup);
}

}  // namespace

const Rule& FewEligibleWarpsRule() {
  static const Rule rule{"few_eligible_warps",
                         "SchedulerStats",
                         Severity::kOpt,
                         "schedulers issue on < 60% of cycles (few eligible warps), in a kernel "
                         "that is not memory-bound",
                         "(1 - issued warps per scheduler per cycle) x (1 - busiest unit "
                         "throughput %)",
                         EvaluateFewEligibleWarps};
  return rule;
}

}  // namespace gpuscope::analysis::rules
