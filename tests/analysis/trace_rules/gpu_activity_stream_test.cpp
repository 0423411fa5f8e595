// The merged stream of kernels, copies and memsets: every timed row once, in start order,
// also when the side tables are far longer than the merge's queues.
#include "analysis/trace_rules/gpu_activity_stream.h"

#include <gtest/gtest.h>

#include "../../support/planted_report.h"
#include "store/report_reader.h"

namespace gpuscope::analysis::testing {
namespace {

TEST(GpuActivityStream, MergesTablesInStartOrder) {
  ScratchDir dir;
  std::string path = dir.File("r.sqlite");
  ReportBuilder trace(path, Planted());
  // 20000 of each kind (five times the queue capacity), interleaved: kernel at 3i, copy at
  // 3i+1, memset at 3i+2 (us).
  constexpr int kRows = 20000;
  for (int i = 0; i < kRows; ++i) {
    trace.Kernel(3 * i * kUs + 1, kUs);
    trace.Copy(3 * i * kUs + kUs + 1, kUs);
    trace.Memset(3 * i * kUs + 2 * kUs + 1, kUs, {.is_async = true});
  }
  ASSERT_TRUE(trace.Close().ok());
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<GpuActivity> seen;
  Status streamed = trace_rules::ForEachGpuActivity(
      *reader.value(), [&](const GpuActivity& activity) { seen.push_back(activity); });
  ASSERT_TRUE(streamed.ok()) << streamed.message();
  ASSERT_EQ(seen.size(), 3u * kRows);
  const GpuActivityKind kinds[] = {GpuActivityKind::kKernel, GpuActivityKind::kMemcpy,
                                GpuActivityKind::kMemset};
  for (std::size_t i = 0; i < seen.size(); ++i) {
    ASSERT_EQ(seen[i].kind, kinds[i % 3]) << i;
    ASSERT_EQ(seen[i].start, kT0 + i * kUs + 1) << i;
  }
}

TEST(GpuActivityStream, EqualStartsGiveKernelsThenCopiesThenMemsets) {
  ScratchDir dir;
  std::string path = dir.File("r.sqlite");
  ReportBuilder trace(path, Planted());
  std::uint32_t memset = trace.Memset(kUs, kUs, {.is_async = true});
  std::uint32_t copy = trace.Copy(kUs, kUs);
  std::uint32_t kernel = trace.Kernel(kUs, kUs);
  ASSERT_TRUE(trace.Close().ok());
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::uint32_t> ids;
  ASSERT_TRUE(trace_rules::ForEachGpuActivity(*reader.value(), [&](const GpuActivity& activity) {
                ids.push_back(activity.correlation_id);
              }).ok());
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{kernel, copy, memset}));
}

}  // namespace
}  // namespace gpuscope::analysis::testing
