// Two reports on one axis, aligned on an NVTX range (`--align nvtx:NAME`): where the range's
// first instance starts in each report (/api/alignment), the one error that names the
// reports without it, and the option as `gpuscope view` and `gpuscope report` take it.
#include "viewer/axis_alignment.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../export/test_reports.h"
#include "../support/gpuscope_process.h"
#include "../support/json_checker.h"
#include "../support/json_expect.h"
#include "http_client.h"
#include "running_server.h"
#include "store/testing/report_builder.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();  // generated from tests/viewer/data/web

namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;
using analysis::testing::ParseJson;
using cli::testing::Finished;
using cli::testing::RunGpuscope;
using exporter::testing::ReadWholeFile;
using exporter::testing::ScratchDir;
using model::NvtxKind;

constexpr model::Timestamp kOriginA = 1'700'000'000'000'000'000;
constexpr model::Timestamp kOriginB = kOriginA + 5'800'000'000'000;  // recorded 5,800 s later

// a.sqlite: "step 1" at 1,000, "step 2" at 5,000 and again at 9,000, a mark "step 3";
// b.sqlite: "step 2" first at 20,000 (on another thread, after one at 30,000 on the first),
// nothing named "step 1", "step 3" a mark too.
void WriteReports(const ScratchDir& dir) {
  {
    store::testing::ReportBuilder a(dir.File("a.sqlite"), {.origin = kOriginA, .overwrite = true});
    a.Range(NvtxKind::kPushPopRange, "step 1", 1000, 3000, {.id = 1});
    a.Range(NvtxKind::kPushPopRange, "step 2", 5000, 3000, {.id = 2});
    a.Range(NvtxKind::kPushPopRange, "step 2", 9000, 3000, {.id = 3});
    a.Mark("step 3", 12000, {.id = 4});
    ASSERT_TRUE(a.Close().ok());
  }
  store::testing::ReportBuilder b(dir.File("b.sqlite"),
                                  {.origin = kOriginB, .pid = 4343, .overwrite = true});
  b.Range(NvtxKind::kPushPopRange, "step 2", 30000, 3000, {.id = 1});
  b.Range(NvtxKind::kStartEndRange, "step 2", 20000, 3000, {.id = 2});
  b.Mark("step 3", 40000, {.id = 3});
  ASSERT_TRUE(b.Close().ok());
}

TEST(AxisAlignment, ParsesTheThreeModes) {
  EXPECT_EQ(ParseAxisAlignment("starts")->mode, AxisAlignment::Mode::kStarts);
  EXPECT_EQ(ParseAxisAlignment("absolute")->mode, AxisAlignment::Mode::kAbsolute);
  StatusOr<AxisAlignment> range = ParseAxisAlignment("nvtx:step 3: warm-up");
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->mode, AxisAlignment::Mode::kNvtxRange);
  EXPECT_EQ(range->range, "step 3: warm-up");  // everything after the first colon
  for (const char* bad : {"nvtx:", "start", "", "NVTX:step"}) {
    StatusOr<AxisAlignment> parsed = ParseAxisAlignment(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().message(),
              "--align expects starts|absolute|nvtx:NAME, not '" + std::string(bad) + "'");
  }
}

TEST(AxisAlignment, TheServerSaysWhereTheRangeFirstStartsInEachReport) {
  ScratchDir dir;
  WriteReports(dir);
  StatusOr<std::unique_ptr<ViewerData>> data =
      ViewerData::Open({dir.File("a.sqlite"), dir.File("b.sqlite")});
  ASSERT_TRUE(data.ok()) << data.status().message();
  testing::RunningServer server([&](const HttpRequest& request) {
    return HandleViewerRequest(**data, PlaceholderWebAssets(), request);
  });

  testing::RawResponse anchors = testing::Get(server.port(), "/api/alignment?nvtx=step%202");
  ASSERT_EQ(anchors.status, 200) << anchors.body;
  JsonValue answer = ParsedJsonOrFail(anchors.body);
  EXPECT_EQ(answer.Find("range")->text, "step 2");
  const std::vector<JsonValue>& starts = answer.Find("starts")->array;
  ASSERT_EQ(starts.size(), 2u);
  // The first instance by time, whatever thread or style: 5,000 in a, 20,000 in b.
  EXPECT_EQ(starts[0].text, std::to_string(kOriginA + 5000));
  EXPECT_EQ(starts[1].text, std::to_string(kOriginB + 20000));

  // A range one report lacks: one line naming that report.
  testing::RawResponse missing = testing::Get(server.port(), "/api/alignment?nvtx=step%201");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(ParsedJsonOrFail(missing.body).Find("error")->text,
            "cannot align on NVTX range 'step 1': no range of that name in report #1 (b.sqlite)");
  // A mark has no extent: it is no range to align on, in either report.
  testing::RawResponse mark = testing::Get(server.port(), "/api/alignment?nvtx=step%203");
  EXPECT_EQ(mark.status, 404);
  EXPECT_EQ(ParsedJsonOrFail(mark.body).Find("error")->text,
            "cannot align on NVTX range 'step 3': no range of that name in reports #0 "
            "(a.sqlite), #1 (b.sqlite)");
  EXPECT_EQ(testing::Get(server.port(), "/api/alignment?nvtx=").status, 400);

  // Without `nvtx`: what the command line asked for.
  EXPECT_EQ(testing::Get(server.port(), "/api/alignment").body, "{\"mode\":\"starts\"}");
  EXPECT_FALSE((*data)->SetAlignment(*ParseAxisAlignment("nvtx:step 1")).ok());
  EXPECT_EQ(testing::Get(server.port(), "/api/alignment").body, "{\"mode\":\"starts\"}")
      << "a refused alignment changes nothing";
  ASSERT_TRUE((*data)->SetAlignment(*ParseAxisAlignment("nvtx:step 2")).ok());
  EXPECT_EQ(testing::Get(server.port(), "/api/alignment").body,
            "{\"mode\":\"nvtx\",\"range\":\"step 2\"}");
}

TEST(AxisAlignment, ViewRefusesARangeMissingFromAReportWithOneLine) {
  ScratchDir dir;
  WriteReports(dir);
  Finished missing = RunGpuscope({"view", "--exit-after-seconds", "5", "--align", "nvtx:step 1",
                                  dir.File("a.sqlite"), dir.File("b.sqlite")});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_EQ(missing.out, "") << "no server was started";
  EXPECT_EQ(missing.err,
            "gpuscope: error: cannot align on NVTX range 'step 1': no range of that name in "
            "report #1 (b.sqlite)\n");
  Finished bad = RunGpuscope({"view", "--align", "sideways", dir.File("a.sqlite")});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--align expects starts|absolute|nvtx:NAME, not 'sideways'"),
            std::string::npos)
      << bad.err;
}

TEST(AxisAlignment, ReportEmbedsTheAlignmentAndRefusesAMissingRange) {
  ScratchDir dir;
  WriteReports(dir);
  const std::string html = dir.File("both.html");
  Finished written = RunGpuscope(
      {"report", "--align", "nvtx:step 2", "-o", html, dir.File("a.sqlite"), dir.File("b.sqlite")});
  ASSERT_EQ(written.exit_code, 0) << written.err;
  EXPECT_NE(ReadWholeFile(html).find("\"alignment\":{\"mode\":\"nvtx\",\"range\":\"step 2\"}"),
            std::string::npos);

  const std::string refused = dir.File("refused.html");
  Finished missing = RunGpuscope({"report", "--align", "nvtx:step 1", "-o", refused,
                                  dir.File("a.sqlite"), dir.File("b.sqlite")});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_EQ(missing.err,
            "gpuscope: error: cannot align on NVTX range 'step 1': no range of that name in "
            "report #1 (b.sqlite)\n");
  EXPECT_FALSE(std::filesystem::exists(refused)) << "no page is left behind";
}

}  // namespace
}  // namespace gpuscope::viewer
