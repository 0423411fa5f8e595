// Collector::SubmitProfiledKernel: a kernel measured by replay on the program's thread
// reaches the sink on the collector's writer thread with every field and its counter data;
// after Finish() it is counted as lost, never written; submissions from several threads
// all arrive; a commit requested after a submission covers it.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "collector_fixture.h"
#include "inject/profiled_kernel.h"
#include "recording_sink.h"

namespace gpuscope::inject::testing {
namespace {

std::vector<std::uint8_t> Image(std::size_t size, std::uint8_t seed) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<std::uint8_t>(seed + i * 31 + (i >> 8));
  }
  return bytes;
}

OwnedProfiledKernel Profile(std::uint32_t index, std::vector<std::uint8_t> image) {
  OwnedProfiledKernel kernel;
  kernel.record.correlation_id = 1000 + index;
  kernel.record.device_id = 1;
  kernel.record.context_id = 3;
  kernel.record.stream_id = 14;
  kernel.record.invocation = 6 + index;
  kernel.record.profile_index = index;
  kernel.record.start = 1'700'000'000'000'100'000ull + index;
  kernel.record.end = 1'700'000'000'009'100'000ull + index;
  kernel.record.passes = 41;
  kernel.record.replay_mode = model::ReplayMode::kKernel;
  kernel.record.outcome = model::ProfileOutcome::kMeasured;
  kernel.mangled_name = "_Z6vecAddPKfS0_Pfi";
  kernel.chip = "GH100";
  kernel.counter_data = std::move(image);
  return kernel;
}

// Guards the hand-over: OwnedProfiledKernel's storage outlives the submitting call, and
// View() points the record at it, so every field and byte reaches the sink.
TEST(CollectorProfileTest, ASubmittedKernelReachesTheSinkWithEveryField) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  const std::vector<std::uint8_t> image = Image(200 * 1024, 9);
  harness.collector().SubmitProfiledKernel(Profile(0, image));
  OwnedProfiledKernel failed;
  failed.record.correlation_id = 2001;
  failed.record.profile_index = 1;
  failed.record.passes = 3;
  failed.record.replay_mode = model::ReplayMode::kApplication;
  failed.record.outcome = model::ProfileOutcome::kReplayFailed;
  failed.mangled_name = "_Z4tinyv";
  failed.chip = "GH100";
  failed.message = "cuptiRangeProfilerStart failed: CUPTI_ERROR_INVALID_OPERATION";
  harness.collector().SubmitProfiledKernel(std::move(failed));
  harness.Commit();

  auto lock = sink.lock();
  ASSERT_EQ(sink.profiled_kernels.size(), 2u);
  const RecordedProfile& got = sink.profiled_kernels[0];
  EXPECT_EQ(got.record.correlation_id, 1000u);
  EXPECT_EQ(got.record.device_id, 1u);
  EXPECT_EQ(got.record.context_id, 3u);
  EXPECT_EQ(got.record.stream_id, 14u);
  EXPECT_EQ(got.record.invocation, 6u);
  EXPECT_EQ(got.record.profile_index, 0u);
  EXPECT_EQ(got.record.start, 1'700'000'000'000'100'000ull);
  EXPECT_EQ(got.record.end, 1'700'000'000'009'100'000ull);
  EXPECT_EQ(got.record.passes, 41u);
  EXPECT_EQ(got.record.replay_mode, model::ReplayMode::kKernel);
  EXPECT_EQ(got.record.outcome, model::ProfileOutcome::kMeasured);
  EXPECT_EQ(got.name, "_Z6vecAddPKfS0_Pfi");
  EXPECT_EQ(got.chip, "GH100");
  EXPECT_EQ(got.message, "");
  EXPECT_TRUE(got.counter_data == image) << "counter data changed on the way to the sink";

  const RecordedProfile& other = sink.profiled_kernels[1];
  EXPECT_EQ(other.record.correlation_id, 2001u);
  EXPECT_EQ(other.record.replay_mode, model::ReplayMode::kApplication);
  EXPECT_EQ(other.record.outcome, model::ProfileOutcome::kReplayFailed);
  EXPECT_EQ(other.name, "_Z4tinyv");
  EXPECT_EQ(other.message, "cuptiRangeProfilerStart failed: CUPTI_ERROR_INVALID_OPERATION");
  EXPECT_TRUE(other.counter_data.empty());
  EXPECT_EQ(harness.collector().profiled_kernels_lost(), 0u);
}

// Guards the "never dropped silently" rule: after Finish() the writer is gone, so a late
// kernel is counted in profiled_kernels_lost() and never reaches the sink.
TEST(CollectorProfileTest, AKernelSubmittedAfterFinishIsCountedAsLost) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  harness.collector().SubmitProfiledKernel(Profile(0, Image(64, 1)));
  harness.Finish();
  {
    auto lock = sink.lock();
    EXPECT_EQ(sink.profiled_kernels.size(), 1u) << "Finish writes what was submitted before it";
  }
  EXPECT_EQ(harness.collector().profiled_kernels_lost(), 0u);

  harness.collector().SubmitProfiledKernel(Profile(1, Image(64, 2)));
  harness.collector().SubmitProfiledKernel(Profile(2, Image(64, 3)));
  EXPECT_EQ(harness.collector().profiled_kernels_lost(), 2u);
  auto lock = sink.lock();
  EXPECT_EQ(sink.profiled_kernels.size(), 1u);
}

// Guards the locking of the pending list: kernels profiled on several program threads at
// once all arrive, each exactly once and intact.
TEST(CollectorProfileTest, SubmissionsFromSeveralThreadsAllArrive) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  constexpr std::uint32_t kThreads = 8;
  constexpr std::uint32_t kEach = 50;
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&harness, t] {
      for (std::uint32_t i = 0; i < kEach; ++i) {
        const std::uint32_t index = t * kEach + i;
        harness.collector().SubmitProfiledKernel(
            Profile(index, Image(512 + index, static_cast<std::uint8_t>(index))));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  harness.Commit();

  auto lock = sink.lock();
  ASSERT_EQ(sink.profiled_kernels.size(), kThreads * kEach);
  std::set<std::uint32_t> indices;
  for (const RecordedProfile& got : sink.profiled_kernels) {
    const std::uint32_t index = got.record.profile_index;
    indices.insert(index);
    EXPECT_EQ(got.record.correlation_id, 1000 + index);
    EXPECT_TRUE(got.counter_data == Image(512 + index, static_cast<std::uint8_t>(index)))
        << "profile " << index;
  }
  EXPECT_EQ(indices.size(), kThreads * kEach) << "each kernel exactly once";
  EXPECT_EQ(harness.collector().profiled_kernels_lost(), 0u);
}

// A sink that holds the writer thread inside its first OnProfiledKernel until released.
class BlockingSink : public RecordingSink {
 public:
  void OnProfiledKernel(const model::ProfiledKernelRecord& r) override {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!blocked_once_) {
        blocked_once_ = true;
        inside_ = true;
        cv_.notify_all();
        cv_.wait(lock, [&] { return released_; });
      }
    }
    RecordingSink::OnProfiledKernel(r);
  }
  bool WaitUntilInside(std::chrono::seconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return inside_; });
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool blocked_once_ = false;
  bool inside_ = false;
  bool released_ = false;
};

// Guards RequestCommit's promise ("everything completed so far is written and committed")
// for profiles: a kernel submitted while the writer is busy writing an earlier one must be
// in the commit requested after it. (The session relies on this when it flushes on a
// signal: a profile missing from that commit is lost with the process.)
TEST(CollectorProfileTest, ACommitRequestedAfterASubmissionCoversIt) {
  BlockingSink sink;
  CollectorHarness harness(sink);
  harness.collector().SubmitProfiledKernel(Profile(0, Image(128, 1)));
  ASSERT_TRUE(sink.WaitUntilInside(std::chrono::seconds(10)));
  // The writer is inside WritePendingProfiles, past taking the pending list.
  harness.collector().SubmitProfiledKernel(Profile(1, Image(128, 2)));
  const std::uint64_t ticket = harness.collector().RequestCommit();
  sink.Release();
  ASSERT_TRUE(harness.collector().WaitForCommit(ticket, std::chrono::seconds(10)));
  auto lock = sink.lock();
  EXPECT_EQ(sink.profiled_kernels.size(), 2u)
      << "the commit requested after the second submission did not include it";
}

}  // namespace
}  // namespace gpuscope::inject::testing
