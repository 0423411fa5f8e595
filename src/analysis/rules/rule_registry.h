// The kernel rules and running them over one profiled kernel.
#pragma once

#include <vector>

#include "analysis/finding.h"
#include "analysis/metrics/kernel_profile.h"
#include "analysis/rules/rule.h"
#include "analysis/source/source_view.h"

namespace gpuscope::analysis::rules {

// Every kernel rule, in the order `gpuscope rules --list` prints them.
const std::vector<Rule>& AllRules();

// The findings of every rule that applies, biggest estimated speedup first; findings without
// an estimate follow, in rule order. A kernel that was not measured has none. `source`: the
// kernel's source page, when the report has one: the findings then name their lines.
std::vector<Finding> RunKernelRules(const metrics::KernelProfile& profile,
                                    const source::KernelSource* source = nullptr);

}  // namespace gpuscope::analysis::rules
