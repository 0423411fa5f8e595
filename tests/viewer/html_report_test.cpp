// `gpuscope report`'s HTML: self-contained, the data embedded per docs/viewer-api.md, the
// modules inlined, hostile names harmless, and large reports cut at the documented limit.
#include "viewer/html_report.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "../analysis/json_checker.h"
#include "../export/test_reports.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();

namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParseJson;
using exporter::testing::kHostileKernel;
using exporter::testing::ScratchDir;

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// The text of <script ... id="<id>">...</script>.
std::string ScriptElement(const std::string& html, const std::string& id) {
  std::string open = "id=\"" + id + "\">";
  std::size_t start = html.find(open);
  if (start == std::string::npos) return "";
  start += open.size();
  return html.substr(start, html.find("</script>", start) - start);
}

struct Written {
  std::string html;
  HtmlReportStats stats;
  JsonValue data;
};

Written Write(const std::vector<std::string>& paths,
              std::uint64_t limit = kDefaultEmbedEventLimit) {
  Written written;
  auto data = ViewerData::Open(paths);
  EXPECT_TRUE(data.ok()) << data.status().message();
  std::ostringstream out;
  HtmlReportOptions options;
  options.max_events_per_report = limit;
  auto stats = WriteHtmlReport(*data.value(), PlaceholderWebAssets(), options, out);
  EXPECT_TRUE(stats.ok()) << stats.status().message();
  written.html = out.str();
  if (stats.ok()) written.stats = stats.value();
  std::string error;
  auto parsed = ParseJson(ScriptElement(written.html, "gpuscope-data"), &error);
  EXPECT_TRUE(parsed.has_value()) << error;
  if (parsed) written.data = *parsed;
  return written;
}

class HtmlReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    exporter::testing::WriteRichReport(dir_.File("rich.sqlite"));
    written_ = Write({dir_.File("rich.sqlite")});
  }
  ScratchDir dir_;
  Written written_;
};

TEST_F(HtmlReportTest, IsSelfContained) {
  const std::string& html = written_.html;
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("favicon.ico"), std::string::npos);  // links to files are dropped
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // The stylesheet is inline and the modules travel as JSON for the loader.
  EXPECT_NE(html.find("<style>\n/* placeholder stylesheet */"), std::string::npos);
  std::string error;
  auto modules = ParseJson(ScriptElement(html, "gpuscope-modules"), &error);
  ASSERT_TRUE(modules.has_value()) << error;
  EXPECT_NE(modules->Find("app.js"), nullptr);
  EXPECT_NE(modules->Find("lib/describe.js"), nullptr);
  EXPECT_NE(modules->Find("count.js"), nullptr);
  EXPECT_NE(modules->Find("lib/describe.js")->text.find("</script> stays inside"),
            std::string::npos);
  EXPECT_NE(html.find("[\"app.js\"].forEach"), std::string::npos);    // the entry is started
  EXPECT_NE(html.find("<div id=\"out\"></div>"), std::string::npos);  // the page's own markup
}

TEST_F(HtmlReportTest, HostileNamesCannotEndTheirScriptElement) {
  const std::string& html = written_.html;
  EXPECT_EQ(html.find(kHostileKernel), std::string::npos);
  EXPECT_EQ(html.find("<script><script>"), std::string::npos);
  // Exactly the closing tags of the elements the writer made: data, modules, loader.
  EXPECT_EQ(Count(html, "</script"), 3u);
  EXPECT_EQ(Count(html, "<!--"), 1u);  // the placeholder's own comment
  // ...and the name is intact once the JSON is parsed.
  bool found = false;
  for (const JsonValue& text : written_.data.Find("strings")->array) {
    found = found || text.text == kHostileKernel;
  }
  EXPECT_TRUE(found);
}

TEST_F(HtmlReportTest, EmbedsTheDocumentedFormat) {
  const JsonValue& data = written_.data;
  for (const char* key :
       {"reports", "tracks", "events", "strings", "details", "summary", "kernels"}) {
    EXPECT_NE(data.Find(key), nullptr) << key;
  }
  ASSERT_EQ(data.Find("reports")->array.size(), 1u);
  const JsonValue* embedded = data.Find("reports")->array[0].Find("embedded");
  ASSERT_NE(embedded, nullptr);
  EXPECT_EQ(embedded->Find("events")->text, "16");  // 4 GPU, 7 API, 5 NVTX
  EXPECT_EQ(embedded->Find("cut_at")->kind, JsonValue::Kind::kNull);
  const JsonValue* tracks = data.Find("tracks")->Find("0");
  ASSERT_NE(tracks, nullptr);
  EXPECT_EQ(tracks->array.size(), 5u);
  const JsonValue* stream = data.Find("events")->Find("0")->Find("gpu0.s7");
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->Find("s")->array.size(), 3u);
  EXPECT_EQ(stream->Find("types")->array[1].text, "memcpy");  // a mixed track
  const auto& strings = data.Find("strings")->array;
  std::size_t name = std::stoul(stream->Find("name")->array[0].text);
  ASSERT_LT(name, strings.size());
  EXPECT_EQ(strings[name].text, "add(int, int, int*)");
  const JsonValue* memory = data.Find("events")->Find("0")->Find("mem0");
  EXPECT_EQ(memory->Find("v")->array[0].text, "1048576");
  EXPECT_NE(data.Find("summary")->Find("tables")->Find("cuda_gpu_kern_sum"), nullptr);
  EXPECT_NE(data.Find("kernels")->Find("0")->Find(kHostileKernel), nullptr);
}

TEST_F(HtmlReportTest, CutsLargeReportsAtTheLimitAndSaysSo) {
  Written cut = Write({dir_.File("rich.sqlite")}, 6);
  EXPECT_TRUE(cut.stats.truncated);
  EXPECT_LE(cut.stats.embedded_events, 6u);
  EXPECT_EQ(cut.stats.total_events, 16u);
  const JsonValue* embedded = cut.data.Find("reports")->array[0].Find("embedded");
  EXPECT_EQ(embedded->Find("total")->text, "16");
  EXPECT_EQ(embedded->Find("limit")->text, "6");
  EXPECT_EQ(embedded->Find("cut_at")->kind, JsonValue::Kind::kNumber);
  std::size_t events = 0;
  for (const auto& [id, track] : cut.data.Find("events")->Find("0")->object) {
    if (track.Find("s")) events += track.Find("s")->array.size();
  }
  EXPECT_EQ(events, cut.stats.embedded_events);
}

TEST(ScriptSafeTest, EscapesClosingTagsAndCommentOpeners) {
  EXPECT_EQ(ScriptSafe("\"</script>\""), "\"<\\/script>\"");
  EXPECT_EQ(ScriptSafe("\"<!--x\""), "\"\\u003c!--x\"");
  std::string error;
  auto parsed = ParseJson(ScriptSafe("[\"</script><!--\"]"), &error);
  ASSERT_TRUE(parsed.has_value()) << error;
  EXPECT_EQ(parsed->array[0].text, "</script><!--");
}

}  // namespace
}  // namespace gpuscope::viewer
