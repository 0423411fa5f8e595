// One grammar across commands (issue 18): what the first word of `gpuscope WORD` means when it
// is no subcommand, options that would be ignored, and `rules --list` listing every rule.
#include <gtest/gtest.h>

#include <string>

#include "../support/gpuscope_process.h"
#include "recorded_reports.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RecordedReport;
using testing::RunGpuscope;

// A usage error: one line on stderr, nothing traced, nothing on stdout, exit 2.
void ExpectUsageError(const Finished& result, const std::string& contains) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("gpuscope: error: ", 0), 0u) << result.err;
  EXPECT_NE(result.err.find(contains), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("=="), std::string::npos) << "nothing was traced: " << result.err;
}

TEST(CommandGrammar, ATypoOfACommandSuggestsIt) {
  ExpectUsageError(RunGpuscope({"stast", RecordedReport("h100_add.sqlite")}), "did you mean stats?");
  ExpectUsageError(RunGpuscope({"profil"}), "did you mean profile?");
}

// /usr/bin/stat exists: it must not run under tracing because its name is close to stats.
TEST(CommandGrammar, ANearMissIsNotAProgramToTrace) {
  Finished result = RunGpuscope({"stat", RecordedReport("h100_add.sqlite")});
  ExpectUsageError(result, "did you mean stats?");
  EXPECT_NE(result.err.find("gpuscope run -- stat"), std::string::npos) << result.err;
}

TEST(CommandGrammar, AReportIsNotAProgramToTrace) {
  std::string report = RecordedReport("h100_add.sqlite");
  ExpectUsageError(RunGpuscope({report}), "did you mean 'gpuscope stats " + report + "'?");
}

TEST(CommandGrammar, ViewRefusesAnExitAfterOfZero) {
  ExpectUsageError(RunGpuscope({"view", "--exit-after-seconds", "0", RecordedReport("h100_add.sqlite")}),
                   "needs at least 1 second");
}

TEST(CommandGrammar, RulesListShowsTheTraceRulesToo) {
  Finished text = RunGpuscope({"rules", "--list"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  Finished csv = RunGpuscope({"rules", "--csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  // The six rule ids findings carry (docs/commands/rules.md).
  for (const char* id : {"pageable_copies", "synchronous_transfers", "idle_gaps",
                         "launch_bound_kernels", "serialized_transfers", "allocation_in_loop"}) {
    EXPECT_NE(text.out.find(std::string("TRACE  ") + id + "\n"), std::string::npos) << id;
    EXPECT_NE(csv.out.find(std::string("\"") + id + "\",\"trace\""), std::string::npos) << id;
  }
  // And the rank rules of `gpuscope ranks`.
  for (const char* id : {"rank_straggler", "rank_imbalance", "exposed_communication"}) {
    EXPECT_NE(text.out.find(std::string("RANKS  ") + id + "\n"), std::string::npos) << id;
    EXPECT_NE(csv.out.find(std::string("\"") + id + "\",\"ranks\""), std::string::npos) << id;
  }
}

}  // namespace
}  // namespace gpuscope::cli
