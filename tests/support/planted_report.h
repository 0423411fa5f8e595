// Reports for the trace-rule tests, built with the test fixtures' ReportBuilder through the
// real store::ReportWriter: each test plants one pattern and checks that exactly the right
// rule fires on it.
#pragma once

#include <string>
#include <vector>

#include "analysis/trace_rules/run_trace_rules.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::testing {

using store::testing::CopySpec;
using store::testing::kMs;
using store::testing::kUs;
using store::testing::ReportBuilder;
using store::testing::ScratchDir;

// Every time in these tests is an offset in ns from the report's origin.
inline constexpr model::Timestamp kT0 = store::testing::kTraceOrigin;

// The process every planted report comes from.
inline ReportBuilder::Options Planted() { return {.command_line = "./planted"}; }

// Opens the report and runs the rules; fails the test on error.
std::vector<Finding> FindingsOf(const std::string& path);
// The rule ids of the findings, in order.
std::vector<std::string> RuleIds(const std::vector<Finding>& findings);

}  // namespace gpuscope::analysis::testing
