// Exports real reports to Chrome Trace Event JSON and reads the result back with a strict
// JSON parser: tracks, slices, flows, counters, times and escaping.
#include "export/chrome_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "../support/json_checker.h"
#include "export/json_stream.h"
#include "model/overhead_kinds.h"
#include "store/report_reader.h"
#include "store/testing/devices.h"
#include "store/testing/rank_reports.h"
#include "store/testing/report_builder.h"
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

// Trace times ("ts", "dur": microseconds with three decimals) in whole nanoseconds.
std::int64_t Nanoseconds(const JsonValue& event, std::string_view key) {
  return std::llround(std::stod(Text(event, key)) * 1000);
}

// The ranks of one job on two hosts whose clocks differ by 3 ms: one process per rank,
// named by rank and sorted by it, every time moved onto the reference rank's axis.
// gpuscope's replay of a profiled launch is profiler time: a slice of its own category on
// the thread it delayed, next to the launch call that no longer contains it.
TEST(ChromeTraceProfilerTimeTest, WritesTheReplayAsAProfilerSlice) {
  ScratchDir dir;
  const std::string path = dir.File("profiled.sqlite");
  {
    store::testing::ReportBuilder report(path, {.origin = testing::kRichStart,
                                                .pid = testing::kRichPid,
                                                .thread_id = testing::kRichThread});
    ASSERT_TRUE(report.status().ok()) << report.status().message();
    report.Write(store::testing::H200());
    report.Api("cudaLaunchKernel", 1000, 2000, 3);
    model::OverheadRecord replay;
    replay.start = testing::kRichStart + 3000;
    replay.end = testing::kRichStart + 4'003'000;
    replay.overhead_kind = model::kGpuscopeReplayOverheadKind;
    replay.process_id = testing::kRichPid;
    replay.thread_id = testing::kRichThread;
    replay.name = "gpuscope replay of a profiled launch";
    report.Write(replay);
    ASSERT_TRUE(report.Close().ok());
  }
  Exported exported = Export({path});
  auto slices = exported.Find("X", "gpuscope replay of a profiled launch");
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(Text(*slices[0], "cat"), "profiler");
  EXPECT_EQ(Text(*slices[0], "tid"), std::to_string(testing::kRichThread));
  EXPECT_EQ(Text(*slices[0], "ts"), "3.000");
  EXPECT_EQ(Text(*slices[0], "dur"), "4000.000");
  EXPECT_EQ(Text(*slices[0]->Find("args"), "overhead_kind"),
            std::to_string(model::kGpuscopeReplayOverheadKind));
  auto launches = exported.Find("X", "cudaLaunchKernel");
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(Text(*launches[0], "dur"), "2.000");
}

TEST(ChromeTraceRanksTest, PutsRanksOnTheAlignedAxisOneProcessEach) {
  ScratchDir dir;
  store::testing::RankReportsSpec spec;
  spec.ranks = 4;
  spec.ranks_per_host = 2;
  spec.host_clock_offset_ns = {0, 3'000'000};
  spec.steps = 3;
  spec.kernels_per_step = 2;
  std::vector<std::string> paths = store::testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 4u);
  Exported exported = Export({paths[3], paths[1], paths[2], paths[0]});

  std::map<std::string, std::string> process_names;  // pid -> name
  std::map<std::string, std::string> sort_index;     // pid -> sort index
  for (const JsonValue* event : exported.Find("M", "process_name")) {
    process_names[Text(*event, "pid")] = event->Find("args")->Find("name")->text;
  }
  for (const JsonValue* event : exported.Find("M", "process_sort_index")) {
    sort_index[Text(*event, "pid")] = event->Find("args")->Find("sort_index")->text;
  }
  for (int rank = 0; rank < 4; ++rank) {
    const std::string pid = std::to_string(30000 + rank);
    const std::string label =
        "rank " + std::to_string(rank) + " (node" + std::to_string(rank / 2) + ", " + pid + ")";
    EXPECT_EQ(process_names[pid], label);
    EXPECT_EQ(sort_index[pid], std::to_string(rank * 1000));
  }
  // GPU processes carry the rank too; their pids follow the reports' order on the command
  // line (index 0 is rank 3), their sort indexes the rank order.
  const std::string rank3_gpu = std::to_string(kGpuPid + 1);  // report 0, device 1
  EXPECT_EQ(process_names[rank3_gpu].substr(0, 6), "GPU 1 ");
  EXPECT_NE(process_names[rank3_gpu].find(" - rank 3 (node1, 30003)"), std::string::npos)
      << process_names[rank3_gpu];
  EXPECT_EQ(sort_index[rank3_gpu], "3002");

  // Every rank's k-th all-reduce ends at one time on the trace's axis.
  std::map<std::string, std::vector<std::int64_t>> ends;  // GPU pid -> ends in order
  for (const JsonValue* kernel : exported.Find("X", store::testing::kNcclAllReduceKernel)) {
    ends[Text(*kernel, "pid")].push_back(Nanoseconds(*kernel, "ts") + Nanoseconds(*kernel, "dur"));
  }
  ASSERT_EQ(ends.size(), 4u);
  for (auto& [pid, list] : ends) std::sort(list.begin(), list.end());
  for (const auto& [pid, list] : ends) {
    EXPECT_EQ(list, ends.begin()->second) << "GPU process " << pid;
  }
  // And the shift is stated next to the trace.
  const JsonValue* alignment = exported.root.Find("otherData")->Find("clock_alignment");
  ASSERT_NE(alignment, nullptr);
  ASSERT_EQ(alignment->array.size(), 4u);
  EXPECT_EQ(Text(alignment->array[2], "rank"), "2");
  EXPECT_EQ(Text(alignment->array[2], "offset_ns"), "-3000000");
  EXPECT_EQ(Text(alignment->array[2], "method"), "collectives (3 matched)");
}

// Reports without ranks keep their own clocks, order and names.
TEST(ChromeTraceRanksTest, ReportsWithoutRanksAreNotMoved) {
  const std::string dir = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/";
  Exported exported = Export({dir + "h100_nvtx_ranges.sqlite", dir + "h100_add.sqlite"});
  EXPECT_EQ(exported.root.Find("otherData")->Find("clock_alignment"), nullptr);
  for (const JsonValue* event : exported.Find("M", "process_name")) {
    EXPECT_EQ(event->Find("args")->Find("name")->text.find("rank "), std::string::npos);
  }
  // In the order given: the first report's process and GPU 0, then the second's.
  std::set<std::string> indexes;
  for (const JsonValue* event : exported.Find("M", "process_sort_index")) {
    indexes.insert(event->Find("args")->Find("sort_index")->text);
  }
  EXPECT_EQ(indexes, (std::set<std::string>{"0", "1", "1000", "1001"}));
}

TEST_F(ChromeTraceTest, WritesAKernelsNameOncePerEvent) {
  // A C++ name's mangled form is an argument of its own; a name without one (a C kernel, or
  // one shortened on read) is not repeated in it.
  auto kernels = exported_.Find("X", "add(int, int, int*)");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(Text(*kernels[0]->Find("args"), "mangled_name"), "_Z3addiiPi");
  auto hostile = exported_.Find("X", testing::kHostileKernel);
  ASSERT_EQ(hostile.size(), 1u);
  EXPECT_EQ(hostile[0]->Find("args")->Find("mangled_name"), nullptr);
}

// Sanitizer finding: a time base of INT64_MAX with a process start of INT64_MIN put events
// further from the trace's origin than int64 holds (signed overflow in the axis arithmetic,
// chrome_trace.cpp's Relative). Such a time is clamped to the axis's end and counted, never
// wrapped around to the other end.
TEST(ChromeTraceDamagedTimesTest, TimesBeyondTheAxisAreClampedAndCounted) {
  ScratchDir dir;
  std::string path = dir.File("damaged.sqlite");
  testing::WriteRichReport(path);
  testing::ExecSql(path,
                   "UPDATE meta SET value = '9223372036854775807' WHERE key = 'time_base_ns';"
                   "UPDATE process SET start = -9223372036854775808;"
                   "UPDATE kernels SET start = 0, \"end\" = 0 WHERE start IS NOT NULL;");
  Exported exported = Export({path});
  // The origin is the process start (time base + INT64_MIN: -1 as a signed time); a kernel at
  // the time base itself (INT64_MAX) lies INT64_MAX + 1 after it.
  EXPECT_EQ(Text(*exported.root.Find("otherData"), "time_origin_ns"), "-1");
  auto kernels = exported.Find("X", "add(int, int, int*)");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(Text(*kernels[0], "ts"), "9223372036854775.807");  // INT64_MAX ns, not INT64_MIN
  EXPECT_EQ(Text(*kernels[0], "dur"), "0.000");
  EXPECT_EQ(exported.Find("X", testing::kHostileKernel).size(), 1u);
  // Both kernels and the arrows that end at them.
  EXPECT_GE(exported.stats.clamped_times, 4u);
  for (const JsonValue& event : exported.events) {
    if (Text(event, "ph") == "M") continue;
    EXPECT_NE(Text(event, "ts").rfind("-9223372036854775.8", 0), 0u) << Text(event, "name");
  }
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
