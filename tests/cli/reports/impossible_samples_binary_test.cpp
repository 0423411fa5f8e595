// GPU metric sample values and source counter values that cannot be true
// (analysis/value_range.h) are never shown as facts: every command that shows them leaves them
// out and says in one warning how many it left out and why. Reports are written by the real
// writer with damaged values beside good ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../../support/gpuscope_process.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::cli {
namespace {

using store::testing::kUs;
using testing::Finished;
using testing::RunGpuscope;

constexpr const char* kSampleWarning =
    "2 GPU metric sample values cannot be true (1 percentage outside -1% to 1000%, 1 value that "
    "is not a finite number): left out";
constexpr const char* kSourceWarning =
    "1 source counter value cannot be true (1 count or duration above 2^53): left out";

// Whether `part` stands in `text` exactly once.
bool SaidOnce(const std::string& text, const std::string& part) {
  const std::size_t first = text.find(part);
  return first != std::string::npos && text.find(part, first + 1) == std::string::npos;
}

// A kernel under four samples of SM Active (%) and DRAM read (byte/second); one sample holds
// 1e300 % and an infinite bandwidth.
std::string SampledReport(const store::testing::ScratchDir& dir) {
  const std::string path = dir.File("samples.sqlite");
  store::testing::ReportBuilder builder(path);
  builder.GpuMetrics(0, {{"SM Active", "%"}, {"DRAM Read", "byte/second"}});
  builder.Kernel(0, 400 * kUs);
  builder.GpuMetricSample(0, 0, 100 * kUs, {40.0, 1e9});
  builder.GpuMetricSample(0, 100 * kUs, 100 * kUs,
                          {1e300, std::numeric_limits<double>::infinity()});
  builder.GpuMetricSample(0, 200 * kUs, 100 * kUs, {60.0, 2e9});
  builder.GpuMetricSample(0, 300 * kUs, 100 * kUs, {50.0, 3e9});
  EXPECT_TRUE(builder.Close().ok());
  return path;
}

TEST(ImpossibleSampleValues, TheChromeTraceLeavesThemOutAndWarnsOnce) {
  store::testing::ScratchDir dir;
  const std::string report = SampledReport(dir);
  const std::string json = dir.File("t.json");
  Finished exported = RunGpuscope({"export", "--format", "chrome", "-o", json, report});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_TRUE(SaidOnce(exported.err, kSampleWarning)) << exported.err;
  const std::string trace = store::testing::ReadWholeFile(json);
  // The six good values stay, the two damaged ones are not drawn.
  std::size_t drawn = 0;
  for (std::size_t at = trace.find("\"cat\":\"gpu_metrics\""); at != std::string::npos;
       at = trace.find("\"cat\":\"gpu_metrics\"", at + 1)) {
    ++drawn;
  }
  EXPECT_EQ(drawn, 6u) << trace;
  EXPECT_NE(trace.find("\"value\":60"), std::string::npos) << trace;
  EXPECT_EQ(trace.find("e+300"), std::string::npos);
}

TEST(ImpossibleSampleValues, TheTraceRulesAndTheHtmlReportWarnOnce) {
  store::testing::ScratchDir dir;
  const std::string report = SampledReport(dir);
  Finished rules = RunGpuscope({"stats", "--rules", report});
  ASSERT_EQ(rules.exit_code, 0) << rules.err;
  EXPECT_TRUE(SaidOnce(rules.err, kSampleWarning)) << rules.err;
  const std::string html = dir.File("r.html");
  Finished written = RunGpuscope({"report", "-o", html, report});
  ASSERT_EQ(written.exit_code, 0) << written.err;
  const std::string page = store::testing::ReadWholeFile(html);
  // Among the report's warnings (its GPU metrics table says it again in its sampling row).
  EXPECT_NE(page.find("\"warnings\":[\"" + std::string(kSampleWarning) + "\"]"), std::string::npos);
  EXPECT_EQ(page.find("e+300"), std::string::npos);
}

TEST(ImpossibleSampleValues, TheGpuMetricsSummarySaysItOnce) {
  store::testing::ScratchDir dir;
  const std::string report = SampledReport(dir);
  Finished summary = RunGpuscope({"stats", "--report", "gpu_metrics_sum", report});
  ASSERT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_TRUE(SaidOnce(summary.out, kSampleWarning)) << summary.out;
  EXPECT_EQ(summary.out.find("e+300"), std::string::npos) << summary.out;
}

TEST(ImpossibleSourceCounts, TheSourcePageLeavesThemOutAndWarnsOnce) {
  store::testing::ScratchDir dir;
  const std::string report = dir.File("source.sqlite");
  {
    store::testing::ReportBuilder builder(report);
    store::testing::SourceLaunchSpec spec;
    spec.values = {{77, "_Z4workv", 0x10, "smsp__sass_inst_executed", 4321},
                   {77, "_Z4workv", 0x20, "smsp__sass_inst_executed", std::uint64_t{1} << 60},
                   {77, "_Z4workv", 0x30, "smsp__sass_inst_executed",
                    static_cast<std::uint64_t>(std::int64_t{-5})}};
    builder.ProfiledSourceLaunch(spec);
    ASSERT_TRUE(builder.Close().ok());
  }
  Finished page = RunGpuscope({"source", report, "--csv"});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_TRUE(SaidOnce(page.err, kSourceWarning)) << page.err;
  EXPECT_NE(page.out.find("4321"), std::string::npos) << page.out;
  EXPECT_EQ(page.out.find("1152921504606846976"), std::string::npos) << page.out;
  EXPECT_EQ(page.out.find("18446744073709551611"), std::string::npos) << page.out;
}

}  // namespace
}  // namespace gpuscope::cli
