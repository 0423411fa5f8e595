// Every kernel rule, one accessor per file (<rule_id>.cpp). rule_registry.cpp lists them in
// the order `gpuscope rules --list` prints them.
#pragma once

#include "analysis/rules/rule.h"

namespace gpuscope::analysis::rules {

const Rule& SolBoundRule();
const Rule& Fp64WithFp32DataRule();
const Rule& Fp64ExecutedRule();
const Rule& UnfusedFpRule();
const Rule& UncoalescedGlobalLoadsRule();
const Rule& UncoalescedGlobalStoresRule();
const Rule& SmemBankConflictsRule();
const Rule& LocalMemorySpillsRule();
const Rule& MemoryTrafficRule();
const Rule& TheoreticalOccupancyRule();
const Rule& AchievedOccupancyRule();
const Rule& SmallGridRule();
const Rule& TailEffectRule();
const Rule& DivergentBranchesRule();
const Rule& TopStallReasonRule();
const Rule& FewEligibleWarpsRule();

}  // namespace gpuscope::analysis::rules
