// The typed read queries that the exporters and the viewer use instead of SQL: whole rows
// of the exported tables, an event's row by id, the timeline's rows (on the reader's
// connection and on one of their own), kernel launch groups, event attributes and the
// correlation ids, all checked on the rich report of tests/export (one of every record).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "store/correlation_ids.h"
#include "store/event_attributes.h"
#include "store/kernel_launch_groups.h"
#include "store/report_reader.h"
#include "store/table_rows.h"
#include "store/timeline_rows.h"
#include "store_test_util.h"
#include "test_reports.h"

namespace gpuscope::store {
namespace {

using exporter::testing::kHostileKernel;
using exporter::testing::kRichStart;

constexpr const char* kAdd = "add(int, int, int*)";

class ReportQueriesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    exporter::testing::WriteRichReport(path_);
    auto reader = ReportReader::Open(path_);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    report_ = std::move(reader.value());
  }

  // An exported table as text: its column names and every row's values ("NULL" for NULL).
  struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::string At(std::size_t row, const std::string& column) const {
      auto found = std::find(columns.begin(), columns.end(), column);
      EXPECT_NE(found, columns.end()) << column;
      return found == columns.end() ? "" : rows.at(row).at(found - columns.begin());
    }
  };
  Table Exported(const std::string& name) {
    Table table;
    Status read = ForEachExportedRow(
        *report_, name,
        [&](std::span<const std::string> columns) {
          EXPECT_TRUE(table.columns.empty()) << "columns given twice";
          table.columns.assign(columns.begin(), columns.end());
        },
        [&](const TableRow& row) {
          EXPECT_EQ(row.columns.size(), table.columns.size());
          table.rows.push_back(Texts(row));
          return true;
        });
    EXPECT_TRUE(read.ok()) << read.message();
    return table;
  }
  static std::vector<std::string> Texts(const TableRow& row) {
    std::vector<std::string> texts;
    for (const FieldValue& value : row.values) {
      switch (value.kind) {
        case FieldValue::Kind::kNull:
          texts.emplace_back("NULL");
          break;
        case FieldValue::Kind::kInteger:
          texts.push_back(std::to_string(value.integer));
          break;
        case FieldValue::Kind::kReal:
          texts.push_back(std::to_string(value.real));
          break;
        case FieldValue::Kind::kText:
          texts.emplace_back(value.text);
      }
    }
    return texts;
  }

  test::TempDir dir_;
  std::string path_ = dir_.File("rich.sqlite");
  std::unique_ptr<ReportReader> report_;
};

TEST_F(ReportQueriesTest, ExportedTablesAreTheEventTablesAndDevices) {
  EXPECT_EQ(ExportedTableNames(),
            (std::vector<std::string>{"kernels", "memcpys", "memsets", "api_calls", "nvtx",
                                      "memory", "syncs", "overheads", "devices", "kernel_metrics", "kernel_findings"}));
}

TEST_F(ReportQueriesTest, ExportedRowsHaveResolvedNamesAndAbsoluteTimesInStartOrder) {
  Table kernels = Exported("kernels");
  ASSERT_EQ(kernels.rows.size(), 3u);
  EXPECT_EQ(kernels.columns.front(), "id");
  EXPECT_EQ(kernels.At(0, "start"), "NULL");  // the untimed launch sorts first
  EXPECT_EQ(kernels.At(1, "name"), kAdd);
  EXPECT_EQ(kernels.At(1, "mangled_name"), "_Z3addiiPi");
  EXPECT_EQ(kernels.At(1, "start"), std::to_string(kRichStart + 4000));
  EXPECT_EQ(kernels.At(1, "duration"), "3424");
  EXPECT_EQ(kernels.At(2, "name"), kHostileKernel);
  Table copies = Exported("memcpys");
  ASSERT_EQ(copies.rows.size(), 1u);
  EXPECT_EQ(copies.At(0, "copy_kind"), "DtoH");
  EXPECT_EQ(copies.At(0, "dst_kind"), "Pageable");
  Table memory = Exported("memory");
  ASSERT_EQ(memory.rows.size(), 2u);
  EXPECT_EQ(memory.At(0, "op"), "alloc");
  EXPECT_EQ(memory.At(1, "op"), "free");
  EXPECT_EQ(Exported("devices").At(0, "name"), "NVIDIA H200");
  EXPECT_EQ(Exported("api_calls").rows.size(), 7u);
}

TEST_F(ReportQueriesTest, AnEmptyTableStillNamesTheColumnsItsViewDeclares) {
  for (const std::string& name : ExportedTableNames()) {
    // Profile results are joins, not views: tests/export checks their columns.
    if (name == "kernel_metrics" || name == "kernel_findings") continue;
    const std::string view = name == "devices" ? name : name + "_v";
    std::string declared = test::QueryText(
        path_, "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('" + view +
                   "') ORDER BY cid)");
    Table table = Exported(name);
    std::string given;
    for (const std::string& column : table.columns) given += (given.empty() ? "" : ",") + column;
    EXPECT_EQ(given, declared) << name;
  }
  Table syncs = Exported("syncs");
  EXPECT_TRUE(syncs.rows.empty());
  EXPECT_GT(syncs.columns.size(), 5u);
}

TEST_F(ReportQueriesTest, ExportedRowsStopWhenTheCallbackSaysSoAndUnknownTablesAreErrors) {
  int rows = 0;
  Status read = ForEachExportedRow(*report_, "api_calls", nullptr, [&](const TableRow&) {
    ++rows;
    return false;
  });
  EXPECT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(rows, 1);
  Status unknown = ForEachExportedRow(*report_, "strings; DROP TABLE kernels", nullptr,
                                      [](const TableRow&) { return true; });
  EXPECT_FALSE(unknown.ok());
}

TEST_F(ReportQueriesTest, AnEventRowByTableAndId) {
  std::map<std::string, std::string> fields;
  StatusOr<bool> found = ReadEventRow(*report_, EventTable::kMemcpys, 1, [&](const TableRow& row) {
    std::vector<std::string> texts = Texts(row);
    for (std::size_t c = 0; c < row.columns.size(); ++c) fields[row.columns[c]] = texts[c];
  });
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_TRUE(found.value());
  EXPECT_EQ(fields["name"], "[CUDA memcpy DtoH]");
  EXPECT_EQ(fields["correlation_id"], "6");
  EXPECT_EQ(fields["runtime_correlation_id"], "5");
  EXPECT_EQ(fields["start"], std::to_string(kRichStart + 10000));

  StatusOr<bool> nvtx = ReadEventRow(*report_, EventTable::kNvtx, 3, [&](const TableRow& row) {
    EXPECT_EQ(Texts(row)[1], "tick");
  });
  ASSERT_TRUE(nvtx.ok());
  EXPECT_TRUE(nvtx.value());
  StatusOr<bool> missing =
      ReadEventRow(*report_, EventTable::kKernels, 99, [](const TableRow&) { FAIL(); });
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing.value());
}

// What a TimelineRowReader gives for the rich report, one line per row.
std::vector<std::string> TimelineOf(const TimelineRowReader& rows) {
  std::vector<std::string> lines;
  std::map<std::uint32_t, std::string> names;
  auto time = [](const std::optional<model::Timestamp>& t) {
    return t ? std::to_string(*t - kRichStart) : std::string("none");
  };
  EXPECT_TRUE(rows.ForEachName([&](std::uint32_t id, std::string_view text) {
                    names[id] = std::string(text);
                  })
                  .ok());
  EXPECT_TRUE(rows.ForEachKernel([&](const KernelSpan& k) {
                    lines.push_back(
                        "kernel " + std::to_string(k.id) + " " + time(k.start) + "-" + time(k.end) +
                        " " + names[k.name_id] + " d" + std::to_string(k.device_id) + " s" +
                        std::to_string(k.stream_id) + " c" + std::to_string(k.correlation_id));
                  })
                  .ok());
  EXPECT_TRUE(rows.ForEachMemcpy([&](const MemcpySpan& m) {
                    lines.push_back("memcpy " + std::to_string(m.id) + " " + time(m.start) + "-" +
                                    time(m.end) + " kind" + std::to_string(m.copy_kind) + " s" +
                                    std::to_string(m.stream_id) + " c" +
                                    std::to_string(m.correlation_id) + " r" +
                                    std::to_string(m.runtime_correlation_id));
                  })
                  .ok());
  EXPECT_TRUE(rows.ForEachMemset([&](const MemsetSpan& m) {
                    lines.push_back("memset " + std::to_string(m.id) + " " + time(m.start) + "-" +
                                    time(m.end) + " s" + std::to_string(m.stream_id) + " c" +
                                    std::to_string(m.correlation_id));
                  })
                  .ok());
  EXPECT_TRUE(rows.ForEachMemoryChange([&](const MemoryChange& m) {
                    lines.push_back(
                        std::string(m.op == model::MemoryOp::kAlloc ? "alloc " : "free ") +
                        time(m.timestamp) + " " + std::to_string(m.bytes) + " at " +
                        std::to_string(m.address) + " d" + std::to_string(m.device_id));
                  })
                  .ok());
  EXPECT_TRUE(rows.ForEachApiCall([&](const ApiSpan& a) {
                    lines.push_back("api " + std::to_string(a.id) + " " + time(a.start) + "-" +
                                    time(a.end) + " " + names[a.name_id] + " t" +
                                    std::to_string(a.thread_id) + " c" +
                                    std::to_string(a.correlation_id));
                  })
                  .ok());
  EXPECT_TRUE(rows.ForEachNvtx([&](const NvtxSpan& n) {
                    lines.push_back("nvtx " + std::to_string(n.id) + " kind" +
                                    std::to_string(static_cast<int>(n.kind)) + " " + time(n.start) +
                                    "-" + time(n.end) + " " + names[n.name_id] + " t" +
                                    std::to_string(n.thread_id));
                  })
                  .ok());
  return lines;
}

TEST_F(ReportQueriesTest, TimelineRowsInRowOrderWithAbsoluteTimesAndNamesById) {
  std::vector<std::string> lines = TimelineOf(TimelineRowReader(*report_));
  const std::vector<std::string> expected = {
      "kernel 1 4000-7424 add(int, int, int*) d0 s7 c3",
      "kernel 2 5000-6000 " + std::string(kHostileKernel) + " d0 s13 c4",
      "kernel 3 none-none add(int, int, int*) d0 s7 c8",
      "memcpy 1 10000-12656 kind" + std::to_string(static_cast<int>(model::CopyKind::kDtoH)) +
          " s7 c6 r5",
      "memset 1 23000-23500 s7 c7",
      "alloc 500 1048576 at 4096 d0",
      "free 90000 0 at 4096 d0",
      "api 1 0-1000 cudaMalloc t77 c1",
      "api 2 100-900 cuMemAlloc_v2 t77 c2",
      "api 3 2000-3000 cudaLaunchKernel t77 c3",
      "api 4 3000-3500 cudaLaunchKernel t77 c4",
      "api 5 8000-20000 cudaMemcpy t77 c5",
      "api 6 8100-19000 cuMemcpyDtoH_v2 t77 c6",
      "api 7 21000-22000 cudaMemset t77 c7",
      "nvtx 1 kind1 0-50000 outer t77",
      "nvtx 2 kind1 1000-30000 inner t77",
      "nvtx 3 kind0 25000-25000 tick t77",
      "nvtx 4 kind2 40000-60000 " + std::string(exporter::testing::kHostileRange) + " t77",
      "nvtx 5 kind1 70000-none open t77",
  };
  EXPECT_EQ(lines, expected);
}

TEST_F(ReportQueriesTest, TimelineRowsOnTheirOwnConnectionReadBesideTheReader) {
  auto own = TimelineRowReader::WithOwnConnection(*report_);
  ASSERT_TRUE(own.ok()) << own.status().message();
  std::vector<std::string> on_own, on_reader;
  std::thread other([&] { on_own = TimelineOf(*own.value()); });
  on_reader = TimelineOf(TimelineRowReader(*report_));
  other.join();
  EXPECT_EQ(on_own, on_reader);
  EXPECT_EQ(on_own.size(), 19u);
}

TEST_F(ReportQueriesTest, KernelLaunchGroupsCountEveryLaunchAndTimeTheTimedOnes) {
  std::vector<KernelLaunchGroup> groups;
  std::vector<std::string> names;
  Status read = ForEachKernelLaunchGroup(*report_, std::nullopt, [&](const KernelLaunchGroup& g) {
    groups.push_back(g);
    names.emplace_back(g.name);
  });
  ASSERT_TRUE(read.ok()) << read.message();
  ASSERT_EQ(names, (std::vector<std::string>{kHostileKernel, kAdd}));  // by name
  const KernelLaunchGroup& add = groups[1];
  EXPECT_EQ(add.launches, 2);
  EXPECT_EQ(add.timed, 1);
  EXPECT_EQ(add.total_duration, 3424);
  EXPECT_EQ(add.min_duration, 3424);
  EXPECT_EQ(add.max_duration, 3424);
  EXPECT_EQ(add.launch.grid[0], 4);
  EXPECT_EQ(add.launch.block[0], 256);
  EXPECT_EQ(add.launch.registers_per_thread, 32);

  int only = 0;
  read = ForEachKernelLaunchGroup(*report_, kAdd, [&](const KernelLaunchGroup& g) {
    EXPECT_EQ(g.name, kAdd);
    EXPECT_EQ(g.mangled_name, "_Z3addiiPi");
    ++only;
  });
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(only, 1);
  read = ForEachKernelLaunchGroup(*report_, "no such kernel",
                                  [](const KernelLaunchGroup&) { FAIL(); });
  EXPECT_TRUE(read.ok());
}

TEST_F(ReportQueriesTest, EventAttributesFillOnlyTheIdsAskedFor) {
  std::unordered_map<std::uint32_t, EventAttributes> kernels = {{1, {}}, {3, {}}};
  ASSERT_TRUE(FillEventAttributes(*report_, EventTable::kKernels, kernels).ok());
  ASSERT_EQ(kernels.size(), 2u);  // kernel 2 lies between the ids asked for: not added
  EXPECT_EQ(kernels[1].correlation_id, 3u);
  EXPECT_EQ(kernels[3].correlation_id, 8u);
  EXPECT_EQ(kernels[1].launch.grid[0], 4);
  EXPECT_EQ(kernels[1].launch.block[0], 256);
  EXPECT_EQ(kernels[1].launch.registers_per_thread, 32);

  std::unordered_map<std::uint32_t, EventAttributes> copies = {{1, {}}};
  ASSERT_TRUE(FillEventAttributes(*report_, EventTable::kMemcpys, copies).ok());
  EXPECT_EQ(copies[1].correlation_id, 6u);
  EXPECT_EQ(copies[1].runtime_correlation_id, 5u);
  EXPECT_EQ(copies[1].bytes, 4);
  EXPECT_EQ(copies[1].copy_kind, "DtoH");

  std::unordered_map<std::uint32_t, EventAttributes> memsets = {{1, {}}};
  ASSERT_TRUE(FillEventAttributes(*report_, EventTable::kMemsets, memsets).ok());
  EXPECT_EQ(memsets[1].bytes, 64);
  EXPECT_EQ(memsets[1].correlation_id, 7u);

  std::unordered_map<std::uint32_t, EventAttributes> calls = {{5, {}}};
  ASSERT_TRUE(FillEventAttributes(*report_, EventTable::kApiCalls, calls).ok());
  EXPECT_EQ(calls[5].correlation_id, 5u);

  std::unordered_map<std::uint32_t, EventAttributes> ranges = {{1, {}}};
  ASSERT_TRUE(FillEventAttributes(*report_, EventTable::kNvtx, ranges).ok());
  EXPECT_EQ(ranges[1].correlation_id, 0u);  // NVTX ranges have no attributes
}

TEST_F(ReportQueriesTest, CorrelationIdsOfGpuWorkAndApiCallsAreSortedSets) {
  StatusOr<std::vector<std::uint32_t>> gpu = GpuCorrelationIds(*report_);
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  // Kernels 3, 4 and 8; the copy by its runtime call's id 5; the memset 7.
  EXPECT_EQ(gpu.value(), (std::vector<std::uint32_t>{3, 4, 5, 7, 8}));
  StatusOr<std::vector<std::uint32_t>> api = ApiCorrelationIds(*report_);
  ASSERT_TRUE(api.ok()) << api.status().message();
  EXPECT_EQ(api.value(), (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7}));
}

}  // namespace
}  // namespace gpuscope::store
