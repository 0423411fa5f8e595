// `gpuscope run` prints the findings after the summary, before the report's path, unless
// --no-rules.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../../support/planted_report.h"
#include "cli/output/log_output.h"
#include "cli/reports/process_report_printer.h"

namespace gpuscope::cli {
namespace {

using analysis::testing::CopySpec;
using analysis::testing::kMs;

std::string PrintedFor(const std::string& report, const std::string& log_path,
                       const RunOptions& options) {
  StatusOr<std::unique_ptr<LogOutput>> log =
      LogOutput::Open(LogTarget{LogTarget::Kind::kFile, log_path}, {}, /*force_overwrite=*/true);
  EXPECT_TRUE(log.ok()) << log.status().message();
  if (!log.ok()) return "";
  EXPECT_TRUE(
      PrintProcessReport(ManifestEntry{4242, 1, report}, options, "./planted", "", *log.value()));
  log.value().reset();
  std::ifstream in(log_path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class RunFindings : public ::testing::Test {
 protected:
  RunFindings() {
    analysis::testing::ReportBuilder trace(report_, analysis::testing::Planted());
    trace.Kernel(0, kMs);
    trace.Copy(kMs, 4 * kMs, CopySpec{.host = model::MemoryKind::kPageable});
    EXPECT_TRUE(trace.Close().ok());  // ASSERT cannot return from a constructor
  }
  analysis::testing::ScratchDir dir_;
  std::string report_ = dir_.File("r.sqlite");
  std::string log_ = dir_.File("log.txt");
};

TEST_F(RunFindings, AfterTheSummaryBeforeTheReportPath) {
  std::string text = PrintedFor(report_, log_, RunOptions{});
  std::size_t summary = text.find("GPU activities:");
  std::size_t findings = text.find(
      "==4242== Findings:\n    OPT   Copies from or to pageable host "
      "memory [pageable_copies]   Est. Gain: 2.0000ms\n");
  std::size_t path = text.find("==4242== Report: ");
  ASSERT_NE(summary, std::string::npos) << text;
  ASSERT_NE(findings, std::string::npos) << text;
  ASSERT_NE(path, std::string::npos) << text;
  EXPECT_LT(summary, findings);
  EXPECT_LT(findings, path);
}

TEST_F(RunFindings, NoRulesPrintsNone) {
  RunOptions options;
  options.print_rules = false;
  std::string text = PrintedFor(report_, log_, options);
  EXPECT_NE(text.find("GPU activities:"), std::string::npos) << text;
  EXPECT_EQ(text.find("Findings"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpuscope::cli
