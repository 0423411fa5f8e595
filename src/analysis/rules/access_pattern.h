// The estimate shared by the uncoalesced-load and -store rules, after Nsight Compute's
// access-pattern rule: at each cache level the wasted share of every 32-byte sector
// (1 - bytes used / 32), reaching that level only for the sectors missed above it, weighted by
// the level's throughput; the worst level wins.
#pragma once

#include <optional>
#include <string>

#include "analysis/finding.h"
#include "analysis/rules/rule_inputs.h"

namespace gpuscope::analysis::rules {

struct AccessPatternEstimate {
  double bytes_per_sector = 0;
  double speedup_pct = 0;
  std::string level;  // "L1TEX", "L2", "DRAM"
};

// `load`: global loads; else global stores. nullopt when the bytes-per-sector metric is
// missing or the accesses use whole sectors.
std::optional<AccessPatternEstimate> EstimateAccessPattern(const RuleInputs& in, bool load);

struct Rule;

// The finding of the uncoalesced-load (`load`) or -store rule: only a pattern that wastes at
// least an eighth of every sector (< 28 of 32 bytes used) and promises at least 1%.
std::optional<Finding> AccessPatternFinding(const RuleInputs& in, bool load, const Rule& rule);

inline constexpr const char* kAccessPatternFormula =
    "max over L1TEX, L2, DRAM of (1 - bytes per sector / 32) x miss rates of the levels above x "
    "level throughput %";

}  // namespace gpuscope::analysis::rules
