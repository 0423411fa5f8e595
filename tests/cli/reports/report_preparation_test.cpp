#include "cli/reports/report_preparation.h"

#include <gtest/gtest.h>

#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::TempDir;

TEST(ReportPreparation, AReportThatCannotBeReadIsOneLineNamingIt) {
  TempDir dir;
  const std::string text = dir.Write("notes.sqlite", "not a report\n");
  for (const Status& status :
       {EvaluateBeforeReading(text).status(), EvaluateForViewing(std::vector<std::string>{text})}) {
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message().find(text), std::string::npos) << status.message();
    EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
  }
}

TEST(ReportPreparation, AReportWithoutCounterDataIsReadyAsItIs) {
  TempDir dir;
  const std::string report = dir.File("add.sqlite");
  testing::WriteAddProgramReport(report, 1234);
  StatusOr<evaluate::EvaluationSummary> evaluated = EvaluateBeforeReading(report);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_TRUE(evaluated->problems.empty());
  EXPECT_TRUE(evaluated->not_stored.empty());
}

TEST(ReportPreparation, FinishingAfterARunFailsOnlyWhereTheReportIsMissing) {
  TempDir dir;
  std::vector<std::string> warnings;
  EXPECT_FALSE(FinishAfterRun(dir.File("never_written.sqlite"), true, warnings).ok());
  EXPECT_TRUE(warnings.empty());  // nothing to symbolise without a report
}

}  // namespace
}  // namespace gpuscope::cli
