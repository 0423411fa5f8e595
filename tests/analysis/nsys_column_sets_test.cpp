// The column sets of the nsys tables that were first written from memory, pinned to what
// Nsight Systems documents and prints: the Nsight Systems Post-Collection Analysis Guide,
// "Statistical Reports Shipped With Nsight Systems" (docs.nvidia.com/nsight-systems/
// AnalysisGuide: nvtx_kern_sum, nvtx_gpu_proj_sum, cuda_gpu_kern_gb_sum, cuda_gpu_trace,
// cuda_api_trace list their columns in this order), and the headers `nsys stats` prints,
// with their units ("Total Proj Time (ns)", "StcSMem (MB)", "Throughput (MB/s)"; "GreenCtx" in
// current versions), as found in published nsys output. A range of the default domain is
// ":name" in every NVTX table, as current nsys prints it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/stats_reports.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis {
namespace {

using model::NvtxKind;

// A range "step" (default domain) launching a kernel and a copy, and a range "load" of the
// domain "io" launching a kernel.
class NsysColumnSets : public ::testing::Test {
 protected:
  void SetUp() override {
    {
      store::testing::ReportBuilder report(dir_.File("r.sqlite"));
      report.Range(NvtxKind::kPushPopRange, "step", 0, 10'000, {.id = 1});
      report.Api("cudaLaunchKernel", 1'000, 500, 1);
      report.Kernel(2'000, 1'000, {.correlation = 1, .grid = {8, 1, 1}, .block = {128, 1, 1}});
      report.Api("cudaMemcpyAsync", 3'000, 500, 2);
      report.Copy(4'000, 1'000, {.correlation = 2});
      report.Range(NvtxKind::kPushPopRange, "load", 20'000, 5'000, {.id = 2, .domain = "io"});
      report.Api("cudaLaunchKernel", 21'000, 500, 3);
      report.Kernel(22'000, 1'000, {.correlation = 3});
      ASSERT_TRUE(report.Close().ok());
    }
    StatusOr<std::unique_ptr<store::ReportReader>> reader =
        store::ReportReader::Open(dir_.File("r.sqlite"));
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    reader_ = std::move(reader.value());
  }

  StatsTable Table(const std::string& name) {
    StatusOr<StatsTable> table = BuildStatsReport(name, {reader_.get()});
    EXPECT_TRUE(table.ok()) << table.status().message();
    return table.ok() ? std::move(table.value()) : StatsTable{};
  }
  static std::vector<std::string> Columns(const StatsTable& table) {
    std::vector<std::string> names;
    for (const StatsColumn& column : table.columns) names.push_back(column.header);
    return names;
  }
  // The text cells of the column `header`, row by row.
  static std::vector<std::string> Texts(const StatsTable& table, const std::string& header) {
    std::vector<std::string> texts;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (table.columns[c].header != header) continue;
      for (const std::vector<StatsCell>& row : table.rows) texts.push_back(row[c].text);
    }
    return texts;
  }

  store::testing::ScratchDir dir_;
  std::unique_ptr<store::ReportReader> reader_;
};

TEST_F(NsysColumnSets, NvtxKernSum) {
  StatsTable table = Table("nvtx_kern_sum");
  EXPECT_EQ(table.title, "NVTX Range Kernel Summary");
  EXPECT_EQ(Columns(table),
            (std::vector<std::string>{"NVTX Range", "Style", "PID", "TID", "NVTX Inst", "Kern Inst",
                                      "Total Time (ns)", "Avg (ns)", "Med (ns)", "Min (ns)",
                                      "Max (ns)", "StdDev (ns)", "Kernel Name"}));
  EXPECT_EQ(Texts(table, "NVTX Range"), (std::vector<std::string>{":step", "io:load"}));
  EXPECT_EQ(Texts(table, "Style"), (std::vector<std::string>{"PushPop", "PushPop"}));
}

TEST_F(NsysColumnSets, NvtxGpuProjSum) {
  StatsTable table = Table("nvtx_gpu_proj_sum");
  EXPECT_EQ(table.title, "NVTX GPU Projection Summary");
  EXPECT_EQ(Columns(table), (std::vector<std::string>{
                                "Range", "Style", "Total Proj Time (ns)", "Total Range Time (ns)",
                                "Range Instances", "Proj Avg (ns)", "Proj Med (ns)",
                                "Proj Min (ns)", "Proj Max (ns)", "Proj StdDev (ns)",
                                "Total GPU Ops", "Avg GPU Ops", "Avg Range Lvl", "Avg Num Child"}));
  // "step" projects from its kernel's start to its copy's end: 3,000 ns, more than "load".
  EXPECT_EQ(Texts(table, "Range"), (std::vector<std::string>{":step", "io:load"}));
}

TEST_F(NsysColumnSets, NvtxSumNamesRangesAsTheOtherNvtxTables) {
  StatsTable table = Table("nvtx_sum");
  EXPECT_EQ(Columns(table), (std::vector<std::string>{
                                "Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)",
                                "Min (ns)", "Max (ns)", "StdDev (ns)", "Style", "Range"}));
  EXPECT_EQ(Texts(table, "Range"), (std::vector<std::string>{":step", "io:load"}));
}

TEST_F(NsysColumnSets, CudaGpuKernGbSum) {
  StatsTable table = Table("cuda_gpu_kern_gb_sum");
  EXPECT_EQ(table.title, "CUDA GPU Kernel/Grid/Block Summary");
  EXPECT_EQ(Columns(table),
            (std::vector<std::string>{"Time (%)", "Total Time (ns)", "Instances", "Avg (ns)",
                                      "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)", "GridXYZ",
                                      "BlockXYZ", "Name"}));
  // nsys's "%4d %4d %4d"; equal totals in label order.
  EXPECT_EQ(Texts(table, "GridXYZ"),
            (std::vector<std::string>{"   1    1    1", "   8    1    1"}));
  EXPECT_EQ(Texts(table, "BlockXYZ"),
            (std::vector<std::string>{"  32    1    1", " 128    1    1"}));
}

TEST_F(NsysColumnSets, CudaGpuTrace) {
  StatsTable table = Table("cuda_gpu_trace");
  EXPECT_EQ(table.title, "CUDA GPU Trace");
  EXPECT_EQ(Columns(table), (std::vector<std::string>{"Start (ns)",   "Duration (ns)",
                                                      "CorrId",       "GrdX",
                                                      "GrdY",         "GrdZ",
                                                      "BlkX",         "BlkY",
                                                      "BlkZ",         "Reg/Trd",
                                                      "StcSMem (MB)", "DymSMem (MB)",
                                                      "Bytes (MB)",   "Throughput (MB/s)",
                                                      "SrcMemKd",     "DstMemKd",
                                                      "Device",       "Ctx",
                                                      "GreenCtx",     "Strm",
                                                      "Name"}));
  ASSERT_EQ(table.rows.size(), 3u);
  for (const std::vector<StatsCell>& row : table.rows) {
    ASSERT_EQ(row.size(), table.columns.size());
    EXPECT_TRUE(row[18].empty) << "GreenCtx: green contexts are not recorded";
    EXPECT_FALSE(row[19].empty) << "Strm";
  }
}

TEST_F(NsysColumnSets, CudaApiTrace) {
  StatsTable table = Table("cuda_api_trace");
  EXPECT_EQ(table.title, "CUDA API Trace");
  EXPECT_EQ(Columns(table),
            (std::vector<std::string>{"Start (ns)", "Duration (ns)", "Name", "Result", "CorrID",
                                      "Pid", "Tid", "T-Pri", "Thread Name"}));
  ASSERT_EQ(table.rows.size(), 3u);
  for (const std::vector<StatsCell>& row : table.rows) ASSERT_EQ(row.size(), table.columns.size());
}

}  // namespace
}  // namespace gpuscope::analysis
