// `gpuscope view r*.sqlite` of the ranks of one job, through the HTTP API: every report
// carries its rank, its label and its clock offset, and the ranks' tracks, moved by those
// offsets, line up (the all-reduce kernels of one step end together on every rank, though
// the second host's clock is 5 ms ahead).
#include <gtest/gtest.h>

#include <map>

#include "../support/json_checker.h"
#include "http_client.h"
#include "running_server.h"
#include "store/testing/rank_reports.h"
#include "store/testing/scratch_dir.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"
#include "viewer/web_assets.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();  // generated from tests/viewer/data/web

namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParseJson;

constexpr std::int64_t kHostOneAheadNs = 5'000'000;

class RankViewTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new store::testing::ScratchDir();
    store::testing::RankReportsSpec spec;
    spec.ranks = 4;
    spec.ranks_per_host = 2;
    spec.host_clock_offset_ns = {0, kHostOneAheadNs};
    spec.steps = 3;
    spec.kernels_per_step = 4;
    std::vector<std::string> paths = store::testing::WriteRankReports(spec, dir_->path());
    ASSERT_EQ(paths.size(), 4u);
    // Highest rank first on the command line: the labels and positions say the rank order.
    auto data = ViewerData::Open({paths[3], paths[2], paths[1], paths[0]});
    ASSERT_TRUE(data.ok()) << data.status().message();
    data_ = data.value().release();
    server_ = new testing::RunningServer([](const HttpRequest& request) {
      return HandleViewerRequest(*data_, PlaceholderWebAssets(), request);
    });
  }
  static void TearDownTestSuite() {
    delete server_;
    delete data_;
    delete dir_;
  }
  static JsonValue GetJson(const std::string& target) {
    testing::RawResponse response = testing::Get(server_->port(), target);
    EXPECT_EQ(response.status, 200) << target << ": " << response.body;
    std::string error;
    std::optional<JsonValue> parsed = ParseJson(response.body, &error);
    EXPECT_TRUE(parsed.has_value()) << error;
    return parsed.value_or(JsonValue{});
  }

  static inline store::testing::ScratchDir* dir_ = nullptr;
  static inline ViewerData* data_ = nullptr;
  static inline testing::RunningServer* server_ = nullptr;
};

TEST_F(RankViewTest, ReportsCarryRankLabelAndClockOffset) {
  JsonValue reports = GetJson("/api/reports");
  ASSERT_EQ(reports.array.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const JsonValue& report = reports.array[i];
    const int rank = 3 - i;
    SCOPED_TRACE(rank);
    ASSERT_NE(report.Find("clock"), nullptr);
    ASSERT_EQ(report.Find("clock")->kind, JsonValue::Kind::kObject);
    EXPECT_EQ(report.Find("rank")->text, std::to_string(rank));
    EXPECT_EQ(report.Find("label")->text, "rank " + std::to_string(rank) + " (node" +
                                              std::to_string(rank / 2) + ", " +
                                              std::to_string(30000 + rank) + ")");
    EXPECT_EQ(report.Find("clock")->Find("position")->text, std::to_string(rank));
    EXPECT_EQ(report.Find("clock")->Find("offset")->text,
              rank < 2 ? "0" : std::to_string(-kHostOneAheadNs));
    EXPECT_EQ(report.Find("clock")->Find("method")->text, rank == 0   ? "reference"
                                                          : rank == 1 ? "same host"
                                                                      : "collectives (3 matched)");
  }
}

TEST_F(RankViewTest, TheRanksAllReduceKernelsEndTogetherOnTheAlignedAxis) {
  JsonValue reports = GetJson("/api/reports");
  ASSERT_EQ(reports.array.size(), 4u);
  // Per rank, the ends of its all-reduce kernels on the aligned axis (time + offset).
  std::map<int, std::vector<std::int64_t>> aligned_ends;
  std::map<int, std::vector<std::int64_t>> raw_ends;
  for (const JsonValue& report : reports.array) {
    const std::string index = report.Find("index")->text;
    const int rank = std::stoi(report.Find("rank")->text);
    const std::int64_t offset = std::stoll(report.Find("clock")->Find("offset")->text);
    const std::string device = std::to_string(rank % 2);  // the local rank's GPU
    JsonValue slices = GetJson("/api/slices?report=" + index + "&track=gpu" + device + ".s" +
                               std::to_string(store::testing::kCommunicationStream) +
                               "&start=" + report.Find("gpu")->Find("start")->text +
                               "&end=" + report.Find("gpu")->Find("end")->text + "&px=20000");
    for (const JsonValue& slice : slices.Find("slices")->array) {
      ASSERT_EQ(slice.Find("name")->text, store::testing::kNcclAllReduceKernel);
      raw_ends[rank].push_back(std::stoll(slice.Find("e")->text));
      aligned_ends[rank].push_back(std::stoll(slice.Find("e")->text) + offset);
    }
  }
  ASSERT_EQ(aligned_ends.size(), 4u);
  ASSERT_EQ(aligned_ends[0].size(), 3u);
  for (int rank = 1; rank < 4; ++rank) {
    EXPECT_EQ(aligned_ends[rank], aligned_ends[0]) << "rank " << rank;
  }
  // Without the offsets the second host's ends are 5 ms off: the test can tell.
  EXPECT_EQ(raw_ends[2][0] - raw_ends[0][0], kHostOneAheadNs);
}

}  // namespace
}  // namespace gpuscope::viewer
