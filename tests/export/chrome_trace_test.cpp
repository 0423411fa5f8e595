// Exports real reports to Chrome Trace Event JSON and reads the result back with a strict
// JSON parser: tracks, slices, flows, counters, times and escaping.
#include "export/chrome_trace.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "../analysis/json_checker.h"
#include "export/json_stream.h"
#include "store/report_reader.h"
#include "test_reports.h"

namespace gpuscope::exporter {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParseJson;
using testing::ScratchDir;

constexpr std::int64_t kGpuPid = std::int64_t{1} << 23;

std::string Text(const JsonValue& event, std::string_view key) {
  const JsonValue* value = event.Find(key);
  if (!value) return "<missing>";
  return value->kind == JsonValue::Kind::kString ? value->text : value->text;
}

struct Exported {
  std::string json;
  JsonValue root;
  ChromeTraceStats stats;
  std::vector<JsonValue> events;

  // Events matching ph and (when given) name.
  std::vector<const JsonValue*> Find(std::string_view ph, std::string_view name = {}) const {
    std::vector<const JsonValue*> found;
    for (const JsonValue& event : events) {
      if (Text(event, "ph") == ph && (name.empty() || Text(event, "name") == name)) {
        found.push_back(&event);
      }
    }
    return found;
  }
};

Exported Export(const std::vector<std::string>& paths) {
  std::vector<std::unique_ptr<store::ReportReader>> readers;
  std::vector<const store::ReportReader*> reports;
  for (const std::string& path : paths) {
    auto reader = store::ReportReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    readers.push_back(std::move(reader.value()));
    reports.push_back(readers.back().get());
  }
  std::ostringstream out;
  auto stats = WriteChromeTrace(reports, out);
  EXPECT_TRUE(stats.ok()) << stats.status().message();
  Exported exported;
  exported.json = out.str();
  exported.stats = stats.ok() ? stats.value() : ChromeTraceStats{};
  std::string error;
  auto root = ParseJson(exported.json, &error);
  EXPECT_TRUE(root.has_value()) << error;
  if (root) {
    exported.root = *root;
    const JsonValue* events = root->Find("traceEvents");
    EXPECT_NE(events, nullptr);
    if (events) exported.events = events->array;
  }
  return exported;
}

class ChromeTraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("rich.sqlite");
    testing::WriteRichReport(path_);
    exported_ = Export({path_});
  }
  ScratchDir dir_;
  std::string path_;
  Exported exported_;
};

TEST(FormatMicrosTest, KeepsNanosecondsExactly) {
  EXPECT_EQ(FormatMicros(0), "0.000");
  EXPECT_EQ(FormatMicros(1), "0.001");
  EXPECT_EQ(FormatMicros(123456), "123.456");
  EXPECT_EQ(FormatMicros(-1050), "-1.050");
  EXPECT_EQ(FormatMicros(1'760'000'000'123'456'789), "1760000000123456.789");
}

TEST_F(ChromeTraceTest, NamesProcessesThreadsAndStreams) {
  std::vector<std::string> names;
  for (const JsonValue* event : exported_.Find("M")) {
    names.push_back(
        Text(*event, "name") + "|" + Text(*event, "pid") + "|" + Text(*event, "tid") + "|" +
        (event->Find("args")->Find("name") ? event->Find("args")->Find("name")->text : ""));
  }
  auto has = [&](const std::string& entry) {
    return std::find(names.begin(), names.end(), entry) != names.end();
  };
  EXPECT_TRUE(has("process_name|4242|0|./app --name=\"a,b\" (pid 4242)"))
      << ::testing::PrintToString(names);
  EXPECT_TRUE(has("process_name|" + std::to_string(kGpuPid) + "|0|GPU 0 (NVIDIA H200) - pid 4242"));
  EXPECT_TRUE(has("thread_name|4242|77|Thread 77"));
  EXPECT_TRUE(has("thread_name|" + std::to_string(kGpuPid) + "|7|Stream 7"));
  EXPECT_TRUE(has("thread_name|" + std::to_string(kGpuPid) + "|13|Stream 13"));
}

TEST_F(ChromeTraceTest, WritesApiCallsAndGpuWorkAsSlicesInMicroseconds) {
  auto malloc_calls = exported_.Find("X", "cudaMalloc");
  ASSERT_EQ(malloc_calls.size(), 1u);
  EXPECT_EQ(Text(*malloc_calls[0], "ts"), "0.000");
  EXPECT_EQ(Text(*malloc_calls[0], "dur"), "1.000");
  EXPECT_EQ(Text(*malloc_calls[0], "tid"), "77");
  auto kernels = exported_.Find("X", "add(int, int, int*)");
  ASSERT_EQ(kernels.size(), 1u);  // the untimed launch is left out (and counted)
  EXPECT_EQ(Text(*kernels[0], "ts"), "4.000");
  EXPECT_EQ(Text(*kernels[0], "dur"), "3.424");
  EXPECT_EQ(Text(*kernels[0], "pid"), std::to_string(kGpuPid));
  EXPECT_EQ(Text(*kernels[0], "tid"), "7");
  EXPECT_EQ(Text(*kernels[0], "cat"), "kernel");
  auto copies = exported_.Find("X", "[CUDA memcpy DtoH]");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(Text(*copies[0], "dur"), "2.656");
  EXPECT_EQ(exported_.Find("X", "[CUDA memset]").size(), 1u);
  // The hostile name survives as data.
  EXPECT_EQ(exported_.Find("X", testing::kHostileKernel).size(), 1u);
  EXPECT_EQ(exported_.stats.skipped_untimed, 2u);  // the untimed kernel and the open range
  EXPECT_EQ(Text(*exported_.root.Find("otherData"), "skipped_untimed_events"), "2");
}

TEST_F(ChromeTraceTest, LinksEachApiCallToItsGpuWorkWithFlows) {
  auto starts = exported_.Find("s");
  auto finishes = exported_.Find("f");
  std::map<std::string, const JsonValue*> start_by_id, finish_by_id;
  for (const JsonValue* s : starts) start_by_id[Text(*s, "id")] = s;
  for (const JsonValue* f : finishes) finish_by_id[Text(*f, "id")] = f;
  // Kernels (3, 4), the copy through its runtime call (5) and the memset (7).
  for (std::string id : {"3", "4", "5", "7"}) {
    ASSERT_TRUE(start_by_id.count(id)) << id;
    ASSERT_TRUE(finish_by_id.count(id)) << id;
    EXPECT_EQ(Text(*start_by_id[id], "pid"), "4242");
    EXPECT_EQ(Text(*finish_by_id[id], "pid"), std::to_string(kGpuPid));
    EXPECT_EQ(Text(*finish_by_id[id], "bp"), "e");
  }
  EXPECT_EQ(starts.size(), 4u);  // cudaMalloc has no GPU work: no dangling arrow
  EXPECT_EQ(Text(*start_by_id["3"], "ts"), "2.000");
  EXPECT_EQ(Text(*finish_by_id["3"], "ts"), "4.000");
  EXPECT_EQ(Text(*finish_by_id["3"], "tid"), "7");
}

TEST_F(ChromeTraceTest, WritesNvtxRangesMarksAndStartEndRanges) {
  auto outer = exported_.Find("X", "outer");
  auto inner = exported_.Find("X", "inner");
  ASSERT_EQ(outer.size(), 1u);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(Text(*outer[0], "dur"), "50.000");
  EXPECT_EQ(Text(*inner[0], "ts"), "1.000");
  EXPECT_EQ(Text(*inner[0], "tid"), "77");
  auto marks = exported_.Find("i", "tick");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(Text(*marks[0], "ts"), "25.000");
  // The start/end range: an async pair; its name has control characters escaped and the
  // invalid byte replaced by U+FFFD.
  std::string expected = "quote\" back\\slash\ttab\x01 bad\xEF\xBF\xBD utf8, comma";
  ASSERT_EQ(exported_.Find("b", expected).size(), 1u);
  ASSERT_EQ(exported_.Find("e", expected).size(), 1u);
  EXPECT_EQ(Text(*exported_.Find("e", expected)[0], "ts"), "60.000");
  EXPECT_EQ(exported_.Find("X", "open").size(), 0u);
}

TEST_F(ChromeTraceTest, CountsDeviceMemoryInUse) {
  auto counters = exported_.Find("C", "Device memory");
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_EQ(Text(*counters[0], "ts"), "0.500");
  EXPECT_EQ(counters[0]->Find("args")->Find("bytes")->text, "1048576");
  // The free record carries no size: it comes from the allocation.
  EXPECT_EQ(counters[1]->Find("args")->Find("bytes")->text, "0");
  EXPECT_EQ(Text(*counters[1], "pid"), std::to_string(kGpuPid));
}

TEST_F(ChromeTraceTest, SeveralReportsGetTheirOwnProcessesAndFlowIds) {
  std::string second = dir_.File("second.sqlite");
  testing::WriteRichReport(second);
  Exported both = Export({path_, second});
  std::set<std::string> process_pids, flow_ids;
  for (const JsonValue* event : both.Find("M", "process_name"))
    process_pids.insert(Text(*event, "pid"));
  EXPECT_EQ(process_pids.size(), 4u);  // two processes (same pid in both reports) and two GPUs
  for (const JsonValue* event : both.Find("s")) flow_ids.insert(Text(*event, "id"));
  EXPECT_EQ(flow_ids.size(), 8u);
}

TEST_F(ChromeTraceTest, PythonJsonModuleAcceptsTheTrace) {
  if (std::system("python3 -c 'import json' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3";
  std::string file = dir_.File("trace.json");
  std::ofstream(file) << exported_.json;
  std::string command =
      "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
      "assert all(\"ph\" in e and \"pid\" in e for e in d[\"traceEvents\"])' " +
      file;
  EXPECT_EQ(std::system(command.c_str()), 0);
}

TEST(ChromeTraceLargeTest, StreamsAHundredThousandKernels) {
  ScratchDir dir;
  std::string path = dir.File("big.sqlite");
  testing::WriteSyntheticReport(path, 100000);
  Exported exported = Export({path});
  EXPECT_EQ(exported.Find("X").size(), 200000u);
  EXPECT_EQ(exported.Find("s").size(), 100000u);
  EXPECT_EQ(exported.Find("f").size(), 100000u);
}

}  // namespace
}  // namespace gpuscope::exporter
