// Local memory accesses: register spills (or stack arrays indexed at run time) that go
// through L1TEX and L2 instead of staying in registers.
#include <algorithm>

#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

std::optional<Finding> EvaluateLocalMemorySpills(const RuleInputs& in) {
  const auto local = in.Sum(
      {"smsp__sass_inst_executed_op_local_ld.sum", "smsp__sass_inst_executed_op_local_st.sum"});
  const auto other = in.Sum(
      {"smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum"});
  const auto latency = in.Metric("smsp__average_warp_latency_per_inst_issued.ratio");
  const auto long_sb =
      in.Metric("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio");
  const auto lg_throttle =
      in.Metric("smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio");
  if (!local || !other || *local <= 0) return std::nullopt;
  const double shared = in.Sum({"smsp__sass_inst_executed_op_shared_ld.sum",
                                "smsp__sass_inst_executed_op_shared_st.sum"})
                            .value_or(0);
  const double local_share = *local / (*local + *other + shared);
  // Speedup = local share of memory instructions x max(memory throughput %, share of warp
  // cycles stalled on memory (long scoreboard + LG throttle)): spills cost bandwidth in a
  // memory-bound kernel and latency in a latency-bound one.
  double memory_stall_pct = 0;
  if (latency && long_sb && lg_throttle && *latency > 0) {
    memory_stall_pct = std::min(100.0, (*long_sb + *lg_throttle) / *latency * 100.0);
  }
  const double speedup =
      RuleInputs::WorkSpeedup(local_share, std::max(in.memory_pct().value_or(0), memory_stall_pct));
  if (speedup < 1.0) return std::nullopt;  // a spill that costs nothing measurable
  const auto& p = in.profile();
  std::string message = "The kernel executes " + Count(*local) + " local memory instructions, " +
                        Fixed(local_share * 100, 1) + "% of its memory instructions";
  if (p.local_memory_per_thread > 0) {
    message += "; it was launched with " + std::to_string(p.local_memory_per_thread) +
               " bytes of local memory per thread";
  }
  if (memory_stall_pct > 0) {
    message += ", and its warps spend " + Fixed(memory_stall_pct, 1) +
               "% of their cycles waiting on memory";
  }
  message +=
      ". Local memory holds register spills and arrays indexed at run time: compile "
      "with -Xptxas -v to see the spill bytes, raise the register limit "
      "(__launch_bounds__, -maxrregcount) or index arrays with compile-time constants.";
  return MakeFinding(LocalMemorySpillsRule(), "Local Memory Spills", message, speedup);
}

}  // namespace

const Rule& LocalMemorySpillsRule() {
  static const Rule rule{
      "local_memory_spills",
      "MemoryWorkloadAnalysis",
      Severity::kOpt,
      "local loads or stores executed (register spills, stack arrays)",
      "local / (local + global + shared memory instructions) x max(memory throughput %, "
      "(long scoreboard + LG throttle stalls) / warp cycles per issued instruction)",
      EvaluateLocalMemorySpills};
  return rule;
}

}  // namespace gpuscope::analysis::rules
