// The selection policy of `gpuscope profile` as the launch callbacks apply it: the filters
// counted over matching launches, and the pending count that decides when the range profiler
// is disabled.
#include "cupti/profiler/launch_selection.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "util/nccl_kernels.h"

namespace gpuscope::cupti {
namespace {

constexpr const char* kSaxpy = "_Z7k_saxpylfPKfPf";  // k_saxpy(long, float, float const*, float*)
constexpr const char* kPlainC = "add_kernel";

KernelFilterSpec NameSpec(const std::string& name) {
  KernelFilterSpec spec;
  StatusOr<NameMatcher> matcher = NameMatcher::Parse(name);
  EXPECT_TRUE(matcher.ok()) << matcher.status().message();
  spec.name = *matcher;
  return spec;
}

KernelFilterSpec KernelIdSpec(const std::string& kernel_id) {
  KernelFilterSpec spec;
  StatusOr<KernelIdFilter> id = ParseKernelId(kernel_id);
  EXPECT_TRUE(id.ok()) << id.status().message();
  if (id.ok()) spec.kernel_id = *id;
  return spec;
}

LaunchCandidate Launch(const char* name, std::uint32_t device = 0, std::uint32_t stream = 7) {
  LaunchCandidate launch;
  launch.mangled_name = name;
  launch.context_id = 1;
  launch.stream_id = stream;
  launch.device_id = device;
  return launch;
}

TEST(LaunchSelection, SkipAndCountCountOnlyMatchingLaunches) {
  KernelFilterSpec spec = NameSpec("regex:saxpy");
  spec.launch_skip = 1;
  spec.launch_count = 2;
  LaunchSelection selection(spec);
  EXPECT_FALSE(selection.Decide(Launch(kPlainC)).profile);
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy)).profile);  // skipped: first matching launch
  EXPECT_FALSE(selection.Decide(Launch(kPlainC)).profile);
  EXPECT_FALSE(selection.Exhausted());
  LaunchDecision first = selection.Decide(Launch(kSaxpy));
  LaunchDecision second = selection.Decide(Launch(kSaxpy));
  EXPECT_TRUE(first.profile);
  EXPECT_TRUE(second.profile);
  EXPECT_EQ(first.profile_index, 0u);
  EXPECT_EQ(second.profile_index, 1u);
  EXPECT_EQ(second.invocation, 2u);  // the third k_saxpy launch
  EXPECT_TRUE(selection.Exhausted());
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy)).profile);
  EXPECT_EQ(selection.pending(), 2);
}

TEST(LaunchSelection, OnlyTheLastPendingLaunchOfAnExhaustedSelectionLetsTheProfilerGo) {
  KernelFilterSpec spec = NameSpec("");
  spec.launch_count = 2;
  LaunchSelection selection(spec);
  ASSERT_TRUE(selection.Decide(Launch(kSaxpy)).profile);
  EXPECT_FALSE(selection.FinishSelected());  // a second launch can still be selected
  ASSERT_TRUE(selection.Decide(Launch(kSaxpy)).profile);
  EXPECT_FALSE(selection.Decide(Launch(kPlainC)).profile);  // nothing left to select
  EXPECT_TRUE(selection.FinishSelected());
  EXPECT_EQ(selection.pending(), 0);
}

TEST(LaunchSelection, AnotherThreadsPendingLaunchKeepsTheProfiler) {
  KernelFilterSpec spec = NameSpec("");
  spec.launch_count = 2;
  LaunchSelection selection(spec);
  ASSERT_TRUE(selection.Decide(Launch(kSaxpy)).profile);  // being measured
  ASSERT_TRUE(selection.Decide(Launch(kSaxpy)).profile);  // waiting for the lock
  EXPECT_TRUE(selection.Exhausted());
  EXPECT_FALSE(selection.FinishSelected());
  EXPECT_TRUE(selection.FinishSelected());
}

TEST(LaunchSelection, WithoutALaunchCountTheProfilerStays) {
  LaunchSelection selection(NameSpec("k_saxpy"));
  ASSERT_TRUE(selection.Decide(Launch(kSaxpy)).profile);
  EXPECT_FALSE(selection.FinishSelected());
  EXPECT_FALSE(selection.Exhausted());
}

TEST(LaunchSelection, KernelIdCountsInvocationsOfTheNameOnEveryStream) {
  LaunchSelection selection(KernelIdSpec("1:7:k_saxpy:1"));
  EXPECT_TRUE(selection.NeedsStream());
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy, 0, 9)).profile);  // invocation 0, stream 9
  EXPECT_FALSE(selection.Decide(Launch(kPlainC, 0, 7)).profile);
  LaunchDecision on7 = selection.Decide(Launch(kSaxpy, 0, 7));
  EXPECT_TRUE(on7.profile);
  EXPECT_EQ(on7.invocation, 1u);
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy, 0, 7)).profile);  // invocation 2
}

TEST(LaunchSelection, OnlyAKernelIdWithAStreamNeedsTheStream) {
  EXPECT_FALSE(LaunchSelection(KernelIdSpec("::k_saxpy:2")).NeedsStream());
  EXPECT_FALSE(LaunchSelection(NameSpec("k_saxpy")).NeedsStream());
}

TEST(LaunchSelection, DevicesFilterBeforeSkipAndCount) {
  KernelFilterSpec spec = NameSpec("");
  spec.devices = std::set<std::uint32_t>{1};
  spec.launch_skip = 1;
  spec.launch_count = 1;
  LaunchSelection selection(spec);
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy, 0)).profile);
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy, 1)).profile);  // skipped
  EXPECT_FALSE(selection.Decide(Launch(kSaxpy, 0)).profile);
  LaunchDecision chosen = selection.Decide(Launch(kSaxpy, 1));
  EXPECT_TRUE(chosen.profile);
  EXPECT_EQ(chosen.invocation, 3u);
  EXPECT_TRUE(selection.Exhausted());
}

// Threads decide and finish launches concurrently: the profiler may go exactly once, after
// the last selected launch, never while one selected elsewhere is still to be measured.
TEST(LaunchSelection, TheProfilerGoesOnceAfterTheLastSelectedLaunchAcrossThreads) {
  constexpr int kThreads = 8;
  constexpr int kLaunchesPerThread = 200;
  KernelFilterSpec spec = NameSpec("");
  spec.launch_count = 300;
  LaunchSelection selection(spec);
  std::atomic<int> measured{0};
  std::atomic<int> disables{0};
  std::atomic<int> measured_after_disable{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kLaunchesPerThread; ++i) {
        if (!selection.Decide(Launch(kSaxpy)).profile) continue;
        if (disables.load() != 0) measured_after_disable.fetch_add(1);
        measured.fetch_add(1);
        if (selection.FinishSelected()) disables.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(measured.load(), 300);
  EXPECT_EQ(disables.load(), 1);
  EXPECT_EQ(measured_after_disable.load(), 0);
  EXPECT_EQ(selection.pending(), 0);
}

// NCCL's kernels, as CUDA 13's driver names them at launch (mangled) and older NCCL's.
constexpr const char* kAllReduce =
    "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE";
constexpr const char* kOldAllGather = "_Z39ncclKernel_AllGather_RING_LL_Sum_int8_t12ncclWorkElem";

TEST(NcclKernels, EverySpellingOfACollectiveIsNccls) {
  EXPECT_TRUE(IsNcclKernel(kAllReduce));
  EXPECT_TRUE(IsNcclKernel(kOldAllGather));
  EXPECT_TRUE(
      IsNcclKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(IsNcclKernel("void ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"));
  EXPECT_TRUE(IsNcclKernel("ncclDevKernel_Generic"));
  EXPECT_TRUE(IsNcclKernel("void ncclAllReduceRingLLKernel_sum_f32(CollectiveArgs)"));
  EXPECT_EQ(KernelIdentifier(kAllReduce), "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  EXPECT_EQ(KernelIdentifier("void k<int>(int*)"), "k");
  // Names that only mention NCCL, or whose mangling does not start the identifier with it.
  EXPECT_FALSE(IsNcclKernel(kSaxpy));
  EXPECT_FALSE(IsNcclKernel("my_ncclDevKernel_wrapper"));
  EXPECT_FALSE(IsNcclKernel("ncclPrepareBuffers(float*)"));
  EXPECT_FALSE(IsNcclKernel("_ZN4nccl13ncclDevKernel_3runEv"));
  EXPECT_FALSE(IsNcclKernel("_Z99ncclDevKernel_"));  // a length past the end
  EXPECT_FALSE(IsNcclKernel(""));
}

// `profile -k regex:nccl` in kernel replay: the collective is selected (it counts for -c),
// refused with the reason, said once; other kernels are measured as before.
TEST(LaunchSelection, AnNcclCollectiveIsSelectedButNeverReplayedInKernelReplay) {
  KernelFilterSpec spec = NameSpec("regex:nccl|saxpy");
  spec.launch_count = 3;
  LaunchSelection selection(spec, model::ReplayMode::kKernel);
  SelectedLaunch first = selection.Decide(Launch(kAllReduce));
  ASSERT_TRUE(first.profile);
  EXPECT_TRUE(first.say_refusal);
  EXPECT_NE(first.refusal.find("would deadlock"), std::string_view::npos) << first.refusal;
  EXPECT_NE(first.refusal.find("--replay-mode application"), std::string_view::npos);
  EXPECT_NE(first.refusal.find("range replay"), std::string_view::npos);
  EXPECT_EQ(selection.pending(), 1);  // recorded as not measured, then finished like any other
  EXPECT_FALSE(selection.FinishSelected());

  SelectedLaunch saxpy = selection.Decide(Launch(kSaxpy));
  ASSERT_TRUE(saxpy.profile);
  EXPECT_TRUE(saxpy.refusal.empty());
  EXPECT_FALSE(saxpy.say_refusal);
  EXPECT_FALSE(selection.FinishSelected());

  SelectedLaunch second = selection.Decide(Launch(kOldAllGather));
  ASSERT_TRUE(second.profile);
  EXPECT_EQ(second.refusal, first.refusal);
  EXPECT_FALSE(second.say_refusal) << "said once per process";
  EXPECT_TRUE(selection.FinishSelected()) << "-c 3 reached: the profiler can go";
  EXPECT_TRUE(selection.Exhausted());
}

// Application replay runs the whole program again, every rank with it: collectives are
// measured there, and an unselected collective is never refused (nothing to refuse).
TEST(LaunchSelection, ApplicationReplayAndUnselectedCollectivesAreNotRefused) {
  LaunchSelection application(NameSpec("regex:nccl"), model::ReplayMode::kApplication);
  SelectedLaunch measured = application.Decide(Launch(kAllReduce));
  EXPECT_TRUE(measured.profile);
  EXPECT_TRUE(measured.refusal.empty());

  LaunchSelection saxpy_only(NameSpec("regex:saxpy"), model::ReplayMode::kKernel);
  SelectedLaunch unselected = saxpy_only.Decide(Launch(kAllReduce));
  EXPECT_FALSE(unselected.profile);
  EXPECT_TRUE(unselected.refusal.empty());
  EXPECT_FALSE(unselected.say_refusal);
  EXPECT_EQ(ReplayRefusal(kSaxpy, model::ReplayMode::kKernel), "");
}

}  // namespace
}  // namespace gpuscope::cupti
