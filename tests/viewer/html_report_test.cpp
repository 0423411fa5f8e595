// `gpuscope report`'s HTML: self-contained, the data embedded per docs/viewer-api.md, the
// modules inlined, hostile names harmless, and large reports cut at the documented limit.
#include "viewer/html_report.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <regex>
#include <sstream>
#include <vector>

#include "../export/test_reports.h"
#include "../support/json_checker.h"

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

Written Write(const std::vector<std::string>& paths, std::uint64_t limit = kDefaultEmbedEventLimit,
              std::uint64_t trace_rows = kDefaultEmbedTraceRows) {
  Written written;
  auto data = ViewerData::Open(paths);
  EXPECT_TRUE(data.ok()) << data.status().message();
  std::ostringstream out;
  HtmlReportOptions options;
  options.max_events_per_report = limit;
  options.max_trace_rows = trace_rows;
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

// The texts of an embedded column (numbers as written), or {"absent"} when the track has none.
std::vector<std::string> ColumnTexts(const JsonValue* track, const char* name) {
  const JsonValue* column = track ? track->Find(name) : nullptr;
  if (!column) return {"absent"};
  std::vector<std::string> texts;
  for (const JsonValue& value : column->array) texts.push_back(value.text);
  return texts;
}

using Texts = std::vector<std::string>;

TEST_F(HtmlReportTest, EmbedsEventFactsOnlyOnTheTracksTheyApplyTo) {
  const JsonValue* events = written_.data.Find("events")->Find("0");
  ASSERT_NE(events, nullptr);
  // Stream 7: the add kernel (corr 3), the DtoH copy (corr 6, runtime 5, 4 bytes), the memset
  // (corr 7, 64 bytes); a column that does not apply to an event holds 0 there.
  const JsonValue* stream = events->Find("gpu0.s7");
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(ColumnTexts(stream, "corr"), (Texts{"3", "6", "7"}));
  EXPECT_EQ(ColumnTexts(stream, "rcorr"), (Texts{"0", "5", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "gx"), (Texts{"4", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "gy"), (Texts{"1", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "gz"), (Texts{"1", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "bx"), (Texts{"256", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "by"), (Texts{"1", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "bz"), (Texts{"1", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "regs"), (Texts{"32", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "ssmem"), (Texts{"0", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "dsmem"), (Texts{"0", "0", "0"}));
  EXPECT_EQ(ColumnTexts(stream, "bytes"), (Texts{"0", "4", "64"}));
  Texts copy = ColumnTexts(stream, "copy");
  ASSERT_EQ(copy.size(), 3u);
  const auto& strings = written_.data.Find("strings")->array;
  ASSERT_LT(std::stoul(copy[1]), strings.size());
  EXPECT_EQ(strings[std::stoul(copy[1])].text, "DtoH");
  // Stream 13: one kernel, no copies or memsets: no bytes, runtime correlation or copy kind.
  const JsonValue* kernels_only = events->Find("gpu0.s13");
  ASSERT_NE(kernels_only, nullptr);
  EXPECT_EQ(ColumnTexts(kernels_only, "corr"), (Texts{"4"}));
  EXPECT_EQ(ColumnTexts(kernels_only, "regs"), (Texts{"32"}));
  for (const char* absent : {"rcorr", "bytes", "copy"}) {
    EXPECT_EQ(ColumnTexts(kernels_only, absent), (Texts{"absent"})) << absent;
  }
  // API calls: the correlation id only, one per call in start order.
  const JsonValue* thread = events->Find("t" + std::to_string(exporter::testing::kRichThread));
  ASSERT_NE(thread, nullptr);
  EXPECT_EQ(ColumnTexts(thread, "corr"), (Texts{"1", "2", "3", "4", "5", "6", "7"}));
  for (const char* absent : {"rcorr", "gx", "regs", "bytes", "copy"}) {
    EXPECT_EQ(ColumnTexts(thread, absent), (Texts{"absent"})) << absent;
  }
  // NVTX and counter tracks carry none of them.
  for (const auto& [id, track] : events->object) {
    if (id[0] != 'n' && id[0] != 'm') continue;
    EXPECT_EQ(track.Find("corr"), nullptr) << id;
    EXPECT_EQ(track.Find("bytes"), nullptr) << id;
  }
  // Every new column has one entry per embedded event.
  for (const auto& [id, track] : events->object) {
    if (!track.Find("s")) continue;
    for (const char* name : {"corr", "rcorr", "gx", "gy", "gz", "bx", "by", "bz", "regs", "ssmem",
                             "dsmem", "bytes", "copy"}) {
      if (track.Find(name)) {
        EXPECT_EQ(track.Find(name)->array.size(), track.Find("s")->array.size()) << id << name;
      }
    }
  }
}

TEST_F(HtmlReportTest, EventFactColumnsAreCutWithTheirTracks) {
  Written cut = Write({dir_.File("rich.sqlite")}, 6);
  for (const auto& [id, track] : cut.data.Find("events")->Find("0")->object) {
    if (!track.Find("s")) continue;
    for (const char* name : {"corr", "gx", "bytes"}) {
      if (track.Find(name)) {
        EXPECT_EQ(track.Find(name)->array.size(), track.Find("s")->array.size()) << id << name;
      }
    }
  }
}

TEST_F(HtmlReportTest, CopyKindNamesAreEscapedLikeEveryOtherString) {
  // The copy kind's name comes from the report (copy_kinds), so it is data like a kernel name.
  const char* kHostileKind = "</script><!--DtoH";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(dir_.File("rich.sqlite").c_str(), &db), SQLITE_OK);
  std::string sql = "UPDATE copy_kinds SET name = '";
  sql += kHostileKind;
  sql += "' WHERE name = 'DtoH'";
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  EXPECT_EQ(sqlite3_changes(db), 1);
  sqlite3_close(db);
  Written hostile = Write({dir_.File("rich.sqlite")});
  EXPECT_EQ(Count(hostile.html, "</script"), 3u);
  EXPECT_EQ(Count(hostile.html, "<!--"), 1u);
  const JsonValue* stream = hostile.data.Find("events")->Find("0")->Find("gpu0.s7");
  ASSERT_NE(stream, nullptr);
  Texts copy = ColumnTexts(stream, "copy");
  ASSERT_EQ(copy.size(), 3u);
  EXPECT_EQ(hostile.data.Find("strings")->array[std::stoul(copy[1])].text, kHostileKind);
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

// "report's size cap does not scale": the trace tables held every row of the report (773 MB
// of HTML for a million events). They hold their earliest rows, in order, and say so.
TEST_F(HtmlReportTest, TraceTablesHoldTheirEarliestRowsAndSaySo) {
  const JsonValue* whole = written_.data.Find("summary")->Find("tables");
  ASSERT_NE(whole, nullptr);
  const std::size_t gpu_rows = whole->Find("cuda_gpu_trace")->array.size();
  const std::size_t api_rows = whole->Find("cuda_api_trace")->array.size();
  ASSERT_GT(gpu_rows, 2u);
  ASSERT_GT(api_rows, 2u);
  EXPECT_TRUE(written_.stats.trace_cuts.empty());
  EXPECT_EQ(written_.data.Find("summary")->Find("embedded_rows"), nullptr);

  Written cut = Write({dir_.File("rich.sqlite")}, kDefaultEmbedEventLimit, 2);
  const JsonValue* summary = cut.data.Find("summary");
  const JsonValue* tables = summary->Find("tables");
  for (const char* name : {"cuda_gpu_trace", "cuda_api_trace"}) {
    ASSERT_EQ(tables->Find(name)->array.size(), 2u) << name;
    // The earliest rows, in the table's order: the whole table's first two.
    for (std::size_t row = 0; row < 2; ++row) {
      EXPECT_EQ(tables->Find(name)->array[row].Find("Start (ns)")->text,
                whole->Find(name)->array[row].Find("Start (ns)")->text)
          << name << " row " << row;
    }
    const JsonValue* embedded = summary->Find("embedded_rows")->Find(name);
    ASSERT_NE(embedded, nullptr) << name;
    EXPECT_EQ(embedded->Find("rows")->text, "2");
  }
  EXPECT_EQ(summary->Find("embedded_rows")->Find("cuda_gpu_trace")->Find("total")->text,
            std::to_string(gpu_rows));
  EXPECT_EQ(summary->Find("embedded_rows")->Find("cuda_api_trace")->Find("total")->text,
            std::to_string(api_rows));
  ASSERT_EQ(cut.stats.trace_cuts.size(), 2u);
  EXPECT_EQ(cut.stats.trace_cuts.at("cuda_gpu_trace").kept, 2u);
  EXPECT_EQ(cut.stats.trace_cuts.at("cuda_gpu_trace").total, gpu_rows);
  // The other tables are whole.
  EXPECT_EQ(tables->Find("cuda_gpu_kern_sum")->array.size(),
            whole->Find("cuda_gpu_kern_sum")->array.size());
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
