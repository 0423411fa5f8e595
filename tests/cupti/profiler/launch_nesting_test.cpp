// A launch seen through its nested launch calls (runtime call -> driver call) on one thread:
// which call decides it, which exit ends its measurement, which correlation id it carries.
#include "cupti/profiler/launch_nesting.h"

#include <gtest/gtest.h>

namespace gpuscope::cupti {
namespace {

TEST(LaunchNesting, TheRuntimeCallDecidesAndItsExitEndsTheMeasurement) {
  LaunchNesting nesting;
  ASSERT_TRUE(nesting.Enter(10));  // cudaLaunchKernel
  nesting.Decide(/*decided=*/true, /*measuring=*/true);
  EXPECT_FALSE(nesting.Enter(11));  // its cuLaunchKernel: already decided
  EXPECT_FALSE(nesting.ExitEndsMeasurement());
  nesting.Exit();
  EXPECT_TRUE(nesting.inside());
  EXPECT_TRUE(nesting.ExitEndsMeasurement());
  nesting.Exit();
  EXPECT_FALSE(nesting.inside());
}

TEST(LaunchNesting, ARuntimeCallThatCannotDecideLeavesItToItsDriverCall) {
  LaunchNesting nesting;
  ASSERT_TRUE(nesting.Enter(10));  // no context yet, or a hidden stream
  nesting.Decide(/*decided=*/false, /*measuring=*/false);
  ASSERT_TRUE(nesting.Enter(11));
  // The kernel's trace record carries the runtime call's correlation id.
  EXPECT_EQ(nesting.RecordCorrelationId(11), 10u);
  nesting.Decide(/*decided=*/true, /*measuring=*/true);
  EXPECT_TRUE(nesting.ExitEndsMeasurement());  // the driver call's exit
  nesting.Exit();
  EXPECT_FALSE(nesting.ExitEndsMeasurement());  // the runtime call's exit
  nesting.Exit();
  EXPECT_FALSE(nesting.inside());
}

TEST(LaunchNesting, ADriverLaunchCarriesItsOwnCorrelationId) {
  LaunchNesting nesting;
  ASSERT_TRUE(nesting.Enter(5));
  EXPECT_EQ(nesting.RecordCorrelationId(5), 5u);
}

TEST(LaunchNesting, EachLaunchIsDecidedAfresh) {
  LaunchNesting nesting;
  ASSERT_TRUE(nesting.Enter(1));
  nesting.Decide(/*decided=*/true, /*measuring=*/false);
  nesting.Exit();
  EXPECT_FALSE(nesting.inside());
  ASSERT_TRUE(nesting.Enter(2));
  EXPECT_EQ(nesting.RecordCorrelationId(2), 2u);
}

TEST(LaunchNesting, AnExitWithoutItsEnterIsNotInsideALaunch) {
  // The profiler was enabled inside a launch call: its exit comes without an enter.
  LaunchNesting nesting;
  EXPECT_FALSE(nesting.inside());
}

}  // namespace
}  // namespace gpuscope::cupti
