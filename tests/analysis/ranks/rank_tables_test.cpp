// `stats --report rank_align,rank_kern_sum,rank_nvtx_sum` through render::WriteStatsReport
// (the code `gpuscope stats` runs) on synthetic ranks, in JSON (read back), column and CSV.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>

#include "../../support/json_checker.h"
#include "render/stats_report.h"
#include "store/report_reader.h"
#include "store/testing/rank_reports.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::ranks {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParseJson;
using store::testing::RankReportsSpec;

class RankTablesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new store::testing::ScratchDir();
    RankReportsSpec spec;
    spec.ranks = 8;
    spec.ranks_per_host = 4;
    spec.host_clock_offset_ns = {0, 2'000'000};
    spec.steps = 5;
    spec.kernels_per_step = 4;
    spec.straggler_rank = 6;
    spec.straggler_delay_ns = 300'000;
    paths_ = store::testing::WriteRankReports(spec, dir_->path());
  }
  static void TearDownTestSuite() { delete dir_; }

  void SetUp() override {
    ASSERT_EQ(paths_.size(), 8u);
    // Given highest rank first: the tables come out in rank order anyway.
    for (auto path = paths_.rbegin(); path != paths_.rend(); ++path) {
      auto reader = store::ReportReader::Open(*path);
      ASSERT_TRUE(reader.ok()) << reader.status().message();
      readers_.push_back(std::move(reader.value()));
      reports_.push_back(readers_.back().get());
    }
  }

  std::string Write(const std::string& name, render::StatsFormat format) {
    std::ostringstream out;
    Status written = render::WriteStatsReport(name, reports_, format, out);
    EXPECT_TRUE(written.ok()) << written.message();
    return out.str();
  }

  std::vector<JsonValue> Rows(const std::string& name) {
    std::string text = Write(name, render::StatsFormat::kJson);
    std::string error;
    std::optional<JsonValue> root = ParseJson(text, &error);
    EXPECT_TRUE(root.has_value()) << error << "\n" << text;
    return root ? root->array : std::vector<JsonValue>{};
  }

  static inline store::testing::ScratchDir* dir_ = nullptr;
  static inline std::vector<std::string> paths_;
  std::vector<std::unique_ptr<store::ReportReader>> readers_;
  Reports reports_;
};

std::string Field(const JsonValue& row, std::string_view column) {
  const JsonValue* value = row.Find(column);
  if (value == nullptr) return "<missing>";
  return value->kind == JsonValue::Kind::kNull ? "null" : value->text;
}

TEST_F(RankTablesTest, RankAlignListsEveryRanksOffsetInRankOrder) {
  std::vector<JsonValue> rows = Rows("rank_align");
  ASSERT_EQ(rows.size(), 8u);
  for (int r = 0; r < 8; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(Field(rows[r], "Rank"), std::to_string(r));
    EXPECT_EQ(Field(rows[r], "Host"), r < 4 ? "node0" : "node1");
    EXPECT_EQ(Field(rows[r], "PID"), std::to_string(30000 + r));
    // Host 1's clock is 2 ms ahead: its times move back by 2 ms.
    EXPECT_EQ(Field(rows[r], "Offset (ns)"), r < 4 ? "0" : "-2000000");
    EXPECT_EQ(Field(rows[r], "Error (ns)"), "0");
    EXPECT_EQ(Field(rows[r], "Method"), r == 0  ? "reference"
                                        : r < 4 ? "same host"
                                                : "collectives (5 matched)");
    // One GPU pair (the run is shorter than a flush period: the end's): the GPU timer's
    // offset from CLOCK_REALTIME, 700 + 100 ns per local rank plus a few ns of drift.
    const std::int64_t gpu = std::stoll(Field(rows[r], "GPU - host (ns)"));
    EXPECT_GE(gpu, store::testing::GpuClockOffsetNs(r % 4, 0));
    EXPECT_LE(gpu, store::testing::GpuClockOffsetNs(r % 4, 10'000'000));
    EXPECT_EQ(Field(rows[r], "GPU spread (ns)"), "0");
  }
  std::string column = Write("rank_align", render::StatsFormat::kColumn);
  EXPECT_NE(column.find(" ** Rank Clock Alignment (rank_align):"), std::string::npos) << column;
  EXPECT_NE(column.find("-2,000,000"), std::string::npos) << column;
  std::string csv = Write("rank_align", render::StatsFormat::kCsv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Rank,Host,PID,Offset (ns),Error (ns),Method,GPU - host (ns),GPU spread (ns)");
  EXPECT_NE(csv.find("\n4,node1,30004,-2000000,0,collectives (5 matched),7"), std::string::npos)
      << csv;
}

// Per rank and kernel name, the total time and count, read straight from the reports.
std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> KernelTotalsByName(
    const std::vector<std::string>& paths) {
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> totals;
  for (const std::string& path : paths) {
    auto reader = store::ReportReader::Open(path);
    EXPECT_TRUE(reader.ok());
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> mine;
    EXPECT_TRUE(reader.value()
                    ->ForEachKernel([&](const store::KernelRow& row) {
                      auto& total = mine[std::string(row.demangled_name)];
                      total.first += row.record.end - row.record.start;
                      total.second += 1;
                      return true;
                    })
                    .ok());
    for (const auto& [name, total] : mine) totals[name].push_back(total);
  }
  return totals;
}

TEST_F(RankTablesTest, RankKernSumSpreadsEachKernelsTimeOverTheRanks) {
  std::vector<JsonValue> rows = Rows("rank_kern_sum");
  auto expected = KernelTotalsByName(paths_);
  ASSERT_EQ(rows.size(), expected.size());
  ASSERT_EQ(expected.size(), 3u);  // gemm_kernel, elementwise_kernel, the all-reduce
  for (const JsonValue& row : rows) {
    const std::string name = Field(row, "Name");
    SCOPED_TRACE(name);
    ASSERT_TRUE(expected.contains(name));
    std::vector<std::pair<std::uint64_t, std::uint64_t>>& per_rank = expected[name];
    std::vector<std::uint64_t> times;
    std::uint64_t instances = 0;
    for (const auto& [time, count] : per_rank) {
      times.push_back(time);
      instances += count;
    }
    std::sort(times.begin(), times.end());
    EXPECT_EQ(Field(row, "Ranks"), "8");
    EXPECT_EQ(Field(row, "Instances"), std::to_string(instances));
    EXPECT_EQ(Field(row, "Total/Rank Min (ns)"), std::to_string(times.front()));
    EXPECT_EQ(Field(row, "Total/Rank Med (ns)"), std::to_string(times[(times.size() - 1) / 2]));
    EXPECT_EQ(Field(row, "Total/Rank Max (ns)"), std::to_string(times.back()));
    // The rank named is one whose total is the largest.
    const int max_rank = std::stoi(Field(row, "Max Rank"));
    EXPECT_EQ(per_rank[max_rank].first, times.back());
  }
  // The largest total of one rank first.
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_GE(std::stoull(Field(rows[i - 1], "Total/Rank Max (ns)")),
              std::stoull(Field(rows[i], "Total/Rank Max (ns)")));
  }
  for (const JsonValue& row : rows) {
    if (Field(row, "Name") == "gemm_kernel") {
      EXPECT_EQ(Field(row, "Instances"), std::to_string(8 * 5 * 4 / 2));
    }
  }
  // The straggler arrives last at every all-reduce, which all end together: its all-reduce
  // kernels are the shortest.
  for (const JsonValue& row : rows) {
    if (Field(row, "Name").starts_with("ncclDevKernel_AllReduce")) {
      EXPECT_EQ(Field(row, "Total/Rank Min (ns)"),
                std::to_string(expected[Field(row, "Name")][6].first));
    }
  }
}

TEST_F(RankTablesTest, RankNvtxSumCountsEachRangeOncePerRankAndStep) {
  std::vector<JsonValue> rows = Rows("rank_nvtx_sum");
  std::map<std::string, const JsonValue*> by_name;
  for (const JsonValue& row : rows) by_name[Field(row, "Name")] = &row;
  ASSERT_TRUE(by_name.contains("step 0")) << Write("rank_nvtx_sum", render::StatsFormat::kColumn);
  EXPECT_EQ(Field(*by_name["step 0"], "Ranks"), "8");
  EXPECT_EQ(Field(*by_name["step 0"], "Instances"), "8");
  // NCCL's own domain is part of the name, as nvtx_sum writes it.
  ASSERT_TRUE(by_name.contains("NCCL:ncclAllReduce"));
  EXPECT_EQ(Field(*by_name["NCCL:ncclAllReduce"], "Instances"), std::to_string(8 * 5));
}

TEST_F(RankTablesTest, TheRankTablesCompareWholeRanksOnly) {
  std::ostringstream out;
  analysis::TimeWindow window;
  window.start = 1;
  window.end = 2;
  Status written =
      render::WriteStatsReport("rank_kern_sum", reports_, render::StatsFormat::kCsv, out, window);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.message().find("whole reports"), std::string::npos) << written.message();
  const std::vector<std::string>& names = render::AllStatsReportNames();
  for (const char* name : {"cuda_gpu_kern_sum", "rank_align", "rank_kern_sum", "rank_nvtx_sum"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  Status unknown =
      render::WriteStatsReport("rank_nonsense", reports_, render::StatsFormat::kCsv, out);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("rank_align"), std::string::npos) << unknown.message();
}

TEST(RankTablesOnOldReports, ReportsWithoutRanksAreNamedByHostAndPid) {
  const std::string dir = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/legacy/";
  std::vector<std::unique_ptr<store::ReportReader>> readers;
  Reports reports;
  for (const char* name : {"h200_add_2026-11-21.sqlite", "h200_nvtx_ranges_2026-11-21.sqlite"}) {
    auto reader = store::ReportReader::Open(dir + name);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    readers.push_back(std::move(reader.value()));
    reports.push_back(readers.back().get());
  }
  for (const char* table : {"rank_align", "rank_kern_sum", "rank_nvtx_sum"}) {
    std::ostringstream out;
    Status written = render::WriteStatsReport(table, reports, render::StatsFormat::kCsv, out);
    EXPECT_TRUE(written.ok()) << table << ": " << written.message();
  }
  std::ostringstream align;
  ASSERT_TRUE(
      render::WriteStatsReport("rank_align", reports, render::StatsFormat::kCsv, align).ok());
  // No rank: an empty cell; one host, no clock samples: nothing moves, no GPU pairs.
  const std::string host_pid =
      readers[0]->process().hostname + "," + std::to_string(readers[0]->process().pid);
  EXPECT_NE(align.str().find("\n," + host_pid + ",0,0,reference,,\n"), std::string::npos)
      << align.str();
  std::ostringstream kernels;
  ASSERT_TRUE(
      render::WriteStatsReport("rank_kern_sum", reports, render::StatsFormat::kColumn, kernels)
          .ok());
  EXPECT_NE(kernels.str().find(readers[0]->process().hostname + ", "), std::string::npos)
      << kernels.str();
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
