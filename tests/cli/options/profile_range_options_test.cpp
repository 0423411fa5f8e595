// `gpuscope profile --replay-mode app-range` and `--nvtx-include`: ncu's spellings are taken,
// the combinations that make no sense are one-line usage errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/options/profile_options.h"
#include "profile_option_parsing.h"

namespace gpuscope::cli {
namespace {

using testing::ErrorOf;
using testing::Parse;

TEST(ProfileRangeOptions, AppRangeWithProfilerRangesAndWithNvtxRanges) {
  StatusOr<ProfileOptions> plain = Parse({"--replay-mode", "app-range", "-c", "1", "--", "./app"});
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->replay_mode, model::ReplayMode::kAppRange);
  EXPECT_TRUE(plain->nvtx_include.empty());
  EXPECT_EQ(plain->filter.launch_count, 1u);

  StatusOr<ProfileOptions> nvtx =
      Parse({"--replay-mode", "app-range", "--nvtx-include", "solver/", "--nvtx-include",
             "MyDomain@step", "-s", "2", "-c", "1", "--", "./app"});
  ASSERT_TRUE(nvtx.ok()) << nvtx.status().message();
  EXPECT_EQ(nvtx->nvtx_include, (std::vector<std::string>{"solver/", "MyDomain@step"}));
  EXPECT_EQ(nvtx->filter.launch_skip, 2u);
}

TEST(ProfileRangeOptions, CombinationsThatMakeNoSenseAreRefused) {
  EXPECT_EQ(ErrorOf({"--nvtx-include", "solver/", "--", "./app"}),
            "option '--nvtx-include' chooses the ranges of --replay-mode app-range");
  EXPECT_EQ(ErrorOf({"--replay-mode", "app-range", "-k", "saxpy", "--", "./app"}),
            "--replay-mode app-range measures ranges, not kernels: -k and --kernel-id do not "
            "apply (-s/-c count ranges)");
  EXPECT_EQ(ErrorOf({"--replay-mode", "app-range", "--kernel-id", "::saxpy:", "--", "./app"}),
            "--replay-mode app-range measures ranges, not kernels: -k and --kernel-id do not "
            "apply (-s/-c count ranges)");
  EXPECT_EQ(ErrorOf({"--replay-mode", "app-range", "--cache-control", "none", "--", "./app"}),
            "option '--cache-control' applies to kernel replay only");
  EXPECT_NE(ErrorOf({"--replay-mode", "app-range", "--replay-no-restore", "--", "./app"}), "");
  EXPECT_EQ(ErrorOf({"--replay-mode", "range", "--", "./app"}),
            "--replay-mode range (the range replayed inside one run) is not supported yet: use "
            "--replay-mode app-range (the program runs once per pass)");
  EXPECT_EQ(ErrorOf({"--replay-mode", "ranges", "--", "./app"}),
            "option '--replay-mode' expects kernel, application, app-range, not 'ranges'");
}

TEST(ProfileRangeOptions, BadNvtxSpecsAreRefusedBeforeTheProgramStarts) {
  EXPECT_NE(ErrorOf({"--replay-mode", "app-range", "--nvtx-include", "A/B/", "--", "./app"})
                .find("nested range forms"),
            std::string::npos);
  EXPECT_NE(ErrorOf({"--replay-mode", "app-range", "--nvtx-include", "@x", "--", "./app"})
                .find("empty domain"),
            std::string::npos);
  EXPECT_NE(ErrorOf({"--replay-mode", "app-range", "--nvtx-include", "regex:(", "--", "./app"})
                .find("not a valid regular expression"),
            std::string::npos);
}

}  // namespace
}  // namespace gpuscope::cli
