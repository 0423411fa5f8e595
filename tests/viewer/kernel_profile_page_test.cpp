// The kernel page's profile fields (sections, findings, roofline, occupancy) on a report
// recorded on the H100 by `gpuscope profile --set full` (tests/data/reports/
// h100_metrics_full.sqlite), through ViewerData (which `gpuscope view` and `gpuscope report`
// share) and through the /api/kernel route; a traced-only report keeps the empty fields.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../export/test_reports.h"
#include "../support/json_checker.h"
#include "../support/json_expect.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"

namespace gpuscope::viewer {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;
using analysis::testing::ParseJson;
using exporter::testing::ScratchDir;

const std::string kReports = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/";
const std::string kMetricsReport = kReports + "h100_metrics_full.sqlite";
const std::string kTracedReport = kReports + "h100_add.sqlite";
constexpr const char* kBankConflicts = "k_smem_bank_conflicts(float*, int)";

std::unique_ptr<ViewerData> Open(const std::vector<std::string>& paths) {
  auto data = ViewerData::Open(paths);
  EXPECT_TRUE(data.ok()) << data.status().message();
  return data.ok() ? std::move(data.value()) : nullptr;
}

JsonValue KernelPage(ViewerData& data, std::size_t report, const std::string& name) {
  StatusOr<std::string> json = data.KernelJson(report, name);
  EXPECT_TRUE(json.ok()) << json.status().message();
  return ParsedJsonOrFail(json.ok() ? json.value() : "{}");
}

const JsonValue* FindByName(const JsonValue& list, const std::string& name) {
  for (const JsonValue& item : list.array) {
    if (item.Find("name") && item.Find("name")->text == name) return &item;
  }
  return nullptr;
}

std::vector<std::string> Names(const JsonValue& list) {
  std::vector<std::string> names;
  for (const JsonValue& item : list.array) names.push_back(item.Find("name")->text);
  return names;
}

void ExpectNoProfile(const JsonValue& page) {
  ASSERT_NE(page.Find("sections"), nullptr);
  EXPECT_TRUE(page.Find("sections")->array.empty());
  EXPECT_TRUE(page.Find("findings")->array.empty());
  EXPECT_EQ(page.Find("roofline")->kind, JsonValue::Kind::kNull);
  EXPECT_EQ(page.Find("occupancy")->kind, JsonValue::Kind::kNull);
  EXPECT_EQ(page.Find("profiled")->text, "0");
}

// A scratch copy of the recorded report, changed by `sql`.
std::string ChangedCopy(const ScratchDir& dir, const std::string& name, const std::string& sql) {
  const std::string path = dir.File(name);
  std::filesystem::copy_file(kMetricsReport, path,
                             std::filesystem::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
  return path;
}

TEST(KernelProfilePageTest, BankConflictKernelHasItsFindingSectionsRooflineAndOccupancy) {
  auto data = Open({kMetricsReport});
  ASSERT_NE(data, nullptr);
  JsonValue page = KernelPage(*data, 0, kBankConflicts);

  // Findings: the bank-conflict finding has the biggest estimated speedup, so it comes first.
  const JsonValue& findings = *page.Find("findings");
  ASSERT_FALSE(findings.array.empty());
  const JsonValue& top = findings.array[0];
  EXPECT_EQ(top.Find("rule")->text, "smem_bank_conflicts");
  EXPECT_EQ(top.Find("severity")->text, "OPT");
  EXPECT_EQ(top.Find("title")->text, "Shared Memory Bank Conflicts");
  EXPECT_EQ(top.Find("section")->text, "MemoryWorkloadAnalysis");
  ASSERT_EQ(top.Find("speedup")->kind, JsonValue::Kind::kNumber);
  EXPECT_NEAR(top.Find("speedup")->number, 96.85, 0.01);
  EXPECT_NE(top.Find("message")->text.find("32.0-way bank conflict"), std::string::npos);
  for (std::size_t i = 1; i < findings.array.size(); ++i) {
    const JsonValue* speedup = findings.array[i].Find("speedup");
    if (speedup->kind == JsonValue::Kind::kNumber) {
      EXPECT_LE(speedup->number, 96.85);
    }
  }

  // Sections: those of the report's request (--set full), in ncu's order.
  const JsonValue& sections = *page.Find("sections");
  EXPECT_EQ(sections.array.size(), 11u);
  EXPECT_EQ(sections.array[0].Find("name")->text, "GPU Speed Of Light Throughput");
  EXPECT_EQ(sections.array[0].Find("id")->text, "SpeedOfLight");
  const JsonValue* occupancy_section = FindByName(sections, "Occupancy");
  ASSERT_NE(occupancy_section, nullptr);
  const JsonValue* theoretical =
      FindByName(*occupancy_section->Find("metrics"), "Theoretical Occupancy");
  ASSERT_NE(theoretical, nullptr);
  EXPECT_EQ(theoretical->Find("unit")->text, "%");
  EXPECT_EQ(theoretical->Find("value")->number, 75);
  EXPECT_EQ(theoretical->Find("text")->text, "75");
  // Scaled as the text page scales it: 2.14 ms, not 2,140,000 ns.
  const JsonValue* duration = FindByName(*sections.array[0].Find("metrics"), "Duration");
  ASSERT_NE(duration, nullptr);
  EXPECT_EQ(duration->Find("unit")->text, "ms");
  EXPECT_EQ(duration->Find("text")->text, "2.14");
  // Header rows first, then the body tables ("SOL Compute Breakdown", ...).
  const JsonValue& sol = *sections.array[0].Find("metrics");
  ASSERT_GT(sol.array.size(), 10u);
  EXPECT_EQ(sol.array[0].Find("table")->text, "");
  EXPECT_EQ(sol.array.back().Find("table")->text, "SOL Memory Breakdown");
  const JsonValue* memory = FindByName(sections, "Memory Workload Analysis");
  ASSERT_NE(memory, nullptr);
  const JsonValue* conflicts = FindByName(*memory->Find("metrics"), "Shared Load Bank Conflicts");
  ASSERT_NE(conflicts, nullptr);
  EXPECT_EQ(conflicts->Find("text")->text, "536,351,341");
  EXPECT_EQ(conflicts->Find("table")->text, "Shared Memory");

  // Roofline: the kernel sits on the L1/TEX roof (shared-memory wavefronts).
  const JsonValue& roofline = *page.Find("roofline");
  ASSERT_EQ(roofline.kind, JsonValue::Kind::kObject);
  EXPECT_EQ(roofline.Find("verdict")->Find("bound")->text, "memory-bound");
  EXPECT_FALSE(roofline.Find("verdict")->Find("reason")->text.empty());
  EXPECT_EQ(roofline.Find("precision")->text, "FP32");
  EXPECT_EQ(Names(*roofline.Find("ceilings")),
            (std::vector<std::string>{"FP64", "FP32", "FP16", "DRAM", "L2", "L1"}));
  EXPECT_NEAR(roofline.Find("peak_flops")->number, 67.41e12, 0.01e12);  // H100 SXM
  EXPECT_NEAR(roofline.Find("peak_bandwidth")->number, 3.35e12, 0.01e12);
  const JsonValue& points = *roofline.Find("points");
  ASSERT_FALSE(points.array.empty());
  EXPECT_EQ(points.array[0].Find("label")->text, "FP32 at DRAM");
  EXPECT_NEAR(points.array[0].Find("intensity")->number, 412.19, 0.01);
  EXPECT_NEAR(points.array[0].Find("performance")->number, 264.33e9, 0.01e9);

  // Occupancy: our calculator's 75% (6 blocks, limited by shared memory) and the counters'.
  const JsonValue& occupancy = *page.Find("occupancy");
  ASSERT_EQ(occupancy.kind, JsonValue::Kind::kObject);
  EXPECT_EQ(occupancy.Find("theoretical")->number, 75);
  EXPECT_NEAR(occupancy.Find("achieved")->number, 53.37, 0.01);
  const JsonValue& limits = *occupancy.Find("limits");
  EXPECT_EQ(limits.Find("shared memory")->text, "6");
  EXPECT_EQ(limits.Find("registers")->text, "8");
  EXPECT_EQ(limits.Find("warps")->text, "8");
  EXPECT_EQ(limits.Find("blocks")->text, "32");
  ASSERT_EQ(occupancy.Find("limiters")->array.size(), 1u);
  EXPECT_EQ(occupancy.Find("limiters")->array[0].text, "shared memory");
  EXPECT_EQ(occupancy.Find("blocks_per_sm")->text, "6");
  const JsonValue& graphs = *occupancy.Find("graphs");
  ASSERT_EQ(graphs.array.size(), 3u);
  EXPECT_EQ(graphs.array[0].Find("id")->text, "block_size");
  EXPECT_EQ(graphs.array[0].Find("current")->text, "256");
  ASSERT_FALSE(graphs.array[0].Find("points")->array.empty());
  EXPECT_EQ(graphs.array[0].Find("points")->array[0].array.size(), 2u);

  EXPECT_EQ(page.Find("profiled")->text, "1");
  EXPECT_EQ(page.Find("profile_note"), nullptr);
  // The replayed launch keeps its trace record's timestamps (serial kernel records).
  EXPECT_EQ(page.Find("launches")->text, "1");
  EXPECT_EQ(page.Find("timed")->text, "1");
  EXPECT_EQ(page.Find("avg")->text, "2137558");
}

TEST(KernelProfilePageTest, KernelProfiledTwiceShowsTheFirstLaunchAndSaysHowMany) {
  auto data = Open({kMetricsReport});
  ASSERT_NE(data, nullptr);
  JsonValue saxpy = KernelPage(*data, 0, "k_saxpy(long, float, float const*, float*)");
  EXPECT_EQ(saxpy.Find("profiled")->text, "2");
  EXPECT_EQ(saxpy.Find("profile_index")->text, "0");
  EXPECT_EQ(saxpy.Find("invocation")->text, "0");
  EXPECT_FALSE(saxpy.Find("sections")->array.empty());
  JsonValue tiny = KernelPage(*data, 0, "k_tiny(int*)");
  EXPECT_EQ(tiny.Find("profiled")->text, "3");
  EXPECT_EQ(tiny.Find("profile_index")->text, "9");
}

TEST(KernelProfilePageTest, TracedOnlyKernelsAndReportsKeepTheEmptyFields) {
  auto data = Open({kMetricsReport, kTracedReport});
  ASSERT_NE(data, nullptr);
  // A kernel of the profiled program that no filter selected.
  ExpectNoProfile(KernelPage(*data, 0, "init_fill_float(float*, long, unsigned int)"));
  ExpectNoProfile(KernelPage(*data, 1, "add(int, int, int*)"));
  JsonValue reports = ParsedJsonOrFail(data->ReportsJson());
  ASSERT_EQ(reports.array.size(), 2u);
  EXPECT_TRUE(reports.array[0].Find("has_metrics")->boolean);
  EXPECT_FALSE(reports.array[1].Find("has_metrics")->boolean);
  // The profiled kernels, each once, for the page to link (no summary row leads to them).
  std::vector<std::string> profiled;
  for (const JsonValue& name : reports.array[0].Find("profiled_kernels")->array) {
    profiled.push_back(name.text);
  }
  ASSERT_EQ(profiled.size(), 10u);
  EXPECT_EQ(profiled[0], "k_saxpy(long, float, float const*, float*)");
  EXPECT_EQ(profiled[2], kBankConflicts);
  EXPECT_TRUE(reports.array[1].Find("profiled_kernels")->array.empty());
}

TEST(KernelProfilePageTest, EveryKernelPageOfTheEmbeddedReportIsValidJson) {
  // The HTML report embeds every page; a NaN or an unescaped name would break the whole file.
  auto data = Open({kMetricsReport});
  ASSERT_NE(data, nullptr);
  StatusOr<std::string> all = data->AllKernelsJson(0);
  ASSERT_TRUE(all.ok()) << all.status().message();
  JsonValue pages = ParsedJsonOrFail(all.value());
  ASSERT_EQ(pages.object.size(), 12u);
  std::size_t with_findings = 0, profiled = 0;
  for (const auto& [name, page] : pages.object) {
    profiled += std::stoul(page.Find("profiled")->text);
    if (!page.Find("findings")->array.empty()) ++with_findings;
    // Every profiled kernel's page equals what /api/kernel answers.
    EXPECT_EQ(page.Find("sections")->array.size(), page.Find("profiled")->text == "0" ? 0u : 11u)
        << name;
  }
  EXPECT_EQ(profiled, 14u);
  EXPECT_EQ(with_findings, 10u);
  EXPECT_EQ(pages.Find(kBankConflicts)->Find("findings")->array[0].Find("rule")->text,
            "smem_bank_conflicts");
}

TEST(KernelProfilePageTest, ApiKernelRouteAnswersTheProfileFields) {
  auto data = Open({kMetricsReport});
  ASSERT_NE(data, nullptr);
  HttpRequest request;
  request.method = "GET";
  request.path = "/api/kernel";
  request.query = {{"report", "0"}, {"name", kBankConflicts}};
  HttpResponse response = HandleViewerRequest(*data, {}, request);
  EXPECT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(response.body, data->KernelJson(0, kBankConflicts).value());
  JsonValue page = ParsedJsonOrFail(response.body);
  EXPECT_EQ(page.Find("findings")->array[0].Find("rule")->text, "smem_bank_conflicts");
}

TEST(KernelProfilePageTest, ReportWithoutAStoredRequestShowsTheBasicSet) {
  ScratchDir dir;
  const std::string path =
      ChangedCopy(dir, "no_request.sqlite",
                  "DELETE FROM meta WHERE key IN ('profile_sections', 'profile_metrics')");
  auto data = Open({path});
  ASSERT_NE(data, nullptr);
  JsonValue page = KernelPage(*data, 0, kBankConflicts);
  std::vector<std::string> ids;
  for (const JsonValue& section : page.Find("sections")->array) {
    ids.push_back(section.Find("id")->text);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"SpeedOfLight", "LaunchStats", "Occupancy",
                                           "WorkloadDistribution"}));
}

TEST(KernelProfilePageTest, CommandLineMetricsAreTheirOwnSectionAndUnknownSectionsAreSkipped) {
  ScratchDir dir;
  const std::string path = ChangedCopy(
      dir, "metrics.sqlite",
      "UPDATE meta SET value = 'Occupancy,NoSuchSectionFromANewerGpuscope' WHERE key = "
      "'profile_sections'; UPDATE meta SET value = 'dram__bytes.sum,not__evaluated.sum' WHERE "
      "key = 'profile_metrics'");
  auto data = Open({path});
  ASSERT_NE(data, nullptr);
  JsonValue page = KernelPage(*data, 0, kBankConflicts);
  const JsonValue& sections = *page.Find("sections");
  EXPECT_EQ(Names(sections),
            (std::vector<std::string>{"Occupancy", "Command line profiler metrics"}));
  const JsonValue& metrics = *sections.array[1].Find("metrics");
  ASSERT_EQ(metrics.array.size(), 2u);
  EXPECT_EQ(metrics.array[0].Find("name")->text, "dram__bytes.sum");
  EXPECT_EQ(metrics.array[0].Find("value")->kind, JsonValue::Kind::kNumber);
  // A metric the report does not hold reads "n/a", as on the text page.
  EXPECT_EQ(metrics.array[1].Find("value")->text, "n/a");
  EXPECT_EQ(metrics.array[1].Find("text")->text, "n/a");
}

TEST(KernelProfilePageTest, ProfiledButNotShowableLaunchesSayWhy) {
  ScratchDir dir;
  // k_smem_bank_conflicts (id 5): its replay failed; k_dfma_fp64 (id 7): measured, but its
  // counter data was never evaluated into metrics.
  const std::string path = ChangedCopy(
      dir, "failed.sqlite",
      "UPDATE profiled_kernels SET outcome = 1, message = 'replay failed: out of memory' "
      "WHERE id = 5; DELETE FROM kernel_metrics WHERE profiled_kernel_id = 7");
  auto data = Open({path});
  ASSERT_NE(data, nullptr);
  JsonValue failed = KernelPage(*data, 0, kBankConflicts);
  EXPECT_TRUE(failed.Find("sections")->array.empty());
  EXPECT_EQ(failed.Find("occupancy")->kind, JsonValue::Kind::kNull);
  EXPECT_EQ(failed.Find("profiled")->text, "1");
  ASSERT_NE(failed.Find("profile_note"), nullptr);
  EXPECT_EQ(failed.Find("profile_note")->text, "replay failed: out of memory");
  JsonValue unevaluated = KernelPage(*data, 0, "k_dfma_fp64(double*, int)");
  EXPECT_TRUE(unevaluated.Find("findings")->array.empty());
  ASSERT_NE(unevaluated.Find("profile_note"), nullptr);
  EXPECT_NE(unevaluated.Find("profile_note")->text.find("not evaluated"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::viewer
