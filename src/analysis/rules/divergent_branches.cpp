// Divergent branches: the threads of a warp take different paths, which then run one after
// the other with part of the warp masked off.
#include "analysis/rules/all_rules.h"
#include "analysis/rules/source_places.h"

namespace gpuscope::analysis::rules {
namespace {

// Fewer than 90% of a warp's threads active per executed instruction, on average.
constexpr double kMaxActiveShare = 0.9;

std::optional<Finding> EvaluateDivergentBranches(const RuleInputs& in) {
  const auto active = in.Metric("smsp__thread_inst_executed_per_inst_executed.ratio");
  const auto divergent = in.Metric("smsp__sass_branch_targets_threads_divergent.sum");
  if (!active || !divergent || *divergent <= 0 || !in.sm_pct()) return std::nullopt;
  const double share = *active / 32.0;
  if (share >= kMaxActiveShare) return std::nullopt;
  // Speedup = (1 - active threads per warp / 32) x SM throughput %: the masked-off lanes'
  // share of the instructions leaves with uniform branches (work-reducing on the SM).
  const double speedup = RuleInputs::WorkSpeedup(1.0 - share, *in.sm_pct());
  std::string message = "Warps execute instructions with only " + Fixed(*active, 2) +
                        " of their 32 threads active on average";
  if (const auto efficiency = in.Metric("smsp__sass_average_branch_targets_threads_uniform.pct")) {
    message += "; branch efficiency is " + Fixed(*efficiency, 1) + "%";
  }
  message += ", with " + Count(*divergent) +
             " divergent branch targets. Make the branch condition uniform across a warp "
             "(branch on warp-sized groups of the index, sort the work by path) or replace "
             "short branches by arithmetic selects.";
  // Where: the branches that diverge most.
  const Places places = TopPlaces(in, "Divergent Branches", nullptr, 3);
  if (!places.top.empty()) {
    message += " The most divergent branches: " +
               JoinPlaces(places.top,
                          [&places](const Place& place) {
                            return Count(static_cast<double>(place.value)) +
                                   " divergent branch targets " +
                                   ShareOf(place.value, places.total) + " at " + PlaceText(place);
                          }) +
               ".";
  }
  return MakeFinding(DivergentBranchesRule(), "Divergent Branches", message, speedup);
}

}  // namespace

const Rule& DivergentBranchesRule() {
  static const Rule rule{"divergent_branches",
                         "SourceCounters",
                         Severity::kOpt,
                         "divergent branch targets, with < 90% of a warp's 32 threads active "
                         "per executed instruction",
                         "(1 - active threads per warp / 32) x SM throughput %",
                         EvaluateDivergentBranches};
  return rule;
}

}  // namespace gpuscope::analysis::rules
