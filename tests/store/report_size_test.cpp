// Report size on a launch-bound trace: at most 64 bytes per event (issue 2), where each
// kernel is two events, its kernel row and its cudaLaunchKernel row.
#include <gtest/gtest.h>

#include <string>

#include "store/report_reader.h"
#include "store/testing/synthetic_trace.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

TEST(ReportSize, AtMost64BytesPerEventOnALaunchBoundTrace) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  constexpr std::uint64_t kKernels = 100'000;
  testing::SyntheticTraceOptions options;
  options.kernels = kKernels;
  options.flush_every_kernels = 25'000;  // several commits, as while tracing
  ASSERT_TRUE(testing::WriteSyntheticReport(path, options).ok());
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ(reader.value()->CountRows("kernels").value(), kKernels);
  ASSERT_EQ(reader.value()->CountRows("api_calls").value(), kKernels);
  ASSERT_FALSE(test::FileExists(path + "-wal"));
  double bytes_per_event = static_cast<double>(test::FileSize(path)) / (2 * kKernels);
  RecordProperty("bytes_per_event", std::to_string(bytes_per_event));
  EXPECT_LE(bytes_per_event, 64.0);
  // Interned names: the few dozen kernel names are stored once, not per row.
  EXPECT_LE(reader.value()->CountRows("strings").value(), 40u);
}

}  // namespace
}  // namespace gpuscope::store
