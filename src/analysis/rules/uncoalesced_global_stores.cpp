// Global stores that use only part of each 32-byte sector they move (a stride between
// threads, misaligned or scattered accesses): the unused bytes cost bandwidth all the same.
#include "analysis/rules/access_pattern.h"
#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

std::optional<Finding> EvaluateUncoalescedGlobalStores(const RuleInputs& in) {
  return AccessPatternFinding(in, /*load=*/false, UncoalescedGlobalStoresRule());
}

}  // namespace

const Rule& UncoalescedGlobalStoresRule() {
  static const Rule rule{"uncoalesced_global_stores",
                         "MemoryWorkloadAnalysis",
                         Severity::kOpt,
                         "global stores use < 28 of the 32 bytes of each sector "
                         "(smsp__sass_average_data_bytes_per_sector_mem_global_op_st)",
                         kAccessPatternFormula,
                         EvaluateUncoalescedGlobalStores};
  return rule;
}

}  // namespace gpuscope::analysis::rules
