// Each planted pattern fires exactly its rule, with the right numbers and cited rows; a clean
// trace fires none.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../../support/planted_report.h"

namespace gpuscope::analysis::testing {
namespace {

using Ids = std::vector<std::string>;

class TraceRules : public ::testing::Test {
 protected:
  ScratchDir dir_;  // before path_, which is made from it
  std::string path_ = dir_.File("r.sqlite");
};

TEST_F(TraceRules, CleanTraceHasNoFindings) {
  ReportBuilder trace(path_, Planted());
  // Pinned async copies on two streams overlapping long kernels, back to back; one
  // allocation and one free.
  std::uint32_t alloc = trace.NextCorrelation();
  trace.Api("cudaMalloc", 0, 100 * kUs, alloc);
  trace.Memory(model::MemoryOp::kAlloc, 50 * kUs, 0x1000, 1 << 20, alloc);
  for (int i = 0; i < 10; ++i) {
    std::uint64_t t = 200 * kUs + i * kMs;
    trace.Kernel(t, kMs, {.stream = 7});
    trace.Copy(t + 100 * kUs, 500 * kUs, CopySpec{.stream = 8});
  }
  std::uint32_t free = trace.NextCorrelation();
  trace.Api("cudaFree", 10'300 * kUs, 50 * kUs, free);
  trace.Memory(model::MemoryOp::kFree, 10'320 * kUs, 0x1000, 1 << 20, free);
  ASSERT_TRUE(trace.Close().ok());
  EXPECT_TRUE(FindingsOf(path_).empty()) << RuleIds(FindingsOf(path_)).front();
}

TEST_F(TraceRules, PageableCopiesAreCitedLongestFirst) {
  ReportBuilder trace(path_, Planted());
  std::vector<std::uint32_t> ids;
  std::uint64_t t = 0;
  for (int i = 0; i < 8; ++i) {  // 1.0, 1.1, ... 1.7 ms, back to back
    std::uint64_t duration = kMs + i * 100 * kUs;
    ids.push_back(trace.Copy(t, duration, CopySpec{.host = model::MemoryKind::kPageable}));
    t += duration;
  }
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"pageable_copies"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.occurrences, 8u);
  EXPECT_EQ(finding.time_ns, 10'800 * kUs);
  EXPECT_EQ(finding.est_gain_ns, 5'400 * kUs);
  EXPECT_EQ(finding.severity, Severity::kOpt);
  ASSERT_EQ(finding.cited.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(finding.cited[i].table, "memcpys");
    EXPECT_EQ(finding.cited[i].id, ids[7 - i]);
    EXPECT_EQ(finding.cited[i].duration_ns, kMs + (7 - i) * 100 * kUs);
  }
  EXPECT_EQ(finding.cited[0].start, kT0 + 7 * kMs + 2'100 * kUs);
  EXPECT_NE(finding.message.find("8 copies (8.0000MB)"), std::string::npos) << finding.message;
  EXPECT_NE(finding.message.find("100.0% of the run"), std::string::npos) << finding.message;
}

TEST_F(TraceRules, SynchronousCopiesAndMemsets) {
  ReportBuilder trace(path_, Planted());
  std::uint32_t first = trace.Copy(0, 2 * kMs, CopySpec{.is_async = false});
  std::uint32_t second =
      trace.Copy(2 * kMs, 3 * kMs, CopySpec{.kind = model::CopyKind::kDtoH, .is_async = false});
  std::uint32_t memset = trace.Memset(5 * kMs, kMs, {.is_async = false});
  // Not synchronous transfers: an async copy and a device-to-device cudaMemcpy.
  trace.Copy(6 * kMs, kMs, CopySpec{});
  trace.Copy(7 * kMs, kMs, CopySpec{.kind = model::CopyKind::kDtoD, .is_async = false});
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"synchronous_transfers"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.occurrences, 3u);
  EXPECT_EQ(finding.time_ns, 6 * kMs);
  EXPECT_EQ(finding.est_gain_ns, 6 * kMs);
  ASSERT_EQ(finding.cited.size(), 3u);
  EXPECT_EQ(finding.cited[0].id, second);
  EXPECT_EQ(finding.cited[1].id, first);
  EXPECT_EQ(finding.cited[2].id, memset);
  EXPECT_EQ(finding.cited[2].table, "memsets");
  EXPECT_NE(finding.message.find("2 synchronous copies and 1 synchronous memset took 6.0000ms, "
                                 "75.0% of the run"),
            std::string::npos)
      << finding.message;
}

TEST_F(TraceRules, IdleGapBetweenKernels) {
  ReportBuilder trace(path_, Planted());
  trace.Kernel(0, kMs);
  std::uint32_t after_gap = trace.Kernel(6 * kMs, kMs);           // 5 ms idle before it
  trace.Kernel(7 * kMs + 20 * kUs, kMs);                          // 20 us: launch latency
  trace.Memset(8 * kMs + 20 * kUs, 2 * kMs, {.is_async = true});  // fills what would be a gap
  trace.Kernel(10 * kMs + 30 * kUs, kMs);
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"idle_gaps"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.occurrences, 1u);
  EXPECT_EQ(finding.time_ns, 5 * kMs);
  ASSERT_EQ(finding.cited.size(), 1u);
  EXPECT_EQ(finding.cited[0].id, after_gap);
  EXPECT_EQ(finding.cited[0].table, "kernels");
  EXPECT_NE(finding.cited[0].note.find("starts after 5.0000ms"), std::string::npos)
      << finding.cited[0].note;
}

// Kernel replay stretches the timeline of a `gpuscope profile` report: its gaps are not the
// program's. Rules that need no timing between activities still run.
TEST_F(TraceRules, ReplayedReportGetsNoTimelineFindings) {
  ReportBuilder trace(path_, Planted());
  std::uint32_t replayed = trace.Kernel(0, kMs);
  trace.ProfiledLaunch(replayed, 0, 5 * kMs);
  trace.Kernel(6 * kMs, kMs);  // 5 ms idle before it
  trace.Copy(7 * kMs, 2 * kMs, CopySpec{.host = model::MemoryKind::kPageable});
  ASSERT_TRUE(trace.Close().ok());
  EXPECT_EQ(RuleIds(FindingsOf(path_)), Ids{"pageable_copies"});
}

TEST_F(TraceRules, ThousandTinyKernelsAreLaunchBound) {
  ReportBuilder trace(path_, Planted());
  std::uint32_t first = 0;
  for (int i = 0; i < 1000; ++i) {  // 2 us kernels, 3 us apart
    std::uint32_t id = trace.Kernel(i * 5 * kUs, 2 * kUs);
    if (i == 0) first = id;
  }
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"launch_bound_kernels"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.occurrences, 1u);
  EXPECT_EQ(finding.time_ns, 4'997 * kUs);      // first start to last end
  EXPECT_EQ(finding.est_gain_ns, 2'997 * kUs);  // 999 gaps of 3 us
  ASSERT_EQ(finding.cited.size(), 1u);
  EXPECT_EQ(finding.cited[0].id, first);
  EXPECT_NE(finding.cited[0].note.find("first of 1000 tiny kernels"), std::string::npos);
}

TEST_F(TraceRules, FewTinyKernelsAreNotAStretch) {
  ReportBuilder trace(path_, Planted());
  for (int i = 0; i < 19; ++i) trace.Kernel(i * 5 * kUs, 2 * kUs);
  ASSERT_TRUE(trace.Close().ok());
  EXPECT_TRUE(FindingsOf(path_).empty());
}

TEST_F(TraceRules, SerialisedCopiesAndKernelsOnOneStream) {
  ReportBuilder trace(path_, Planted());
  std::uint64_t t = 0;
  for (int i = 0; i < 10; ++i) {
    trace.Copy(t, kMs, CopySpec{.kind = model::CopyKind::kHtoD});
    trace.Kernel(t + kMs, kMs);
    trace.Copy(t + 2 * kMs, kMs, CopySpec{.kind = model::CopyKind::kDtoH});
    t += 3 * kMs;
  }
  trace.Kernel(t, kMs, {.stream = 9});  // another stream, used once: still nothing overlapped
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"serialized_transfers"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.occurrences, 20u);
  EXPECT_EQ(finding.time_ns, 20 * kMs);
  EXPECT_EQ(finding.est_gain_ns, 11 * kMs);  // the shorter: kernel time
  EXPECT_EQ(finding.cited.size(), 5u);
  EXPECT_EQ(finding.cited[0].table, "memcpys");
  EXPECT_NE(finding.message.find("20 host-device copies (20.000ms) and 11 kernels (11.000ms) on "
                                 "2 streams"),
            std::string::npos)
      << finding.message;
}

TEST_F(TraceRules, AllocationAndFreeInALoop) {
  ReportBuilder trace(path_, Planted());
  std::vector<std::uint32_t> frees;
  for (int i = 0; i < 50; ++i) {
    std::uint64_t t = i * kMs;
    std::uint32_t alloc = trace.NextCorrelation();
    trace.Api("cudaMalloc", t, 100 * kUs, alloc);
    trace.Memory(model::MemoryOp::kAlloc, t + 50 * kUs, 0x7000, 4 << 20, alloc);
    std::uint32_t free = trace.NextCorrelation();
    frees.push_back(free);
    // The 10th free waits longest (it synchronises with the device).
    trace.Api("cudaFree", t + 500 * kUs, i == 10 ? 400 * kUs : 200 * kUs, free);
    trace.Memory(model::MemoryOp::kFree, t + 550 * kUs, 0x7000, 4 << 20, free);
  }
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"allocation_in_loop"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.occurrences, 49u);
  // 49 reallocations: allocations 2..50 (100 us) and frees 1..49 (200 us, one 400 us).
  EXPECT_EQ(finding.time_ns, 49 * 100 * kUs + 49 * 200 * kUs + 200 * kUs);
  ASSERT_EQ(finding.cited.size(), 5u);
  EXPECT_EQ(finding.cited[0].table, "api_calls");
  EXPECT_EQ(finding.cited[0].id, frees[10]);
  EXPECT_EQ(finding.cited[0].duration_ns, 400 * kUs);
  EXPECT_NE(finding.message.find("(4.0000MB)"), std::string::npos) << finding.message;
}

TEST_F(TraceRules, PatternUnderOnePercentOfTheRunIsNotReported) {
  ReportBuilder trace(path_, Planted());
  // reference 002's `add`: one 4-byte synchronous copy to pageable memory in a 171 ms run.
  trace.Api("cudaMalloc", 0, 165 * kMs, trace.NextCorrelation());
  trace.Kernel(170 * kMs, 3 * kUs);
  trace.Copy(170'100 * kUs, 3 * kUs,
             CopySpec{.kind = model::CopyKind::kDtoH,
                      .host = model::MemoryKind::kPageable,
                      .is_async = false,
                      .bytes = 4});
  trace.Api("cudaFree", 171 * kMs, 80 * kUs, trace.NextCorrelation());
  ASSERT_TRUE(trace.Close().ok());
  EXPECT_TRUE(FindingsOf(path_).empty());
}

TEST_F(TraceRules, EmptyReportHasNoFindings) {
  ReportBuilder trace(path_, Planted());
  ASSERT_TRUE(trace.Close().ok());
  EXPECT_TRUE(FindingsOf(path_).empty());
}

// `gpuscope profile` replays each profiled launch for seconds: the program's own time is the
// run without the replay. The recorded H200 profile spends 5.8 s of its 6.7 s replaying; its
// 18 ms, 268 MB pageable copy is 0.3% of the whole run but 2.7% of the program's time.
TEST(TraceRulesOnRecordedProfile, ReplayTimeIsNotTheProgramsTime) {
  const std::string recorded =
      std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_metrics_full.sqlite";
  std::vector<Finding> findings = FindingsOf(recorded);
  Ids ids = RuleIds(findings);
  ASSERT_NE(std::find(ids.begin(), ids.end(), "pageable_copies"), ids.end())
      << ids.size() << " findings";
  const Finding& pageable =
      findings[std::find(ids.begin(), ids.end(), "pageable_copies") - ids.begin()];
  ASSERT_FALSE(pageable.cited.empty());
  // The longest copy is cited first: the 256 MiB (268 MB) device-to-host copy of about 18 ms.
  EXPECT_EQ(pageable.cited.front().table, "memcpys");
  EXPECT_GT(pageable.cited.front().duration_ns, 17'000'000u);
  EXPECT_NE(pageable.cited.front().note.find("256.00MB"), std::string::npos)
      << pageable.cited.front().note;
  // Gaps and overlaps stay silent on a replayed timeline.
  EXPECT_EQ(std::find(ids.begin(), ids.end(), "idle_gaps"), ids.end());
}

}  // namespace
}  // namespace gpuscope::analysis::testing
