// `gpuscope stats --page` reading metrics back with Nsight Compute's filters and choices, on
// the profile report recorded on the H200 (14 launches of 10 kernels): -k, -s, -c,
// --kernel-id, --devices, --section, --metrics, and --print-summary per-kernel as CSV. The
// expected launches come from the report's profiled_kernels table through SQL written here.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../../support/gpuscope_process.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RunGpuscope;

class StatsProfileFilters : public ::testing::Test {
 protected:
  void SetUp() override {
    report_ = dir_.path() + "/metrics.sqlite";
    std::filesystem::copy_file(
        std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_metrics_full.sqlite", report_);
  }

  // The profile indexes (ncu's ID) of the launches of `stats --page details --csv <args>`.
  std::vector<std::string> PrintedIds(std::vector<std::string> args) {
    std::vector<std::string> command = {"stats", "--page", "details", "--csv"};
    command.insert(command.end(), args.begin(), args.end());
    command.push_back(report_);
    Finished result = RunGpuscope(command);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::string> ids;
    std::istringstream lines(result.out);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
      const std::string id = line.substr(1, line.find('"', 1) - 1);
      if (ids.empty() || ids.back() != id) ids.push_back(id);
    }
    return ids;
  }

  std::vector<std::string> IdsWhere(const std::string& condition) {
    sqlite3* db = nullptr;
    std::vector<std::string> ids;
    EXPECT_EQ(sqlite3_open_v2(report_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    const std::string sql =
        "SELECT p.profile_index FROM profiled_kernels p JOIN strings s ON s.id = p.name_id "
        "WHERE " + condition + " ORDER BY p.profile_index";
    sqlite3_stmt* statement = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    while (statement != nullptr && sqlite3_step(statement) == SQLITE_ROW) {
      ids.push_back(std::to_string(sqlite3_column_int64(statement, 0)));
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return ids;
  }

  testing::TempDir dir_;
  std::string report_;
};

TEST_F(StatsProfileFilters, KernelNameSkipAndCountChooseTheLaunches) {
  const std::vector<std::string> tiny = IdsWhere("s.value = '_Z6k_tinyPi'");
  ASSERT_EQ(tiny.size(), 3u) << "the recording has three k_tiny launches";
  EXPECT_EQ(PrintedIds({"-k", "k_tiny"}), tiny);
  EXPECT_EQ(PrintedIds({"-k", "k_tiny", "-s", "1", "-c", "1"}),
            std::vector<std::string>{tiny[1]});
  EXPECT_EQ(PrintedIds({"-k", "regex:^k_f", "-c", "2"}),
            (std::vector<std::string>{IdsWhere("s.value LIKE '_Z%k_f%'")[0],
                                      IdsWhere("s.value LIKE '_Z%k_f%'")[1]}));
  EXPECT_EQ(PrintedIds({"-c", "3"}), (std::vector<std::string>{"0", "1", "2"}));
}

TEST_F(StatsProfileFilters, KernelIdMatchesTheRecordedInvocation) {
  EXPECT_EQ(PrintedIds({"--kernel-id", "::k_tiny:2"}),
            IdsWhere("s.value = '_Z6k_tinyPi' AND p.invocation = 2"));
  EXPECT_EQ(PrintedIds({"--kernel-id", "1::regex:saxpy:1"}),
            IdsWhere("s.value LIKE '%saxpy%' AND p.invocation = 1 AND p.context_id = 1"));
  EXPECT_EQ(PrintedIds({"--devices", "0"}).size(), IdsWhere("p.device_id = 0").size());
}

TEST_F(StatsProfileFilters, NoMatchIsAnErrorThatListsTheProfiledKernels) {
  Finished result = RunGpuscope({"stats", "--page", "details", "-k", "nope", report_});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("no profiled kernel matches the filters (14 profiled: "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("k_tiny"), std::string::npos) << result.err;
}

TEST_F(StatsProfileFilters, SectionAndMetricsChooseWhatIsPrinted) {
  Finished occupancy =
      RunGpuscope({"stats", "--page", "details", "-c", "1", "--section", "Occupancy", report_});
  ASSERT_EQ(occupancy.exit_code, 0) << occupancy.err;
  EXPECT_NE(occupancy.out.find("Section: Occupancy"), std::string::npos) << occupancy.out;
  EXPECT_EQ(occupancy.out.find("Section: GPU Speed Of Light Throughput"), std::string::npos)
      << occupancy.out;

  Finished raw = RunGpuscope(
      {"stats", "--page", "raw", "-c", "1", "--metrics", "gpu__time_duration.sum", report_});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_NE(raw.out.find("gpu__time_duration.sum"), std::string::npos) << raw.out;
  EXPECT_EQ(raw.out.find("dram__bytes"), std::string::npos) << "only the metric asked for";

  Finished missing =
      RunGpuscope({"stats", "--page", "raw", "--metrics", "no__such.metric", report_});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("has no metric 'no__such.metric'"), std::string::npos) << missing.err;
}

TEST_F(StatsProfileFilters, FiltersWithoutAPageAreRefused) {
  Finished result = RunGpuscope({"stats", "-k", "k_tiny", report_});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("need --page"), std::string::npos) << result.err;
}

TEST_F(StatsProfileFilters, PerKernelSummaryHasACsvForm) {
  Finished result = RunGpuscope({"stats", "--print-summary", "per-kernel", "--csv", "--section",
                                 "SpeedOfLight", report_});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::istringstream lines(result.out);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("\"Kernel Name\",\"Context\",\"Stream\",\"Device\",\"CC\",\"Grid Size\","
                         "\"Block Size\",\"Invocations\",\"Measured\",\"Section Name\",\"Metric "
                         "Name\",\"Metric Unit\",\"Minimum\",\"Maximum\",\"Average\"",
                         0),
            0u)
      << header;
  // One group per kernel name and launch configuration; k_tiny's three launches are one.
  std::set<std::string> groups;
  std::string tiny_duration;
  for (std::string line; std::getline(lines, line);) {
    groups.insert(line.substr(0, line.find("\",\"")));
    if (line.find("k_tiny") != std::string::npos && line.find("\"Duration\"") != std::string::npos) {
      tiny_duration = line;
    }
  }
  EXPECT_EQ(groups.size(), 10u);
  EXPECT_NE(tiny_duration.find("\"3\",\"3\",\"GPU Speed Of Light Throughput\""), std::string::npos)
      << tiny_duration;
}

}  // namespace
}  // namespace gpuscope::cli
