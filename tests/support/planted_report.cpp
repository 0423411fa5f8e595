#include "planted_report.h"

#include <gtest/gtest.h>

#include "store/report_reader.h"

namespace gpuscope::analysis::testing {

std::vector<Finding> FindingsOf(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return {};
  StatusOr<std::vector<Finding>> findings = trace_rules::RunTraceRules(*reader.value());
  EXPECT_TRUE(findings.ok()) << findings.status().message();
  if (!findings.ok()) return {};
  return std::move(findings.value());
}

std::vector<std::string> RuleIds(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (const Finding& finding : findings) ids.push_back(finding.rule_id);
  return ids;
}

}  // namespace gpuscope::analysis::testing
