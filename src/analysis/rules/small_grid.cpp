// A grid with fewer blocks than the device has SMs: some SMs get no work at all. Such
// launches are also short, so launch overhead dominates them.
#include <algorithm>

#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

std::optional<Finding> EvaluateSmallGrid(const RuleInputs& in) {
  if (!in.grid_smaller_than_sms()) return std::nullopt;
  const double blocks = static_cast<double>(in.grid_blocks());
  // Speedup = 1 - blocks / SMs: the share of SMs left idle (ncu's estimate for small grids).
  // Capped by the busiest unit's headroom: a grid that already keeps a unit near its roof
  // with few SMs gains no more than that unit's idle share from more blocks.
  const double speedup =
      std::min((1.0 - blocks / in.num_sms()) * 100.0, in.IdleShare() * 100.0);
  std::string message = "The grid for this launch is configured to execute only " + Count(blocks) +
                        " blocks of " + std::to_string(in.threads_per_block()) +
                        " threads, which is less than the GPU's " + std::to_string(in.num_sms()) +
                        " multiprocessors: less than one wave, and " +
                        Count(in.num_sms() - blocks) + " SMs stay idle.";
  if (const auto duration = in.Metric("gpu__time_duration.sum")) {
    // Only a launch of a few microseconds is of the order of the launch overhead; a longer one
    // is simply too narrow for the GPU.
    message += " The launch lasts " + Fixed(*duration / 1000.0, 2) + " us";
    message += *duration < 10000.0
                   ? ", of the order of the launch overhead itself: it is launch-bound. Batch the "
                     "work of several launches into one, or fuse it into a neighbouring kernel."
                   : ". Spread the work over more blocks.";
  }
  return MakeFinding(SmallGridRule(), "Small Grid", message, speedup);
}

}  // namespace

const Rule& SmallGridRule() {
  static const Rule rule{"small_grid",
                         "LaunchStats",
                         Severity::kOpt,
                         "fewer blocks in the grid than SMs on the device (less than one wave; "
                         "launch-bound when it also lasts < 10 us)",
                         "min(1 - grid blocks / SMs, 100% - busiest unit throughput %)",
                         EvaluateSmallGrid};
  return rule;
}

}  // namespace gpuscope::analysis::rules
