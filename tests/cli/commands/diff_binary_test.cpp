// `gpuscope diff` as CI runs it, on the reports recorded on the GPU (tests/data/reports) and
// copies of them changed with SQL: kernels paired by name across a block-size change, exit 3
// with --fail-on regression when a kernel or an NVTX range got slower beyond noise, and the
// documented JSON shape. Expected names come from the report through SQL written here.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using analysis::testing::JsonValue;
using exporter::testing::ExecSql;
using testing::Finished;
using testing::ParsedJson;
using testing::RecordedReport;
using testing::RunGpuscope;
using testing::TempDir;

const JsonValue& RequiredMember(const JsonValue& object, const std::string& key) {
  static const JsonValue kMissing;
  const JsonValue* value = object.Find(key);
  EXPECT_NE(value, nullptr) << key;
  return value ? *value : kMissing;
}

class DiffBinary : public ::testing::Test {
 protected:
  // A copy of a recorded report, changed by `sql`.
  std::string Changed(const std::string& recorded, const std::string& sql) {
    std::string path = dir_.File("after_" + recorded);
    std::filesystem::copy_file(RecordedReport(recorded), path);
    ExecSql(path, sql);
    return path;
  }
  TempDir dir_;
};

TEST_F(DiffBinary, AChangedBlockSizeIsTheSameKernelWithItsConfigChange) {
  const std::string before = RecordedReport("h100_add.sqlite");
  const std::string after = Changed("h100_add.sqlite", "UPDATE kernels SET block_x = 64");
  Finished ran = RunGpuscope({"diff", before, after});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(ran.out.find("No kernel is in both reports"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("add  grid (1, 1, 1)  block (1, 1, 1) -> (64, 1, 1)"),
            std::string::npos)
      << ran.out;
  // Paired by shape as well, they are two kernels.
  Finished by_config = RunGpuscope({"diff", "--match", "name+config", before, after});
  ASSERT_EQ(by_config.exit_code, 0) << by_config.err;
  EXPECT_NE(by_config.out.find("No kernel is in both reports"), std::string::npos)
      << by_config.out;
}

TEST_F(DiffBinary, FailOnRegressionExitsThreeForSlowerKernelsAndRanges) {
  const std::string before = RecordedReport("h100_nvtx_ranges.sqlite");
  // Every kernel three times as long: the kernel and the ranges that launched it are slower.
  const std::string after =
      Changed("h100_nvtx_ranges.sqlite", "UPDATE kernels SET \"end\" = start + 3 * (\"end\" - start)");
  Finished gated = RunGpuscope({"diff", "--fail-on", "regression", "--format", "json", before, after});
  EXPECT_EQ(gated.exit_code, 3) << gated.err;
  EXPECT_EQ(gated.err, "");
  JsonValue document = ParsedJson(gated.out);
  EXPECT_EQ(RequiredMember(document, "match").text, "name");
  const std::vector<JsonValue>& kernels = RequiredMember(document, "kernels").array;
  ASSERT_EQ(kernels.size(), 1u) << gated.out;
  EXPECT_EQ(RequiredMember(kernels[0], "function").text, "nvtxWork");
  EXPECT_TRUE(RequiredMember(kernels[0], "regression").boolean);
  const JsonValue& time = RequiredMember(kernels[0], "time");
  EXPECT_EQ(RequiredMember(time, "change").text, "worse");
  EXPECT_NEAR(RequiredMember(time, "relative").number, 2.0, 1e-9);
  // The ranges that launched it: "inner" (around each launch) and "outer".
  std::vector<std::string> slower_ranges;
  for (const JsonValue& range : RequiredMember(document, "nvtx_ranges").array) {
    if (RequiredMember(range, "regression").boolean)
      slower_ranges.push_back(RequiredMember(range, "name").text);
  }
  EXPECT_EQ(slower_ranges, (std::vector<std::string>{"inner", "outer"})) << gated.out;
  EXPECT_EQ(RequiredMember(document, "regressions").number, 3);

  // Without --fail-on the same comparison exits 0; the text names the regressions.
  Finished text = RunGpuscope({"diff", before, after});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Regressions beyond noise: 3 (kernel nvtxWork, NVTX range inner, "
                          "NVTX range outer)"),
            std::string::npos)
      << text.out;
}

TEST_F(DiffBinary, FailOnRegressionPassesWhenNothingGotSlower) {
  const std::string before = RecordedReport("h100_nvtx_ranges.sqlite");
  // Faster kernels are no regression.
  const std::string after =
      Changed("h100_nvtx_ranges.sqlite", "UPDATE kernels SET \"end\" = start + (\"end\" - start) / 2");
  for (const std::string& other : {before, after}) {
    Finished ran = RunGpuscope({"diff", "--fail-on", "regression", "--format", "json", before, other});
    EXPECT_EQ(ran.exit_code, 0) << ran.err << ran.out;
    EXPECT_EQ(RequiredMember(ParsedJson(ran.out), "regressions").number, 0);
  }
}

TEST_F(DiffBinary, CsvIsSpelledBothWays) {
  const std::string report = RecordedReport("h100_nvtx_ranges.sqlite");
  Finished csv = RunGpuscope({"diff", "--csv", report, report});
  Finished format = RunGpuscope({"diff", "--format", "csv", report, report});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out, format.out);
  EXPECT_EQ(csv.out.rfind("Kind,Function,Name,", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find("\nnvtx_range,,outer,"), std::string::npos) << csv.out;
}

TEST_F(DiffBinary, BadValuesAreUsageErrors) {
  const std::string report = RecordedReport("h100_add.sqlite");
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {{"--match", "shape"}, "option '--match' expects name, name+config or name+callsite, not 'shape'"},
           {{"--fail-on", "crash"}, "option '--fail-on' expects regression, not 'crash'"},
           {{"--format", "xml"}, "option '--format' expects column, csv or json, not 'xml'"},
       }) {
    std::vector<std::string> args = {"diff"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.push_back(report);
    args.push_back(report);
    Finished ran = RunGpuscope(args);
    EXPECT_EQ(ran.exit_code, 2) << c.error;
    EXPECT_EQ(ran.err.rfind("gpuscope: error: " + c.error + "\n", 0), 0u) << ran.err;
    EXPECT_EQ(ran.out, "");
  }
}

}  // namespace
}  // namespace gpuscope::cli
