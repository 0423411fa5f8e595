// What bounds the kernel: the busiest unit of the Speed Of Light header and, inside it, the
// busiest sub-unit of its breakdown. Informational: the other rules carry the speedups, and
// the roof it names caps them (rule_inputs.h).
#include <algorithm>

#include "analysis/metrics/section_catalog.h"
#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

// The busiest row of one SOL breakdown table ("SM: Inst Executed Pipe FMA", 84.2).
std::optional<std::pair<std::string, double>> BusiestBreakdown(const RuleInputs& in, bool compute) {
  std::optional<std::pair<std::string, double>> best;
  for (const metrics::Section& section : metrics::AllSections()) {
    if (section.identifier != "SpeedOfLight") continue;
    for (const metrics::SectionEntry& entry : section.entries) {
      if (entry.table.empty() || entry.metrics.size() != 1) continue;
      const bool is_compute = entry.label.rfind("SM:", 0) == 0;
      if (is_compute != compute) continue;
      const std::optional<double> value = in.Metric(entry.metrics[0]);
      if (value && *value <= 100.0 && (!best || *value > best->second)) {
        best = std::make_pair(entry.label, *value);
      }
    }
  }
  return best;
}

std::optional<Finding> EvaluateSolBound(const RuleInputs& in) {
  if (!in.sm_pct() || !in.memory_pct()) return std::nullopt;
  const double sm = *in.sm_pct();
  const double memory = *in.memory_pct();
  const bool compute_side = sm >= memory;
  const auto breakdown = BusiestBreakdown(in, compute_side);
  const std::string unit = in.busiest_unit();
  const std::string numbers = "Compute (SM) throughput is " + Fixed(sm, 1) +
                              "% and memory throughput " + Fixed(memory, 1) + "% (" +
                              in.memory_unit() + ") of peak.";
  const std::string detail = breakdown ? " The busiest sub-unit is " + breakdown->first + " at " +
                                             Fixed(breakdown->second, 1) + "%."
                                       : std::string();
  const double busiest = in.busiest_pct();
  if (busiest >= kNearRoofPct) {
    return MakeFinding(SolBoundRule(), "High Throughput",
                       numbers + " The kernel runs near the " + unit + " roof (" +
                           Fixed(busiest, 1) + "%)." + detail +
                           " Making other units busier cannot gain more than the " +
                           Fixed(100 - busiest, 1) +
                           "% left to this roof; only doing less work on " + unit + " will.",
                       std::nullopt);
  }
  if (busiest >= kBusyPct) {
    return MakeFinding(
        SolBoundRule(), compute_side ? "Compute Bound" : "Memory Bound",
        numbers + " " + unit + " is the busier side, at " + Fixed(busiest, 1) +
            "% of its peak, so it bounds the kernel." + detail + " Look at the " +
            (compute_side ? "Compute Workload Analysis" : "Memory Workload Analysis") +
            " section first.",
        std::nullopt);
  }
  return MakeFinding(SolBoundRule(), "Latency Bound",
                     numbers + " No unit reaches " + Fixed(kBusyPct, 0) +
                         "% of its peak: the kernel is bound by latency (too few warps, stalls, a "
                         "small grid), not by a throughput roof." +
                         detail,
                     std::nullopt);
}

}  // namespace

const Rule& SolBoundRule() {
  static const Rule rule{
      "sol_bound",
      "SpeedOfLight",
      Severity::kInf,
      "which unit bounds the kernel: Compute (SM) vs the busiest memory unit (Memory, L1/TEX, "
      "L2, DRAM) of the SOL header; >= 80%: High Throughput, >= 60%: compute/memory bound, "
      "else latency bound; names the busiest breakdown row",
      "",
      EvaluateSolBound};
  return rule;
}

}  // namespace gpuscope::analysis::rules
