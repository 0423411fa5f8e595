// The rank rules: findings about a multi-rank job as a whole, from the communication
// analysis (comm_analysis.h). One file per rule with its thresholds next to its condition:
// rank_straggler.cpp, rank_imbalance.cpp, exposed_communication.cpp; what each checks, for
// `gpuscope rules --list`, in rank_rule_catalog.cpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "analysis/trace_rules/trace_rule_catalog.h"

namespace gpuscope::analysis::ranks {

struct CommAnalysis;

std::optional<Finding> FindStraggler(const CommAnalysis& analysis);
std::optional<Finding> FindImbalance(const CommAnalysis& analysis);
std::optional<Finding> FindExposedCommunication(const CommAnalysis& analysis);

// The findings that fire, in the order above.
std::vector<Finding> RankFindings(const CommAnalysis& analysis);

// The rules' ids, what they check and what they suggest (the trace rules' description type).
std::span<const trace_rules::TraceRuleDescription> RankRuleCatalog();

// Mean span of the ranks (what shares are taken of), 0 without ranks.
std::uint64_t MeanSpan(const CommAnalysis& analysis);

}  // namespace gpuscope::analysis::ranks
