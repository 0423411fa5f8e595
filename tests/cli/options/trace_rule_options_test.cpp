// The options that switch the trace rules on and off: `gpuscope run --no-rules` and
// `gpuscope stats --rules`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/options/run_options.h"
#include "cli/options/stats_options.h"

namespace gpuscope::cli {
namespace {

TEST(TraceRuleOptions, RunPrintsFindingsUnlessNoRules) {
  std::vector<std::string> plain = {"./app"};
  StatusOr<RunOptions> with = ParseRunOptions(plain);
  ASSERT_TRUE(with.ok()) << with.status().message();
  EXPECT_TRUE(with->print_rules);
  std::vector<std::string> args = {"--no-rules", "--", "./app"};
  StatusOr<RunOptions> without = ParseRunOptions(args);
  ASSERT_TRUE(without.ok()) << without.status().message();
  EXPECT_FALSE(without->print_rules);
  EXPECT_NE(RunUsage().find("--no-rules"), std::string::npos);
}

TEST(TraceRuleOptions, StatsRules) {
  std::vector<std::string> args = {"--rules", "r.sqlite"};
  StatusOr<StatsOptions> parsed = ParseStatsOptions(args);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_TRUE(parsed->rules);
  std::vector<std::string> csv = {"--rules", "--format", "csv", "r.sqlite"};
  ASSERT_TRUE(ParseStatsOptions(csv).ok());
}

TEST(TraceRuleOptions, StatsRulesRejectsWhatItCannotCombineWith) {
  std::vector<std::string> json = {"--rules", "--format", "json", "r.sqlite"};
  StatusOr<StatsOptions> parsed = ParseStatsOptions(json);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "--rules prints text or CSV, not JSON");
  std::vector<std::string> page = {"--rules", "--page", "raw", "r.sqlite"};
  parsed = ParseStatsOptions(page);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "--rules cannot be combined with --page or --report");
  std::vector<std::string> report = {"--rules", "--report", "cuda_api_sum", "r.sqlite"};
  EXPECT_FALSE(ParseStatsOptions(report).ok());
}

}  // namespace
}  // namespace gpuscope::cli
