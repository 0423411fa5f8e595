// A result of `--replay-mode app-range` is a range of the program, not a launch: written by
// the production ReportWriter (a profiled_kernels row with correlation 0 and a profiled_ranges
// row), read back by the store and the profile loader, and printed by every page as a range
// ("Range: name (N kernels)", no grid or block) - the details and raw pages, their CSVs and
// --print-summary.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "analysis/metrics/profile_loader.h"
#include "analysis/metrics/section_catalog.h"
#include "render/details_format.h"
#include "render/kernel_summary.h"
#include "render/metrics_csv.h"
#include "store/evaluation_writer.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "store/testing/devices.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope {
namespace {

constexpr const char* kRangeName = "cudaProfilerStart/Stop range 0";
constexpr const char* kInstructions = "smsp__inst_executed.sum";

struct RangeReport {
  store::testing::ScratchDir dir;
  std::string path = dir.File("range.sqlite");
};

// One measured range holding 3 launches and one unmeasured NVTX range holding 1.
void WriteRangeReport(const RangeReport& report) {
  store::testing::ReportBuilder builder(report.path);
  model::DeviceRecord device = store::testing::H200();
  builder.Write(device);
  const std::vector<std::uint8_t> image(64, 7);
  model::ProfiledKernelRecord range;
  range.correlation_id = 0;
  range.device_id = device.id;
  range.context_id = 1;
  range.invocation = 0;
  range.profile_index = 0;
  range.start = builder.At(500);
  range.end = builder.At(90'000);
  range.mangled_name = kRangeName;
  range.chip = "GH100";
  range.passes = 5;
  range.replay_mode = model::ReplayMode::kAppRange;
  range.outcome = model::ProfileOutcome::kMeasured;
  range.counter_data = image;
  range.range_kernels = 3;
  builder.Write(range);
  model::ProfiledKernelRecord unmeasured = range;
  unmeasured.profile_index = 1;
  unmeasured.invocation = 1;
  unmeasured.mangled_name = "Solver@step";
  unmeasured.outcome = model::ProfileOutcome::kNotReplayable;
  unmeasured.message = "no CUDA context was current on the thread where the range began";
  unmeasured.counter_data = {};
  unmeasured.range_kernels = 1;
  builder.Write(unmeasured);
  ASSERT_TRUE(builder.Close().ok());

  auto reader = store::ReportReader::Open(report.path);
  ASSERT_TRUE(reader.ok());
  auto stored = store::ReadProfiledKernels(**reader);
  ASSERT_TRUE(stored.ok()) << stored.status().message();
  ASSERT_EQ(stored->size(), 2u);
  store::EvaluationRows rows;
  rows.metrics[stored->front().id].push_back({kInstructions, 52428800.0, "inst"});
  ASSERT_TRUE(store::WriteEvaluation(report.path, rows).ok());
}

std::vector<analysis::metrics::KernelProfile> Load(const RangeReport& report) {
  auto reader = store::ReportReader::Open(report.path);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return {};
  auto profiles = analysis::metrics::LoadKernelProfiles(**reader);
  EXPECT_TRUE(profiles.ok()) << profiles.status().message();
  return profiles.ok() ? *profiles : std::vector<analysis::metrics::KernelProfile>();
}

TEST(RangeResult, StoredAndReadBackAsARangeWithItsKernelCount) {
  RangeReport report;
  WriteRangeReport(report);
  auto reader = store::ReportReader::Open(report.path);
  ASSERT_TRUE(reader.ok());
  auto stored = store::ReadProfiledKernels(**reader);
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), 2u);
  EXPECT_EQ((*stored)[0].replay_mode, model::ReplayMode::kAppRange);
  EXPECT_EQ((*stored)[0].correlation_id, 0u);
  EXPECT_EQ((*stored)[0].mangled_name, kRangeName);
  EXPECT_EQ((*stored)[0].range_kernels, 3u);
  EXPECT_EQ((*stored)[1].range_kernels, 1u);

  std::vector<analysis::metrics::KernelProfile> profiles = Load(report);
  ASSERT_EQ(profiles.size(), 2u);
  const analysis::metrics::KernelProfile& measured = profiles[0];
  EXPECT_TRUE(measured.is_range);
  EXPECT_EQ(measured.range_kernels, 3u);
  EXPECT_EQ(measured.function_name, kRangeName);  // not shortened like a C++ signature
  EXPECT_TRUE(measured.measured);
  EXPECT_EQ(measured.metrics.at(kInstructions), 52428800.0);
  EXPECT_EQ(measured.grid, (std::array<std::int32_t, 3>{0, 0, 0}));  // no launch of its own
}

TEST(RangeResult, PagesNameItAsARange) {
  RangeReport report;
  WriteRangeReport(report);
  std::vector<analysis::metrics::KernelProfile> profiles = Load(report);
  ASSERT_EQ(profiles.size(), 2u);
  EXPECT_EQ(render::KernelHeaderLine(profiles[0]),
            "  Range: cudaProfilerStart/Stop range 0 (3 kernels), Context 1, Device 0, CC 9.0");
  EXPECT_EQ(render::KernelHeaderLine(profiles[1]),
            "  Range: Solver@step (1 kernel), Context 1, Device 0, CC 9.0");

  const analysis::metrics::Section section =
      analysis::metrics::CommandLineMetricsSection({kInstructions});
  std::ostringstream details;
  render::PrintDetailsPage(details, profiles, {&section}, {.findings = false});
  EXPECT_NE(details.str().find("Range: cudaProfilerStart/Stop range 0 (3 kernels)"),
            std::string::npos)
      << details.str();
  EXPECT_NE(details.str().find("52,428,800"), std::string::npos) << details.str();
  EXPECT_NE(details.str().find("Not measured: no CUDA context was current"), std::string::npos);

  std::ostringstream summary;
  render::PrintKernelSummary(summary, profiles, {&section});
  EXPECT_NE(summary.str().find("Range: cudaProfilerStart/Stop range 0 (3 kernels)"),
            std::string::npos)
      << summary.str();

  // The CSVs: the range's name as the kernel name, no grid or block.
  std::ostringstream csv;
  render::WriteDetailsCsv(csv, profiles, {&section});
  // ... "Kernel Name","Invocation","Context","Stream","Device","CC","Grid Size","Block Size"
  EXPECT_NE(csv.str().find("\"cudaProfilerStart/Stop range 0\",\"0\",\"1\",\"0\",\"0\","
                           "\"9.0\",\"\",\"\""),
            std::string::npos)
      << csv.str();
  std::ostringstream summary_csv;
  render::WriteKernelSummaryCsv(summary_csv, profiles, {&section});
  EXPECT_NE(summary_csv.str().find("\"cudaProfilerStart/Stop range 0\",\"1\",\"0\",\"0\",\"9.0\","
                                   "\"\",\"\""),
            std::string::npos)
      << summary_csv.str();
}

}  // namespace
}  // namespace gpuscope
