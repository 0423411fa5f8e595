// Global loads that use only part of each 32-byte sector they move (a stride between
// threads, misaligned or scattered accesses): the unused bytes cost bandwidth all the same.
#include "analysis/rules/access_pattern.h"
#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

std::optional<Finding> EvaluateUncoalescedGlobalLoads(const RuleInputs& in) {
  return AccessPatternFinding(in, /*load=*/true, UncoalescedGlobalLoadsRule());
}

}  // namespace

const Rule& UncoalescedGlobalLoadsRule() {
  static const Rule rule{"uncoalesced_global_loads",
                         "MemoryWorkloadAnalysis",
                         Severity::kOpt,
                         "global loads use < 28 of the 32 bytes of each sector "
                         "(smsp__sass_average_data_bytes_per_sector_mem_global_op_ld)",
                         kAccessPatternFormula,
                         EvaluateUncoalescedGlobalLoads};
  return rule;
}

}  // namespace gpuscope::analysis::rules
