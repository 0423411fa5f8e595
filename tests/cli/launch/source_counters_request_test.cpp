// Whether a profile asks the injection for source counters (GPUSCOPE_PROFILE_SOURCE): only
// when SourceCounters is among the sections, --import-source is not "no", and the replay is
// per kernel (application replay reruns the program per counter pass; the source passes replay
// the launch inside one run). Planned for the GH100 with no GPU (--chip).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "cli/launch/profile_request.h"
#include "cli/options/profile_options.h"
#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

// The plan caches chips and config images: here in the build tree, not the user's home.
class SourceCountersRequest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv(contract::kCacheDirVariable, GPUSCOPE_BINARY_DIR "/test-cache", /*overwrite=*/1);
  }
  void TearDown() override { unsetenv(contract::kCacheDirVariable); }
};

bool AsksForSource(std::vector<std::string> args) {
  args.insert(args.begin(), {"--chip", "GH100"});
  args.insert(args.end(), {"--", "./app"});
  StatusOr<ProfileOptions> options = ParseProfileOptions(args);
  EXPECT_TRUE(options.ok()) << options.status().message();
  if (!options.ok()) return false;
  StatusOr<ProfileRequestPlan> plan = PlanProfile(*options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() && plan->source_counters;
}

TEST_F(SourceCountersRequest, OnlySourceCountersWithKernelReplayAndImportSource) {
  EXPECT_TRUE(AsksForSource({"--section", "SourceCounters"}));
  EXPECT_TRUE(AsksForSource({"--section", "SourceCounters", "--import-source", "yes"}));
  EXPECT_FALSE(AsksForSource({"--section", "SourceCounters", "--import-source", "no"}));
  EXPECT_FALSE(AsksForSource({"--section", "SpeedOfLight"}));
  EXPECT_FALSE(AsksForSource({"--metrics", "smsp__inst_executed.sum"}));
  EXPECT_FALSE(AsksForSource({"--section", "SourceCounters", "--replay-mode", "application"}));
}

TEST_F(SourceCountersRequest, ImportSourceTakesYesOrNo) {
  StatusOr<ProfileOptions> bad =
      ParseProfileOptions(std::vector<std::string>{"--import-source", "maybe", "--", "./app"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("maybe"), std::string::npos) << bad.status().message();
  StatusOr<ProfileOptions> fallback = ParseProfileOptions(std::vector<std::string>{"./app"});
  ASSERT_TRUE(fallback.ok());
  EXPECT_TRUE(fallback->import_source) << "ncu's --import-source is off by default; ours is on, "
                                          "since the source passes cost little";
}

}  // namespace
}  // namespace gpuscope::cli
