#include "contract/profile_request.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "contract/environment_variables.h"
#include "environment_of.h"

namespace gpuscope::contract {
namespace {

using testing::EnvironmentOf;
using testing::With;

template <typename T>
T Parsed(StatusOr<T> parsed) {
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return parsed.ok() ? std::move(*parsed) : T{};
}

// A request in which every field differs from its default.
ProfileRequest EveryProfileField() {
  ProfileRequest request;
  request.metrics = {"dram__bytes.sum", "gpu__time_duration.sum"};
  request.filter.name = Parsed(NameMatcher::Parse("regex:^k_"));
  request.filter.name_base = NameBase::kDemangled;
  request.filter.launch_skip = 2;
  request.filter.launch_count = 3;
  // A name with ':' inside regex:, and every field of the id given.
  request.filter.kernel_id = Parsed(ParseKernelId("1:7:regex:a:b:4"));
  request.filter.devices = std::set<std::uint32_t>{0, 2};
  request.replay_mode = model::ReplayMode::kAppRange;
  request.nvtx_include = Parsed(NvtxRangeFilter::Parse({"solver/", "D@step", "regex:a,b"}));
  request.cache_control = CacheControl::kNone;
  request.restore_memory = false;
  request.source_counters = true;
  request.app_pass = 1;
  request.app_passes = 3;
  request.app_dir = "/tmp/gpuscope-replay-x";
  request.config_image_file = "/tmp/gpuscope-config-y";
  request.config_image_chip = "GH100";
  request.config_image_passes = 7;
  return request;
}

void ExpectSameRequest(const ProfileRequest& read, const ProfileRequest& written) {
  EXPECT_EQ(read.metrics, written.metrics);
  EXPECT_EQ(read.filter.name.text(), written.filter.name.text());
  EXPECT_EQ(read.filter.name_base, written.filter.name_base);
  EXPECT_EQ(read.filter.launch_skip, written.filter.launch_skip);
  EXPECT_EQ(read.filter.launch_count, written.filter.launch_count);
  ASSERT_EQ(read.filter.kernel_id.has_value(), written.filter.kernel_id.has_value());
  if (written.filter.kernel_id) {
    EXPECT_EQ(read.filter.kernel_id->context_id, written.filter.kernel_id->context_id);
    EXPECT_EQ(read.filter.kernel_id->stream_id, written.filter.kernel_id->stream_id);
    EXPECT_EQ(read.filter.kernel_id->name.text(), written.filter.kernel_id->name.text());
    EXPECT_EQ(read.filter.kernel_id->invocation, written.filter.kernel_id->invocation);
  }
  EXPECT_EQ(read.filter.devices, written.filter.devices);
  EXPECT_EQ(read.replay_mode, written.replay_mode);
  EXPECT_EQ(read.nvtx_include.texts(), written.nvtx_include.texts());
  EXPECT_EQ(read.cache_control, written.cache_control);
  EXPECT_EQ(read.restore_memory, written.restore_memory);
  EXPECT_EQ(read.source_counters, written.source_counters);
  EXPECT_EQ(read.app_pass, written.app_pass);
  EXPECT_EQ(read.app_passes, written.app_passes);
  EXPECT_EQ(read.app_dir, written.app_dir);
  EXPECT_EQ(read.config_image_file, written.config_image_file);
  EXPECT_EQ(read.config_image_chip, written.config_image_chip);
  EXPECT_EQ(read.config_image_passes, written.config_image_passes);
}

RequestReading<ProfileRequest> RoundTrip(const ProfileRequest& request) {
  return ProfileRequest::FromEnvironment(EnvironmentOf(request.ToEnvironment()));
}

TEST(ProfileRequest, EveryFieldComesBackAsWritten) {
  const ProfileRequest written = EveryProfileField();
  RequestReading<ProfileRequest> read = RoundTrip(written);
  EXPECT_TRUE(read.problems.empty()) << read.problems.front();
  ExpectSameRequest(read.request, written);
  // What the matchers were parsed into works on the reading side too.
  EXPECT_TRUE(read.request.filter.name.Matches("k_saxpy"));
  EXPECT_TRUE(read.request.nvtx_include.Matches(NvtxRangeKind::kPushPop, "", "solver"));
  EXPECT_TRUE(read.request.nvtx_include.Matches(NvtxRangeKind::kStartEnd, "D", "step"));
}

// Each replay mode by its spelling; the run's pass travels only where the program runs once per
// pass.
TEST(ProfileRequest, EveryReplayModeComesBack) {
  for (const Spelling<model::ReplayMode>& mode : kReplayModeSpellings) {
    ProfileRequest written;
    written.metrics = {"sm__cycles_elapsed.max"};
    written.replay_mode = mode.value;
    if (RunsPerPass(mode.value)) {
      written.app_pass = 0;
      written.app_passes = 2;
      written.app_dir = "/tmp/d";
    }
    RequestReading<ProfileRequest> read = RoundTrip(written);
    EXPECT_TRUE(read.problems.empty()) << mode.name;
    ExpectSameRequest(read.request, written);
    EXPECT_EQ(EnvironmentOf(written.ToEnvironment())(kReplayModeVariable), mode.name);
  }
}

// The defaults of a profiling request (no filter, kernel replay, L2 flushed, memory restored).
TEST(ProfileRequest, DefaultsComeBack) {
  ProfileRequest written;
  written.metrics = {"sm__cycles_elapsed.max"};
  RequestReading<ProfileRequest> read = RoundTrip(written);
  EXPECT_TRUE(read.problems.empty());
  ExpectSameRequest(read.request, written);
  EXPECT_FALSE(read.request.filter.kernel_id.has_value());
  EXPECT_FALSE(read.request.filter.devices.has_value());
  EXPECT_TRUE(read.request.nvtx_include.empty());
}

// The launcher resets every profiling variable in each run: all of them, in the contract's
// order, once each, whatever the request.
TEST(ProfileRequest, WritesEveryProfileVariableOnce) {
  for (const ProfileRequest& request : {ProfileRequest{}, EveryProfileField()}) {
    VariableValues values = request.ToEnvironment();
    ASSERT_EQ(values.size(), std::size(kProfileVariables));
    for (std::size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(values[i].first, kProfileVariables[i]);
    }
  }
}

// A request without metrics asks nothing: every variable is empty, so a `gpuscope run` inside a
// profiled program profiles nothing; read back, it is a request that profiles nothing.
TEST(ProfileRequest, NoMetricsMeansEveryVariableEmpty) {
  ProfileRequest nothing = EveryProfileField();
  nothing.metrics.clear();
  for (const auto& [name, value] : nothing.ToEnvironment()) EXPECT_EQ(value, "") << name;
  RequestReading<ProfileRequest> read = RoundTrip(nothing);
  EXPECT_TRUE(read.problems.empty());
  EXPECT_FALSE(read.request.enabled());
  // Without metrics nothing else is read: a stale filter is no problem.
  RequestReading<ProfileRequest> stale = ProfileRequest::FromEnvironment(
      EnvironmentOf({{kProfileMetricsVariable, ""}, {kKernelNameVariable, "regex:("}}));
  EXPECT_TRUE(stale.problems.empty());
  EXPECT_FALSE(stale.request.enabled());
}

// A value the launcher would never write (someone set it by hand) is refused: the request
// profiles nothing, and the one line says which variable and, where it helps, the value.
TEST(ProfileRequest, AMalformedValueIsRefusedNamingTheVariable) {
  struct Case {
    const char* name;
    const char* value;
  };
  const Case cases[] = {
      {kKernelNameVariable, "regex:("},     {kKernelNameBaseVariable, "short"},
      {kLaunchSkipVariable, "-1"},          {kLaunchCountVariable, "many"},
      {kKernelIdVariable, "1:2"},           {kDevicesVariable, "gpu0"},
      {kReplayModeVariable, "range"},       {kNvtxIncludeVariable, "A/B/"},
      {kCacheControlVariable, "some"},      {kReplayNoRestoreVariable, "yes"},
      {kProfileSourceVariable, "2"},        {kReplayPassVariable, "3"},
      {kReplayPassesVariable, "x"},
  };
  const VariableValues good = EveryProfileField().ToEnvironment();
  ASSERT_TRUE(ProfileRequest::FromEnvironment(EnvironmentOf(good)).problems.empty());
  for (const Case& bad : cases) {
    RequestReading<ProfileRequest> read =
        ProfileRequest::FromEnvironment(EnvironmentOf(With(good, bad.name, bad.value)));
    ASSERT_EQ(read.problems.size(), 1u) << bad.name << "=" << bad.value;
    EXPECT_NE(read.problems[0].find(bad.name), std::string::npos) << read.problems[0];
    EXPECT_EQ(read.problems[0].find('\n'), std::string::npos) << read.problems[0];
    EXPECT_FALSE(read.request.enabled()) << bad.name;
  }
  RequestReading<ProfileRequest> mode = ProfileRequest::FromEnvironment(
      EnvironmentOf(With(good, kReplayModeVariable, "range")));
  EXPECT_EQ(mode.problems[0],
            "GPUSCOPE_REPLAY_MODE='range' is not kernel, application or app-range");
}

// Two bad values: two lines, in the contract's order of reading.
TEST(ProfileRequest, EveryMalformedValueHasItsLine) {
  RequestReading<ProfileRequest> read = ProfileRequest::FromEnvironment(
      EnvironmentOf({{kProfileMetricsVariable, "dram__bytes.sum"},
                     {kKernelNameVariable, "regex:(bad"},
                     {kLaunchCountVariable, "many"}}));
  ASSERT_EQ(read.problems.size(), 2u);
  EXPECT_EQ(read.problems[0].rfind("GPUSCOPE_KERNEL_NAME: ", 0), 0u) << read.problems[0];
  EXPECT_EQ(read.problems[1], "GPUSCOPE_LAUNCH_COUNT='many' is not a count");
}

// The config image only saves time: one that is not whole is left out, without a problem.
TEST(ProfileRequest, AnIncompleteConfigImageIsLeftOut) {
  const VariableValues good = EveryProfileField().ToEnvironment();
  for (const auto& [name, value] : {std::pair{kProfilePassesVariable, "seven"},
                                    std::pair{kProfilePassesVariable, ""},
                                    std::pair{kProfileChipVariable, ""}}) {
    RequestReading<ProfileRequest> read =
        ProfileRequest::FromEnvironment(EnvironmentOf(With(good, name, value)));
    EXPECT_TRUE(read.problems.empty()) << name << "=" << value;
    EXPECT_TRUE(read.request.enabled());
    EXPECT_EQ(read.request.config_image_file, "") << name << "=" << value;
  }
}

TEST(ProfileRequest, SpellingsAreOneListEach) {
  for (const Spelling<model::ReplayMode>& mode : kReplayModeSpellings) {
    EXPECT_EQ(ReplayModeName(mode.value), mode.name);
    EXPECT_EQ(ValueSpelled(kReplayModeSpellings, mode.name), mode.value);
  }
  EXPECT_EQ(ValueSpelled(kReplayModeSpellings, "Kernel"), std::nullopt);
  EXPECT_EQ(SpellingList(kReplayModeSpellings), "kernel, application or app-range");
  EXPECT_EQ(SpellingList(kCacheControlSpellings), "all or none");
  EXPECT_FALSE(RunsPerPass(model::ReplayMode::kKernel));
  EXPECT_TRUE(RunsPerPass(model::ReplayMode::kApplication));
  EXPECT_TRUE(RunsPerPass(model::ReplayMode::kAppRange));
}

}  // namespace
}  // namespace gpuscope::contract
