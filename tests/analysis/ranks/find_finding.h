// The finding of one rule in a communication analysis, for the ranks tests.
#pragma once

#include <string_view>

#include "analysis/ranks/comm_analysis.h"

namespace gpuscope::analysis::ranks {

// The finding `id` raised, or nullptr when it raised none.
inline const Finding* FindRule(const CommAnalysis& analysis, std::string_view id) {
  for (const Finding& finding : analysis.findings) {
    if (finding.rule_id == id) return &finding;
  }
  return nullptr;
}

}  // namespace gpuscope::analysis::ranks
