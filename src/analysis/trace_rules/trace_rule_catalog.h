// What each trace rule checks, for `gpuscope rules --list`: the rules themselves (one file
// each) hold their conditions and thresholds; this is their one-paragraph description, in the
// order findings are printed.
#pragma once

#include <span>
#include <string_view>

namespace gpuscope::analysis::trace_rules {

struct TraceRuleDescription {
  std::string_view id;      // the finding's rule_id
  std::string_view checks;  // what the rule looks for in the trace
  std::string_view fix;     // what the finding suggests
};

std::span<const TraceRuleDescription> TraceRuleCatalog();

}  // namespace gpuscope::analysis::trace_rules
