// Shared-memory bank conflicts: a warp's shared access whose threads hit the same bank at
// different addresses is split into several wavefronts (ncu's SharedMemoryConflicts rule).
#include "analysis/rules/all_rules.h"
#include "analysis/rules/source_places.h"

namespace gpuscope::analysis::rules {
namespace {

// At least this share of the shared-memory wavefronts are conflicts.
constexpr double kMinConflictShare = 0.05;

std::optional<Finding> EvaluateSmemBankConflicts(const RuleInputs& in) {
  const auto conflicts = in.Sum({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"});
  const auto wavefronts = in.Sum({"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"});
  const auto requests = in.Sum(
      {"smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"});
  const auto l1 = in.Metric("l1tex__throughput.avg.pct_of_peak_sustained_active");
  if (!conflicts || !wavefronts || !requests || !l1 || *wavefronts <= 0 || *requests <= 0) {
    return std::nullopt;
  }
  const double ldsm = in.Metric("smsp__inst_executed_op_ldsm.sum").value_or(0);
  const double share = *conflicts / *wavefronts;
  if (share < kMinConflictShare) return std::nullopt;
  const double ways = *wavefronts / (*requests + ldsm);
  // Speedup = conflicts / wavefronts x L1/TEX throughput %: the conflicting wavefronts
  // leave with the fix (work-reducing on L1TEX, where shared memory lives).
  const double speedup = RuleInputs::WorkSpeedup(share, std::min(*l1, 100.0));
  std::string message =
      "The shared memory accesses cause on average a " + Fixed(ways, 1) +
      "-way bank conflict across all " + Count(*requests + ldsm) +
      " shared requests. This results in " + Count(*conflicts) +
      " bank conflicts, which represent " + Fixed(share * 100, 2) + "% of the overall " +
      Count(*wavefronts) +
      " shared wavefronts. Pad shared arrays (e.g. [32][33] instead of [32][32]) or swizzle "
      "the index so that the threads of a warp hit different banks.";
  // Where: the lines whose shared loads and stores replay the most wavefronts.
  const Places places = TopPlaces(in, "L1 Wavefronts Shared Excessive", nullptr, 3);
  if (!places.top.empty()) {
    message += " The " + PlacesNoun(places) + " with the most excessive shared wavefronts: " +
               JoinPlaces(places.top,
                          [&places](const Place& place) {
                            return Count(static_cast<double>(place.value)) +
                                   " excessive wavefronts " + ShareOf(place.value, places.total) +
                                   " at " + PlaceText(place);
                          }) +
               ".";
  }
  return MakeFinding(SmemBankConflictsRule(), "Shared Memory Bank Conflicts", message, speedup);
}

}  // namespace

const Rule& SmemBankConflictsRule() {
  static const Rule rule{
      "smem_bank_conflicts",
      "MemoryWorkloadAnalysis",
      Severity::kOpt,
      "shared-memory bank conflicts make >= 5% of the shared wavefronts (n-way = wavefronts / "
      "requests)",
      "bank conflicts / shared wavefronts x L1/TEX throughput %",
      EvaluateSmemBankConflicts};
  return rule;
}

}  // namespace gpuscope::analysis::rules
