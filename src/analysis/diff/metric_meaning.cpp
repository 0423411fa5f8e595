#include "analysis/diff/metric_meaning.h"

#include <initializer_list>

namespace gpuscope::analysis::diff {
namespace {

bool HasAny(std::string_view name, std::initializer_list<std::string_view> parts) {
  for (std::string_view part : parts) {
    if (name.find(part) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::string_view DirectionName(Direction direction) {
  switch (direction) {
    case Direction::kLowerIsBetter:
      return "lower is better";
    case Direction::kHigherIsBetter:
      return "higher is better";
    case Direction::kNeutral:
      return "neutral";
  }
  return "neutral";
}

bool IsPercent(std::string_view metric) {
  return metric.ends_with(".pct") || HasAny(metric, {".pct_of_peak"});
}

Direction DirectionOf(std::string_view m) {
  // Properties of the device or the launch, and clocks: not the kernel's doing.
  if (HasAny(m, {".peak_sustained", "device__", "launch__", "cycles_elapsed.avg.per_second"})) {
    return Direction::kNeutral;
  }
  // Waiting and waste: less is better whatever the roll-up ("..._per_issue_active.ratio"
  // would otherwise read as an issue rate).
  if (HasAny(m,
             {"stalled", "warp_latency", "bank_conflict", "divergent", "op_local", "mem_local"})) {
    return Direction::kLowerIsBetter;
  }
  // The rate of one kind of operation (FP64 adds per cycle) says what the kernel does, not
  // how well: removing needless FP64 work lowers it.
  if (HasAny(m, {"_op_"}) && HasAny(m, {"per_cycle", ".per_second"})) return Direction::kNeutral;
  // Utilisation, hit rates, IPC, occupancy, efficiencies.
  if (IsPercent(m) || HasAny(m, {"hit_rate", "per_cycle_active", "per_cycle_elapsed",
                                 "warps_eligible", "bytes_per_sector", "issue_active"})) {
    return Direction::kHigherIsBetter;
  }
  // Rates and other ratios: more bytes per second is not better when the kernel moves
  // bytes it need not move.
  if (HasAny(m, {".per_second", ".ratio"})) return Direction::kNeutral;
  // Amounts of time and work.
  if (HasAny(m, {"time_duration", "cycles", "inst_executed", "inst_issued", "bytes", "sectors",
                 "requests", "wavefronts"})) {
    return Direction::kLowerIsBetter;
  }
  return Direction::kNeutral;
}

NoiseClass NoiseClassOf(std::string_view m) {
  // Rates and shares of such counts still depend on the clock and the elapsed time.
  if (HasAny(m, {".per_second", ".pct", "per_cycle", "cycles"})) return NoiseClass::kMeasured;
  if (HasAny(m, {"sass_", "inst_executed", "_launched", "launch__"})) return NoiseClass::kExact;
  return NoiseClass::kMeasured;
}

}  // namespace gpuscope::analysis::diff
