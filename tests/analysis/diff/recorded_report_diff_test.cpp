// Reference 000's workflow on the report recorded on the H200: the FP64 accumulator is
// fixed (its FP64 adds go to zero, the kernel gets faster), profiled again, and compared.
// The "after" report is a copy of the recording altered with SQLite.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/diff/kernel_launches.h"
#include "analysis/diff/report_diff.h"
#include "render/diff_format.h"
#include "store/report_reader.h"

namespace gpuscope::analysis::diff {
namespace {

using render::WriteDiffText;

namespace fs = std::filesystem;

const std::string kRecorded =
    std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_metrics_full.sqlite";
const std::string kDadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";

class RecordedReportDiff : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gpuscope_diff_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    after_ = (dir_ / "after.sqlite").string();
    fs::copy_file(kRecorded, after_, fs::copy_options::overwrite_existing);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Execute(const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(after_.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << message;
  }

  static ReportKernels Load(const std::string& path, MatchBy match = MatchBy::kName) {
    auto reader = store::ReportReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    auto kernels = LoadReportKernels(**reader, match);
    EXPECT_TRUE(kernels.ok()) << kernels.status().message();
    return std::move(kernels.value());
  }

  static const KernelDiff* Find(const ReportDiff& d, const std::string& function) {
    for (const KernelDiff& k : d.kernels) {
      if (k.function_name == function) return &k;
    }
    return nullptr;
  }

  fs::path dir_;
  std::string after_;
};

TEST_F(RecordedReportDiff, TheSameReportHasNoChange) {
  ReportDiff d = DiffReports(Load(kRecorded), Load(kRecorded));
  EXPECT_TRUE(d.only_before.empty());
  EXPECT_TRUE(d.only_after.empty());
  // k_saxpy, k_fma_fp32 x2, k_tiny x3 and the rest: 12 kernel shapes with the init fills.
  EXPECT_GE(d.kernels.size(), 12u);
  for (const KernelDiff& k : d.kernels) {
    for (const MetricDelta& m : k.metrics) {
      EXPECT_EQ(m.change, Change::kSame) << k.function_name << " " << m.name;
      EXPECT_FALSE(m.beyond_noise);
    }
  }
  const KernelDiff* tiny = Find(d, "k_tiny");
  ASSERT_NE(tiny, nullptr);
  EXPECT_EQ(tiny->launches_before, 3u);
}

TEST_F(RecordedReportDiff, FixedAccumulatorShowsFp64GoneAndTimeSaved) {
  Execute("UPDATE kernel_metrics SET value = 0 WHERE metric LIKE '" + kDadd +
          "%' AND profiled_kernel_id IN (SELECT p.id FROM profiled_kernels p JOIN strings s ON "
          "s.id = p.name_id WHERE s.value LIKE '%k_fp64_accumulator%');"
          "UPDATE kernel_metrics SET value = value * 0.6 WHERE metric = "
          "'gpu__time_duration.sum' AND profiled_kernel_id IN (SELECT p.id FROM "
          "profiled_kernels p JOIN strings s ON s.id = p.name_id WHERE s.value LIKE "
          "'%k_fp64_accumulator%');"
          // The launch's trace row too (profiled launches keep their timestamps): 70,912 ns.
          "UPDATE kernels SET \"end\" = start + (\"end\" - start) * 6 / 10 WHERE name_id IN "
          "(SELECT id FROM strings WHERE value LIKE '%k_fp64_accumulator%');");
  ReportDiff d = DiffReports(Load(kRecorded), Load(after_));
  ASSERT_FALSE(d.kernels.empty());
  const KernelDiff& first = d.kernels.front();  // the only kernel whose time changed
  EXPECT_EQ(first.function_name, "k_fp64_accumulator");
  ASSERT_TRUE(first.time_saved_ns);
  EXPECT_NEAR(*first.time_saved_ns, 0.4 * 70912, 2);
  ASSERT_FALSE(first.metrics.empty());
  EXPECT_EQ(first.metrics[0].name, kDadd);  // -100%, an exact count: the top row
  EXPECT_DOUBLE_EQ(first.metrics[0].after.mean, 0);
  EXPECT_EQ(first.metrics[0].change, Change::kBetter);
  EXPECT_TRUE(first.metrics[0].beyond_noise);
  // k_saxpy is untouched.
  const KernelDiff* saxpy = Find(d, "k_saxpy");
  ASSERT_NE(saxpy, nullptr);
  for (const MetricDelta& m : saxpy->metrics) EXPECT_FALSE(m.beyond_noise) << m.name;

  std::ostringstream text;
  WriteDiffText(d, {}, text);
  EXPECT_NE(text.str().find("k_fp64_accumulator"), std::string::npos);
  EXPECT_NE(text.str().find("time saved 28.37 us"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("-100.0%"), std::string::npos);
}

TEST_F(RecordedReportDiff, RepeatedLaunchesGiveTheNoiseBand) {
  // k_saxpy's two launches differ by 0.9% in measured duration; a 3% slower "after" is beyond
  // twice that range (1.9%).
  Execute(
      "UPDATE kernel_metrics SET value = value * 1.03 WHERE metric = "
      "'gpu__time_duration.sum' AND profiled_kernel_id IN (SELECT p.id FROM "
      "profiled_kernels p JOIN strings s ON s.id = p.name_id WHERE s.value LIKE "
      "'%k_saxpy%');");
  ReportDiff d = DiffReports(Load(kRecorded), Load(after_));
  const KernelDiff* saxpy = Find(d, "k_saxpy");
  ASSERT_NE(saxpy, nullptr);
  const MetricDelta* duration = nullptr;
  for (const MetricDelta& m : saxpy->metrics) {
    if (m.name == "gpu__time_duration.sum") duration = &m;
  }
  ASSERT_NE(duration, nullptr);
  EXPECT_EQ(duration->before.count, 2u);
  EXPECT_NE(duration->noise_source.find("range of 2+2 launches"), std::string::npos);
  EXPECT_TRUE(duration->beyond_noise);
  EXPECT_EQ(duration->change, Change::kWorse);
}

// The case: the block size changed and "No kernel is in both reports".
TEST_F(RecordedReportDiff, ChangedBlockSizeIsMatchedByNameAndShown) {
  Execute(
      "UPDATE kernels SET block_x = 64 WHERE name_id IN (SELECT id FROM strings WHERE value "
      "LIKE '%k_dfma_fp64%');");
  ReportDiff d = DiffReports(Load(kRecorded), Load(after_));
  EXPECT_TRUE(d.only_before.empty());
  EXPECT_TRUE(d.only_after.empty());
  const KernelDiff* dfma = Find(d, "k_dfma_fp64");
  ASSERT_NE(dfma, nullptr);
  EXPECT_TRUE(dfma->ConfigChanged());
  ASSERT_EQ(dfma->configs_after.size(), 1u);
  EXPECT_EQ(dfma->configs_after[0].block[0], 64);
  EXPECT_FALSE(dfma->metrics.empty());  // the profiled metrics are compared too
  std::ostringstream text;
  WriteDiffText(d, {}, text);
  EXPECT_NE(text.str().find("block (" + std::to_string(dfma->configs_before[0].block[0]) +
                            ", 1, 1) -> (64, 1, 1)"),
            std::string::npos)
      << text.str();
}

TEST_F(RecordedReportDiff, ChangedLaunchShapeIsUnmatchedByNameAndConfig) {
  Execute(
      "UPDATE kernels SET grid_x = 999 WHERE name_id IN (SELECT id FROM strings WHERE value "
      "LIKE '%k_dfma_fp64%');");
  ReportDiff d = DiffReports(Load(kRecorded, MatchBy::kNameAndConfig),
                             Load(after_, MatchBy::kNameAndConfig));
  ASSERT_EQ(d.only_before.size(), 1u);
  EXPECT_EQ(d.only_before[0].function_name, "k_dfma_fp64");
  ASSERT_EQ(d.only_after.size(), 1u);
  EXPECT_EQ(d.only_after[0].configs[0].grid[0], 999);
}

TEST_F(RecordedReportDiff, NotAReportIsAOneLineError) {
  std::string text_file = (dir_ / "notes.txt").string();
  { std::ofstream(text_file) << "not a report\n"; }
  auto reader = store::ReportReader::Open(text_file);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message().find('\n'), std::string::npos);
  EXPECT_NE(reader.status().message().find("not a gpuscope report"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::analysis::diff
