// Rows come out in start order although the writer stores them in arrival order: the
// reorder window, the writer's row_order bookkeeping, and the multi-threaded reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "store/reorder_window.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

struct Item {
  std::int64_t start;
  int sequence;
};

std::vector<Item> RunWindow(const std::vector<Item>& input, std::int64_t max_lateness) {
  ReorderWindow<Item> window(max_lateness);
  std::vector<Item> out;
  auto emit = [&](const Item& item) {
    out.push_back(item);
    return true;
  };
  for (Item item : input) {
    EXPECT_TRUE(window.Fits(item.start));
    window.Push(item.start, item.sequence, std::move(item), emit);
  }
  window.Drain(emit);
  return out;
}

TEST(ReorderWindow, SortsBoundedDisorderStably) {
  std::mt19937 random(7);
  std::vector<Item> input;
  std::int64_t latest = 0, lateness = 0;
  for (int i = 0; i < 5000; ++i) {
    std::int64_t start = i * 10 - static_cast<std::int64_t>(random() % 400);
    if (i % 7 == 0 && !input.empty()) start = input.back().start;  // ties
    lateness = std::max(lateness, latest - start);
    latest = std::max(latest, start);
    input.push_back({start, i});
  }
  std::vector<Item> expected = input;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const Item& a, const Item& b) { return a.start < b.start; });
  std::vector<Item> out = RunWindow(input, lateness);
  ASSERT_EQ(out.size(), expected.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].start, expected[i].start) << i;
    EXPECT_EQ(out[i].sequence, expected[i].sequence) << i;
  }
}

TEST(ReorderWindow, OrderedInputPassesStraightThrough) {
  ReorderWindow<Item> window(0);
  int emitted = 0;
  auto emit = [&](const Item&) {
    ++emitted;
    return true;
  };
  for (int i = 0; i < 100; ++i) {
    window.Push(i, i, Item{i, i}, emit);
    EXPECT_EQ(window.held(), 0u);  // nothing is buffered
  }
  EXPECT_EQ(emitted, 100);
  EXPECT_FALSE(window.Fits(50));  // a row later than the bound allows is detected
}

TEST(ReorderWindow, StopsWhenTheConsumerSaysSo) {
  ReorderWindow<Item> window(1000);
  int emitted = 0;
  auto emit = [&](const Item&) { return ++emitted < 3; };
  bool go_on = true;
  for (int i = 0; go_on && i < 10000; ++i) {
    go_on = window.Push(i * 100, i, Item{i * 100, i}, emit);
  }
  EXPECT_FALSE(go_on);
  EXPECT_EQ(emitted, 3);
}

// Two streams whose records arrive in per-stream buffers: the table is out of order.
std::vector<model::KernelRecord> InterleavedKernels(int count) {
  std::vector<model::KernelRecord> kernels;
  for (int block = 0; block * 100 < count; ++block) {
    for (int stream = 0; stream < 2; ++stream) {
      for (int i = 0; i < 50 && static_cast<int>(kernels.size()) < count; ++i) {
        model::KernelRecord k = testing::SampleKernel(i % 3);
        k.stream_id = 13 + stream;
        k.start = testing::kSampleStart + (block * 50 + i) * 1000 + stream * 300;
        k.end = k.start + 800;
        k.correlation_id = static_cast<std::uint32_t>(kernels.size());
        kernels.push_back(k);
      }
    }
  }
  return kernels;
}

std::string WriteKernels(const test::TempDir& dir,
                         const std::vector<model::KernelRecord>& kernels) {
  std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  EXPECT_TRUE(writer.ok());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    writer.value()->OnKernel(kernels[i]);
    if (i % 10'000 == 9'999) writer.value()->Flush();
  }
  EXPECT_TRUE(writer.value()->Close().ok());
  return path;
}

void ExpectStartOrder(const std::string& path, const std::vector<model::KernelRecord>& kernels) {
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<model::KernelRecord> expected = kernels;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.start < b.start; });
  std::size_t i = 0;
  Status status = reader.value()->ForEachKernel([&](const KernelRow& row) {
    if (i < expected.size()) {
      EXPECT_EQ(row.record.start, expected[i].start) << i;
      EXPECT_EQ(row.record.correlation_id, expected[i].correlation_id) << i;
    }
    ++i;
    return true;
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(i, expected.size());
}

TEST(ReaderOrder, OutOfOrderRowsComeBackInStartOrder) {
  test::TempDir dir;
  std::vector<model::KernelRecord> kernels = InterleavedKernels(1000);
  std::string path = WriteKernels(dir, kernels);
  // Stream 0's 50 kernels precede stream 1's in each block: the second stream's first
  // kernel starts 49.7 us before the latest start seen.
  EXPECT_EQ(test::QueryInt(path,
                           "SELECT max_lateness_ns FROM row_order WHERE table_name = "
                           "'kernels'"),
            49 * 1000 - 300);
  EXPECT_EQ(test::QueryInt(path,
                           "SELECT max_lateness_ns FROM row_order WHERE table_name = "
                           "'api_calls'"),
            0);
  ExpectStartOrder(path, kernels);
}

// Large enough for the multi-threaded path (several chunks of rows on worker threads).
TEST(ReaderOrder, LargeTablesAreCompleteAndOrdered) {
  test::TempDir dir;
  std::vector<model::KernelRecord> kernels = InterleavedKernels(150'000);
  std::string path = WriteKernels(dir, kernels);
  ExpectStartOrder(path, kernels);

  // Stopping early delivers exactly what was asked for and leaves no thread behind.
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  int seen = 0;
  Status stopped = reader.value()->ForEachKernel([&](const KernelRow&) { return ++seen < 70'000; });
  EXPECT_TRUE(stopped.ok()) << stopped.message();
  EXPECT_EQ(seen, 70'000);
}

// A table too far out of order for the window's memory limit: SQLite sorts the rest,
// and the order is still exact (ties included).
TEST(ReaderOrder, BeyondTheWindowLimitSQLiteSortsTheRest) {
  test::TempDir dir;
  std::vector<model::KernelRecord> kernels = InterleavedKernels(1000);
  kernels[600].start = kernels[0].start - 5;  // a wild timestamp, very late
  kernels[601].start = kernels[300].start;    // a tie across the switch
  std::string path = WriteKernels(dir, kernels);
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  for (std::size_t limit : {0, 10, 100}) {
    SCOPED_TRACE(limit);
    reader.value()->set_reorder_window_limit(limit);
    std::vector<model::KernelRecord> expected = kernels;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.start < b.start; });
    std::size_t i = 0;
    Status status = reader.value()->ForEachKernel([&](const KernelRow& row) {
      if (i < expected.size()) {
        EXPECT_EQ(row.record.correlation_id, expected[i].correlation_id) << i;
      }
      ++i;
      return true;
    });
    ASSERT_TRUE(status.ok()) << status.message();
    EXPECT_EQ(i, expected.size());
  }
}

TEST(ReaderOrder, WithoutBookkeepingSQLiteSorts) {
  test::TempDir dir;
  std::vector<model::KernelRecord> kernels = InterleavedKernels(1000);
  std::string path = WriteKernels(dir, kernels);
  test::ExecSql(path, "DELETE FROM row_order");
  ExpectStartOrder(path, kernels);
}

TEST(ReaderOrder, BookkeepingThatLiesIsReportedAsDamage) {
  test::TempDir dir;
  std::string path = WriteKernels(dir, InterleavedKernels(1000));
  test::ExecSql(path, "UPDATE row_order SET max_lateness_ns = 10 WHERE table_name = 'kernels'");
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  Status status = reader.value()->ForEachKernel([](const KernelRow&) { return true; });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot read report " + path +
                                  ": corrupt (kernels rows are further out of start order than "
                                  "its row_order entry says)");
}

TEST(ReaderOrder, ARowNamingAMissingStringIsDamage) {
  test::TempDir dir;
  std::string path = WriteKernels(dir, InterleavedKernels(100));
  test::ExecSql(path, "UPDATE kernels SET name_id = 999 WHERE id = 50");
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  Status status = reader.value()->ForEachKernel([](const KernelRow&) { return true; });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot read report " + path +
                                  ": corrupt (a row of kernels refers to a name that does not "
                                  "exist)");
}

}  // namespace
}  // namespace gpuscope::store
