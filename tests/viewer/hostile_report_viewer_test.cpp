// The viewer's routes on reports mutated with SQL (issue 14, "Readers that never crash"):
// every answer is valid JSON, and none takes long.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "../analysis/json_checker.h"
#include "../export/test_reports.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"
#include "viewer/web_assets.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();  // generated from tests/viewer/data/web

namespace {

using exporter::testing::ScratchDir;

using exporter::testing::ExecSql;

// The rich report with `sql` run on it, answering `target` ("/api/event?..."); the answer
// must parse as JSON.
std::string Answer(const std::string& sql, const std::string& path,
                   const std::map<std::string, std::string>& query) {
  ScratchDir dir;
  std::string report = dir.File("r.sqlite");
  exporter::testing::WriteRichReport(report);
  ExecSql(report, sql);
  auto data = ViewerData::Open({report});
  EXPECT_TRUE(data.ok()) << data.status().message();
  if (!data.ok()) return "";
  HttpRequest request;
  request.method = "GET";
  request.path = path;
  request.query = query;
  auto start = std::chrono::steady_clock::now();
  HttpResponse response = HandleViewerRequest(*data.value(), PlaceholderWebAssets(), request);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  std::string error;
  EXPECT_TRUE(analysis::testing::ParseJson(response.body, &error).has_value())
      << error << "\n" << response.body.substr(0, 400);
  return response.body;
}

TEST(HostileReportViewer, AnInfiniteRealIsNull) {
  std::string body = Answer("UPDATE memcpys SET is_async = 9e999 WHERE id = 1", "/api/event",
                            {{"report", "0"}, {"type", "memcpy"}, {"id", "1"}});
  EXPECT_NE(body.find("\"is_async\":null"), std::string::npos) << body;
}

TEST(HostileReportViewer, SummaryOfIdsNearInt64MaxAnswersQuickly) {
  std::string body = Answer(
      "UPDATE api_calls SET id=4611686018427387904 WHERE id=(SELECT max(id) FROM api_calls)",
      "/api/summary", {{"reports", "0"}});
  EXPECT_NE(body.find("cuda_api_sum"), std::string::npos) << body.substr(0, 400);
}

}  // namespace
}  // namespace gpuscope::viewer
