// The pairing of a GPU timestamp with the host clocks read around it (inject/host_clocks.h):
// the midpoint, the uncertainty, and the reads that cannot make a pair.
#include <gtest/gtest.h>

#include <limits>

#include "inject/host_clocks.h"

namespace gpuscope::inject {
namespace {

// Host reads 14,001 ns apart on every clock, as around a clock kernel's launch and poll.
constexpr HostClockRead kBefore{1'764'000'000'000'000'000, 1'764'000'000'000'000'040,
                                3'600'000'000'000};
constexpr HostClockRead kAfter{1'764'000'000'000'014'001, 1'764'000'000'000'014'041,
                               3'600'000'014'001};
constexpr std::int64_t kGpu = 1'764'000'000'000'007'700;

TEST(GpuClockPair, HostClocksAtTheMiddleOfTheWindow) {
  auto pair = GpuClockPair(kBefore, kAfter, 3, kGpu);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->cupti_ns, 1'764'000'000'000'007'000u);
  EXPECT_EQ(pair->realtime_ns, 1'764'000'000'000'007'040);
  EXPECT_EQ(pair->monotonic_ns, 3'600'000'007'000);
  EXPECT_EQ(pair->device_id, 3u);
  EXPECT_EQ(pair->gpu_ns, kGpu);
  // Half of 14,001 rounded up: the GPU read is within +- 7,001 ns of the middle.
  EXPECT_EQ(pair->gpu_uncertainty_ns, 7'001);
  // The GPU clock's offset from CLOCK_REALTIME the readers compute from it.
  EXPECT_EQ(*pair->gpu_ns - pair->realtime_ns, 660);
}

TEST(GpuClockPair, ReadsAtOneInstantHaveNoUncertainty) {
  auto pair = GpuClockPair(kBefore, kBefore, 0, kGpu);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->gpu_uncertainty_ns, 0);
  EXPECT_EQ(pair->realtime_ns, kBefore.realtime_ns);
}

TEST(GpuClockPair, NoOverflowNearTheTopOfTheClock) {
  constexpr std::int64_t kTop = std::numeric_limits<std::int64_t>::max();
  HostClockRead before{static_cast<model::Timestamp>(kTop) - 10, kTop - 10, kTop - 10};
  HostClockRead after{static_cast<model::Timestamp>(kTop), kTop, kTop};
  auto pair = GpuClockPair(before, after, 0, 1);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->realtime_ns, kTop - 5);
  EXPECT_EQ(pair->gpu_uncertainty_ns, 5);
}

// CLOCK_REALTIME stepped back between the reads (NTP, an administrator): the window means
// nothing, so no pair.
TEST(GpuClockPair, ClockGoingBackwardsMakesNoPair) {
  HostClockRead stepped = kAfter;
  stepped.realtime_ns = kBefore.realtime_ns - 1'000'000;
  EXPECT_FALSE(GpuClockPair(kBefore, stepped, 0, kGpu).has_value());
  EXPECT_FALSE(GpuClockPair(kAfter, kBefore, 0, kGpu).has_value()) << "reads swapped";
}

TEST(GpuClockPair, FailedReadsMakeNoPair) {
  HostClockRead failed = kBefore;
  failed.monotonic_ns = 0;  // clock_gettime failed
  EXPECT_FALSE(GpuClockPair(failed, kAfter, 0, kGpu).has_value());
  EXPECT_FALSE(GpuClockPair(kBefore, kAfter, 0, 0).has_value()) << "the slot never written";
}

TEST(HostClocks, ReadNowAreOrderedAndTheSampleIsTheHostsOnly) {
  const HostClockRead first = ReadHostClocks(1);
  const HostClockRead second = ReadHostClocks(2);
  EXPECT_GT(first.realtime_ns, 0);
  EXPECT_GE(second.monotonic_ns, first.monotonic_ns);
  model::ClockSampleRecord host = HostClockSample(5);
  EXPECT_EQ(host.cupti_ns, 5u);
  EXPECT_FALSE(host.device_id.has_value());
  EXPECT_FALSE(host.gpu_ns.has_value());
  EXPECT_FALSE(host.gpu_uncertainty_ns.has_value());
}

}  // namespace
}  // namespace gpuscope::inject
