// `gpuscope ranks` and `stats --report rank_comm_sum,nccl_sum` as a user runs them, on a
// synthetic job of 8 ranks on 2 hosts with a planted straggler (store/testing/rank_reports.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"
#include "store/testing/rank_reports.h"

namespace gpuscope::cli {
namespace {

using analysis::testing::JsonValue;
using testing::Finished;
using testing::ParsedJson;
using testing::RunGpuscope;
using testing::TempDir;

std::vector<std::string> WriteJob(const std::string& dir) {
  store::testing::RankReportsSpec spec;
  spec.ranks = 8;
  spec.ranks_per_host = 4;
  spec.host_clock_offset_ns = {0, 1'500'000};
  spec.straggler_rank = 5;
  spec.straggler_delay_ns = 1'000'000;
  return store::testing::WriteRankReports(spec, dir);
}

std::vector<std::string> Args(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

TEST(RanksCommand, OnePageOfAlignmentBreakdownNcclAndFindings) {
  TempDir dir;
  std::vector<std::string> reports = WriteJob(dir.path());
  ASSERT_EQ(reports.size(), 8u);
  Finished ranks = RunGpuscope(Args({"ranks"}, reports));
  ASSERT_EQ(ranks.exit_code, 0) << ranks.err;
  for (const char* part :
       {" ** ", "(rank_align):", "(rank_comm_sum):", "(nccl_sum):", "Findings:", "[rank_straggler]",
        "rank 5 (node1", "ncclAllReduce", "Notes:", "bytes unknown for 80 of 80"}) {
    EXPECT_NE(ranks.out.find(part), std::string::npos) << part << "\n" << ranks.out;
  }
  // The same page with the threads given, and --csv equal to --format csv.
  Finished one_thread = RunGpuscope(Args({"ranks", "-j", "1"}, reports));
  EXPECT_EQ(one_thread.out, ranks.out);
  Finished csv = RunGpuscope(Args({"ranks", "--csv"}, reports));
  Finished format_csv = RunGpuscope(Args({"ranks", "--format", "csv"}, reports));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out, format_csv.out);
  for (const char* part : {"# rank_align\n", "# rank_comm_sum\n", "# nccl_sum\n", "# findings\n",
                           "\"rank_straggler\"", "# notes\n"}) {
    EXPECT_NE(csv.out.find(part), std::string::npos) << part << "\n" << csv.out;
  }
}

TEST(RanksCommand, JsonIsOneObjectWithTheTablesAndFindings) {
  TempDir dir;
  std::vector<std::string> reports = WriteJob(dir.path());
  Finished json = RunGpuscope(Args({"ranks", "--format", "json"}, reports));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  JsonValue page = ParsedJson(json.out);
  for (const char* key : {"rank_align", "rank_comm_sum", "nccl_sum", "findings", "notes"}) {
    ASSERT_NE(page.Find(key), nullptr) << key << "\n" << json.out;
  }
  const JsonValue& per_rank = *page.Find("rank_comm_sum");
  ASSERT_EQ(per_rank.array.size(), 8u);
  // The straggler waits for nobody; every other rank waits about its delay in each step.
  const JsonValue* straggler_wait = per_rank.array[5].Find("Wait on ranks (ns)");
  const JsonValue* other_wait = per_rank.array[0].Find("Wait on ranks (ns)");
  ASSERT_NE(straggler_wait, nullptr);
  ASSERT_NE(other_wait, nullptr);
  EXPECT_LT(straggler_wait->number, 100'000);
  EXPECT_NEAR(other_wait->number, 10 * 1'000'000.0, 10 * 1'000'000.0 * 0.02);
  const JsonValue& findings = *page.Find("findings");
  ASSERT_FALSE(findings.array.empty());
  EXPECT_EQ(findings.array[0].Find("rule")->text, "rank_straggler");
}

TEST(RanksCommand, StatsPrintsTheSameTables) {
  TempDir dir;
  std::vector<std::string> reports = WriteJob(dir.path());
  Finished stats = RunGpuscope(
      Args({"stats", "--report", "rank_comm_sum,nccl_sum", "--format", "json"}, reports));
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  Finished ranks = RunGpuscope(Args({"ranks", "--format", "json"}, reports));
  JsonValue from_stats = ParsedJson(stats.out);
  JsonValue from_ranks = ParsedJson(ranks.out);
  for (const char* table : {"rank_comm_sum", "nccl_sum"}) {
    ASSERT_NE(from_stats.Find(table), nullptr) << table;
    const JsonValue& a = *from_stats.Find(table);
    const JsonValue& b = *from_ranks.Find(table);
    ASSERT_EQ(a.array.size(), b.array.size()) << table;
    for (std::size_t row = 0; row < a.array.size(); ++row) {
      for (const auto& [column, value] : a.array[row].object) {
        ASSERT_NE(b.array[row].Find(column), nullptr) << column;
        EXPECT_EQ(value.text, b.array[row].Find(column)->text) << table << " " << column;
      }
    }
  }
}

TEST(RanksCommand, BadInputIsOneLineAndAnExitCode) {
  Finished none = RunGpuscope({"ranks"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err.rfind("gpuscope: error: no report given\n", 0), 0u) << none.err;
  Finished threads = RunGpuscope({"ranks", "-j", "0", "r.sqlite"});
  EXPECT_EQ(threads.exit_code, 2);
  EXPECT_EQ(threads.err.rfind("gpuscope: error: option '-j' expects", 0), 0u) << threads.err;
  TempDir dir;
  std::string not_a_report = dir.Write("notes.sqlite", "not a report\n");
  Finished bad = RunGpuscope({"ranks", not_a_report});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("gpuscope: error: ", 0), 0u) << bad.err;
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << bad.err;
  EXPECT_TRUE(bad.out.empty());
}

}  // namespace
}  // namespace gpuscope::cli
