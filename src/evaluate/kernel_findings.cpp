#include "evaluate/kernel_findings.h"

#include <string>
#include <utility>

#include "analysis/rules/rule_registry.h"

namespace gpuscope::evaluate {

std::map<std::int64_t, std::vector<store::StoredFinding>> FindingsOfMeasuredKernels(
    const std::vector<analysis::metrics::KernelProfile>& kernels,
    const std::map<std::int64_t, analysis::source::KernelSource>& sources) {
  std::map<std::int64_t, std::vector<store::StoredFinding>> stored;
  for (const analysis::metrics::KernelProfile& kernel : kernels) {
    if (!kernel.measured) continue;
    std::vector<store::StoredFinding>& list = stored[kernel.id];
    const auto source = sources.find(kernel.id);
    const analysis::source::KernelSource* page =
        source != sources.end() && !source->second.instructions.empty() ? &source->second : nullptr;
    for (const analysis::Finding& finding : analysis::rules::RunKernelRules(kernel, page)) {
      store::StoredFinding f;
      f.rule_id = finding.rule_id;
      f.severity = std::string(analysis::SeverityName(finding.severity));
      f.section = finding.section;
      f.title = finding.title;
      f.message = finding.message;
      f.speedup_pct = finding.speedup_pct;
      f.speedup_formula = finding.speedup_formula;
      list.push_back(std::move(f));
    }
  }
  return stored;
}

}  // namespace gpuscope::evaluate
