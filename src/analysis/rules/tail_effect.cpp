// A last, partial wave of blocks: while it runs, part of the GPU idles.
#include <algorithm>
#include <cmath>

#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

// Below 1% the tail is noise.
constexpr double kMinSpeedupPct = 1.0;

std::optional<Finding> EvaluateTailEffect(const RuleInputs& in) {
  const auto& occupancy = in.occupancy();
  if (!occupancy || occupancy->blocks_per_sm <= 0 || in.num_sms() == 0) return std::nullopt;
  const double per_wave = static_cast<double>(occupancy->blocks_per_sm) * in.num_sms();
  const double waves = static_cast<double>(in.grid_blocks()) / per_wave;
  if (waves < 1.0) return std::nullopt;
  const double full = std::floor(waves);
  const double partial = waves - full;
  if (partial <= 0) return std::nullopt;
  // Speedup = (1 - partial) / ceil(waves): with blocks of equal duration the partial wave
  // takes a full wave's time for `partial` of a wave's work.
  // Capped by the busiest unit's headroom: a tail that idles SMs shows in the kernel's average
  // throughput, so a kernel that averages near a roof cannot have lost much to its tail (the
  // bank-conflict kernel of examples/metrics: 1.33 waves, yet 100% of the L1 roof).
  const double speedup =
      std::min((1.0 - partial) / std::ceil(waves) * 100.0, in.IdleShare() * 100.0);
  if (speedup < kMinSpeedupPct) return std::nullopt;
  const double tail_blocks = std::round(partial * per_wave);
  return MakeFinding(
      TailEffectRule(), "Tail Effect",
      "A wave is " + Count(per_wave) + " blocks (" + std::to_string(occupancy->blocks_per_sm) +
          " per SM x " + std::to_string(in.num_sms()) + " SMs). This launch results in " +
          Count(full) + " full waves and a partial wave of " + Count(tail_blocks) +
          " blocks; under the assumption of a uniform duration of all blocks, the partial wave "
          "may account for up to " +
          Fixed(100.0 / std::ceil(waves), 1) + "% of the runtime with the GPU " +
          Fixed(partial * 100.0, 1) +
          "% filled. Size the grid as a multiple of a wave, or use a grid-stride loop.",
      speedup);
}

}  // namespace

const Rule& TailEffectRule() {
  static const Rule rule{"tail_effect",
                         "LaunchStats",
                         Severity::kOpt,
                         "the grid ends with a partial wave of blocks (estimate >= 1%)",
                         "min((1 - partial wave fill) / number of waves (rounded up), "
                         "100% - busiest unit throughput %)",
                         EvaluateTailEffect};
  return rule;
}

}  // namespace gpuscope::analysis::rules
