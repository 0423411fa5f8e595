// How the kernel uses L2 and DRAM, when memory is what bounds it: the bytes moved, the
// bandwidth reached against the device's peak, and the L2 hit rate. Informational: the
// access-pattern and spill rules carry the speedups.
#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {

namespace {

std::optional<Finding> EvaluateMemoryTraffic(const RuleInputs& in) {
  if (!in.memory_bound()) return std::nullopt;
  const auto dram_bytes = in.Metric("dram__bytes.sum");
  const auto dram_rate = in.Metric("dram__bytes.sum.per_second");
  const auto dram_pct = in.Metric("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed");
  const auto l2_pct = in.Metric("lts__throughput.avg.pct_of_peak_sustained_elapsed");
  const auto l2_hit = in.Metric("lts__t_sector_hit_rate.pct");
  if (!dram_bytes || !dram_rate || !dram_pct || !l2_pct || !l2_hit) return std::nullopt;
  std::string message = "DRAM moves " + Fixed(*dram_bytes / 1e6, 2) + " MB at " +
                        Fixed(*dram_rate / 1e12, 2) + " TB/s, " + Fixed(*dram_pct, 1) +
                        "% of its peak; L2 is " + Fixed(*l2_pct, 1) + "% busy with a hit rate of " +
                        Fixed(*l2_hit, 1) + "%.";
  if (*dram_pct >= kBusyPct) {
    message +=
        " The kernel streams from DRAM: only moving fewer bytes (smaller types, fused "
        "kernels, reuse through shared memory or L2) makes it faster.";
  } else if (*l2_pct >= kBusyPct) {
    message += " L2 serves most of the traffic: reuse data in L1/shared memory to relieve it.";
  }
  return MakeFinding(MemoryTrafficRule(), "L2 And DRAM Use", message, std::nullopt);
}

}  // namespace

const Rule& MemoryTrafficRule() {
  static const Rule rule{"memory_traffic",
                         "MemoryWorkloadAnalysis",
                         Severity::kInf,
                         "memory-bound kernel (busiest memory unit >= 60% and above SM): DRAM "
                         "bytes and bandwidth vs peak, L2 throughput and hit rate",
                         "",
                         EvaluateMemoryTraffic};
  return rule;
}

}  // namespace gpuscope::analysis::rules
