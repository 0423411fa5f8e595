#include "analysis/spill_merge.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace gpuscope::analysis {
namespace {

struct Row {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t stream = 0;
};

Row Timed(std::uint64_t start, std::uint32_t stream) { return {start, start + 1, stream}; }

TEST(SpillRun, ReadsBackInOrderFromMemoryAndFromTheFile) {
  for (std::size_t count : {std::size_t{0}, std::size_t{5}, SpillRun<Row>::kChunkRows,
                            3 * SpillRun<Row>::kChunkRows + 17}) {
    SpillRun<Row> run;
    for (std::uint64_t i = 0; i < count; ++i) ASSERT_TRUE(run.Append(Timed(i * 3, 0)).ok());
    EXPECT_EQ(run.size(), count);
    ASSERT_TRUE(run.Rewind().ok());
    Row row;
    std::uint64_t read = 0;
    while (run.Next(&row)) {
      ASSERT_EQ(row.start, read * 3) << "count " << count;
      ++read;
    }
    EXPECT_TRUE(run.status().ok());
    EXPECT_EQ(read, count);
  }
}

// Streams as MergeStartOrdered sees them: each in start order, read through a callback.
Status ForEach(const std::vector<std::vector<Row>>& streams, std::size_t index,
               const std::function<bool(const Row&)>& sink) {
  for (const Row& row : streams[index]) {
    if (!sink(row)) break;
  }
  return Status();
}

std::vector<std::vector<Row>> ThreeStreams() {
  std::vector<std::vector<Row>> streams(3);
  streams[0] = {Row{0, 0, 0}, Timed(100, 0), Timed(105, 0), Timed(300, 0)};  // one untimed
  for (std::uint64_t i = 0; i < 5000; ++i) streams[1].push_back(Timed(50 + 2 * i, 1));
  streams[2] = {Row{0, 0, 2}, Timed(40, 2), Timed(100, 2), Timed(20000, 2)};
  return streams;
}

TEST(MergeStartOrdered, EmitsEveryRowOnceInStartOrder) {
  std::vector<std::vector<Row>> streams = ThreeStreams();
  for (std::size_t driver = 0; driver < streams.size(); ++driver) {
    std::vector<Row> out;
    std::vector<std::uint64_t> bases;
    Status status = MergeStartOrdered<Row>(
        streams.size(), driver, /*origin=*/UINT64_MAX,
        [&](std::size_t index, auto&& sink) { return ForEach(streams, index, sink); },
        [&](const Row& row, std::uint64_t earliest) {
          out.push_back(row);
          if (row.end != 0) bases.push_back(earliest);
        });
    ASSERT_TRUE(status.ok()) << status.message();
    ASSERT_EQ(out.size(), 4u + 5000u + 4u) << "driver " << driver;
    // Untimed rows (start 0) first, then ascending starts.
    EXPECT_EQ(out[0].end, 0u);
    EXPECT_EQ(out[1].end, 0u);
    for (std::size_t i = 1; i < out.size(); ++i) {
      ASSERT_LE(out[i - 1].start, out[i].start) << "driver " << driver << " row " << i;
    }
    EXPECT_EQ(out.back().start, 20000u);
    // Every timed row is printed relative to the earliest timed start of all streams.
    for (std::uint64_t base : bases) ASSERT_EQ(base, 40u) << "driver " << driver;
  }
}

// The traces pass the profiling start as the origin: every row is measured from it, not
// from the earliest row, so that the GPU and API traces share one time axis.
TEST(MergeStartOrdered, MeasuresFromTheOriginOrFromAnEarlierRow) {
  std::vector<std::vector<Row>> streams = ThreeStreams();  // earliest timed start: 40
  for (std::uint64_t origin : {std::uint64_t{10}, std::uint64_t{40}, std::uint64_t{45}}) {
    for (std::size_t driver = 0; driver < streams.size(); ++driver) {
      std::vector<std::uint64_t> bases;
      ASSERT_TRUE(MergeStartOrdered<Row>(
                      streams.size(), driver, origin,
                      [&](std::size_t index, auto&& sink) { return ForEach(streams, index, sink); },
                      [&](const Row& row, std::uint64_t base) {
                        if (row.end != 0) bases.push_back(base);
                      })
                      .ok());
      ASSERT_EQ(bases.size(), 3u + 5000u + 3u);
      // A row before the origin (45: clocks are not perfect) moves the base to that row.
      std::uint64_t expected = origin < 40 ? origin : 40;
      for (std::uint64_t base : bases) {
        ASSERT_EQ(base, expected) << "origin " << origin << " driver " << driver;
      }
    }
  }
}

TEST(MergeStartOrdered, TiesPutTheDriverFirstThenSpilledStreamsByIndex) {
  std::vector<std::vector<Row>> streams = {{Timed(10, 0)}, {Timed(10, 1)}, {Timed(10, 2)}};
  std::vector<std::uint32_t> order;
  ASSERT_TRUE(MergeStartOrdered<Row>(
                  streams.size(), 1, UINT64_MAX,
                  [&](std::size_t index, auto&& sink) { return ForEach(streams, index, sink); },
                  [&](const Row& row, std::uint64_t) { order.push_back(row.stream); })
                  .ok());
  // The driver's row goes before spilled rows of the same start; spilled ones by index.
  EXPECT_EQ(order, (std::vector<std::uint32_t>{1, 0, 2}));
}

TEST(MergeStartOrdered, ReaderErrorsComeBack) {
  Status status = MergeStartOrdered<Row>(
      2, 0, UINT64_MAX,
      [&](std::size_t index, auto&&) {
        return index == 1 ? Status::Error("report truncated") : Status();
      },
      [&](const Row&, std::uint64_t) {});
  EXPECT_EQ(status.message(), "report truncated");
}

}  // namespace
}  // namespace gpuscope::analysis
