#include "inject/config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "environment_map.h"

namespace gpuscope::inject {
namespace {

using testing::From;

TEST(InjectionConfigTest, DefaultsWhenNothingIsSet) {
  InjectionConfig config = ReadInjectionConfig(From({}));
  EXPECT_EQ(config.report_pattern, "gpuscope_%p.sqlite");
  EXPECT_FALSE(config.root_pid.has_value());
  EXPECT_TRUE(config.follow_children);
  EXPECT_FALSE(config.force_overwrite);
  EXPECT_EQ(config.report_permissions, ReportPermissions::kPrivate);
  EXPECT_TRUE(config.profile_from_start);
  EXPECT_EQ(config.flush_ms, 500u);
  EXPECT_EQ(config.manifest_path, "");
  EXPECT_FALSE(config.debug);
  EXPECT_FALSE(config.quiet);
  EXPECT_TRUE(config.warnings.empty());
}

TEST(InjectionConfigTest, ReadsEveryContractVariable) {
  InjectionConfig config = ReadInjectionConfig(From({
      {"GPUSCOPE_REPORT", "/tmp/out/rank%q{RANK}.sqlite"},
      {"GPUSCOPE_ROOT_PID", "4242"},
      {"GPUSCOPE_FOLLOW_CHILDREN", "0"},
      {"GPUSCOPE_FORCE_OVERWRITE", "1"},
      {"GPUSCOPE_REPORT_PERMISSIONS", "umask"},
      {"GPUSCOPE_PROFILE_FROM_START", "0"},
      {"GPUSCOPE_FLUSH_MS", "125"},
      {"GPUSCOPE_MANIFEST", "/tmp/manifest.tsv"},
      {"GPUSCOPE_DEBUG", "1"},
      {"GPUSCOPE_QUIET", "1"},
      {"GPUSCOPE_BACKTRACE", "1"},
  }));
  EXPECT_EQ(config.report_pattern, "/tmp/out/rank%q{RANK}.sqlite");
  ASSERT_TRUE(config.root_pid.has_value());
  EXPECT_EQ(*config.root_pid, 4242u);
  EXPECT_FALSE(config.follow_children);
  EXPECT_TRUE(config.force_overwrite);
  EXPECT_EQ(config.report_permissions, ReportPermissions::kUmask);
  EXPECT_FALSE(config.profile_from_start);
  EXPECT_EQ(config.flush_ms, 125u);
  EXPECT_EQ(config.manifest_path, "/tmp/manifest.tsv");
  EXPECT_TRUE(config.debug);
  EXPECT_TRUE(config.quiet);
  EXPECT_TRUE(config.backtrace);
  EXPECT_TRUE(config.warnings.empty());
}

TEST(InjectionConfigTest, ReadsTheTraceScope) {
  InjectionConfig defaults = ReadInjectionConfig(From({}));
  EXPECT_EQ(TraceListName(defaults.trace), "cuda,nvtx");
  EXPECT_EQ(defaults.trace.api_capture, kDefaultApiCapture);
  EXPECT_EQ(defaults.trace.cuda_graph_trace, CudaGraphTrace::kNode);

  InjectionConfig config = ReadInjectionConfig(From({{"GPUSCOPE_TRACE", "cuda"},
                                                     {"GPUSCOPE_API_CAPTURE", "callback"},
                                                     {"GPUSCOPE_CUDA_GRAPH_TRACE", "graph"}}));
  EXPECT_TRUE(config.warnings.empty());
  EXPECT_EQ(TraceListName(config.trace), "cuda");
  EXPECT_EQ(config.trace.api_capture, ApiCapture::kCallback);
  EXPECT_EQ(config.trace.cuda_graph_trace, CudaGraphTrace::kGraph);

  InjectionConfig bad = ReadInjectionConfig(
      From({{"GPUSCOPE_TRACE", "osrt"}, {"GPUSCOPE_API_CAPTURE", "x"}}));
  EXPECT_EQ(TraceListName(bad.trace), "cuda,nvtx");
  EXPECT_EQ(bad.trace.api_capture, kDefaultApiCapture);
  ASSERT_EQ(bad.warnings.size(), 2u);
  EXPECT_EQ(bad.warnings[0],
            "GPUSCOPE_TRACE: --trace: unknown name 'osrt' (valid: cuda, cuda-gpu, nvtx, none); "
            "using the default");
}

TEST(InjectionConfigTest, BadValuesWarnAndKeepDefaults) {
  InjectionConfig config = ReadInjectionConfig(From({
      {"GPUSCOPE_ROOT_PID", "12ab"},
      {"GPUSCOPE_FOLLOW_CHILDREN", "maybe"},
      {"GPUSCOPE_FLUSH_MS", "0"},
  }));
  EXPECT_FALSE(config.root_pid.has_value());
  EXPECT_TRUE(config.follow_children);
  EXPECT_EQ(config.flush_ms, 500u);
  ASSERT_EQ(config.warnings.size(), 3u);
  EXPECT_NE(config.warnings[0].find("GPUSCOPE_ROOT_PID='12ab'"), std::string::npos);
  EXPECT_NE(config.warnings[1].find("GPUSCOPE_FOLLOW_CHILDREN='maybe' is not 1 or 0"),
            std::string::npos);
  EXPECT_NE(config.warnings[2].find("GPUSCOPE_FLUSH_MS='0'"), std::string::npos);
  for (const std::string& warning : config.warnings) {
    EXPECT_EQ(warning.find('\n'), std::string::npos) << "one line each: " << warning;
  }
}

// A report must never end up more readable than asked because of a typo: an unknown value
// keeps the private default.
TEST(InjectionConfigTest, UnknownReportPermissionsWarnAndStayPrivate) {
  InjectionConfig config = ReadInjectionConfig(From({{"GPUSCOPE_REPORT_PERMISSIONS", "world"}}));
  EXPECT_EQ(config.report_permissions, ReportPermissions::kPrivate);
  ASSERT_EQ(config.warnings.size(), 1u);
  EXPECT_EQ(config.warnings[0],
            "GPUSCOPE_REPORT_PERMISSIONS='world' is not private or umask; using private");
}

TEST(InjectionConfigTest, FlushPeriodRejectsGarbageAndHugeValues) {
  EXPECT_EQ(ReadInjectionConfig(From({{"GPUSCOPE_FLUSH_MS", "-5"}})).flush_ms, 500u);
  EXPECT_EQ(ReadInjectionConfig(From({{"GPUSCOPE_FLUSH_MS", "99999999999"}})).flush_ms, 500u);
  EXPECT_EQ(ReadInjectionConfig(From({{"GPUSCOPE_FLUSH_MS", "10 "}})).flush_ms, 500u);
  EXPECT_EQ(ReadInjectionConfig(From({{"GPUSCOPE_FLUSH_MS", "3600000"}})).flush_ms, 3600000u);
}

TEST(InjectionConfigTest, BooleansAcceptCommonSpellings) {
  EXPECT_FALSE(ReadInjectionConfig(From({{"GPUSCOPE_FOLLOW_CHILDREN", "off"}})).follow_children);
  EXPECT_FALSE(ReadInjectionConfig(From({{"GPUSCOPE_FOLLOW_CHILDREN", "FALSE"}})).follow_children);
  EXPECT_TRUE(ReadInjectionConfig(From({{"GPUSCOPE_FORCE_OVERWRITE", "yes"}})).force_overwrite);
  // Empty means unset.
  EXPECT_TRUE(ReadInjectionConfig(From({{"GPUSCOPE_FOLLOW_CHILDREN", ""}})).follow_children);
}

TEST(InjectionConfigTest, EmptyReportPatternFallsBackToDefault) {
  EXPECT_EQ(ReadInjectionConfig(From({{"GPUSCOPE_REPORT", ""}})).report_pattern,
            "gpuscope_%p.sqlite");
}

TEST(InjectionConfigTest, RootAndChildren) {
  InjectionConfig config;
  EXPECT_TRUE(IsRootProcess(config, 77)) << "no GPUSCOPE_ROOT_PID: every process is a root";
  config.root_pid = 100;
  EXPECT_TRUE(IsRootProcess(config, 100));
  EXPECT_FALSE(IsRootProcess(config, 101));
  EXPECT_TRUE(ShouldTrace(config, 101));
  config.follow_children = false;
  EXPECT_TRUE(ShouldTrace(config, 100));
  EXPECT_FALSE(ShouldTrace(config, 101));
}

TEST(InjectionConfigTest, ProfileRequestComesFromTheProfileVariables) {
  InjectionConfig config = ReadInjectionConfig(From({
      {"GPUSCOPE_PROFILE_METRICS", "dram__bytes.sum,gpu__time_duration.sum"},
      {"GPUSCOPE_KERNEL_NAME", "regex:^k_"},
      {"GPUSCOPE_KERNEL_NAME_BASE", "demangled"},
      {"GPUSCOPE_LAUNCH_SKIP", "2"},
      {"GPUSCOPE_LAUNCH_COUNT", "3"},
      {"GPUSCOPE_KERNEL_ID", "::k_saxpy:1"},
      {"GPUSCOPE_DEVICES", "0,2"},
      {"GPUSCOPE_REPLAY_MODE", "kernel"},
  }));
  EXPECT_TRUE(config.warnings.empty());
  ASSERT_TRUE(config.profile.enabled());
  EXPECT_EQ(config.profile.metrics,
            (std::vector<std::string>{"dram__bytes.sum", "gpu__time_duration.sum"}));
  EXPECT_TRUE(config.profile.filter.name.Matches("k_saxpy"));
  EXPECT_EQ(config.profile.filter.name_base, NameBase::kDemangled);
  EXPECT_EQ(config.profile.filter.launch_skip, 2u);
  EXPECT_EQ(config.profile.filter.launch_count, 3u);
  ASSERT_TRUE(config.profile.filter.kernel_id.has_value());
  EXPECT_EQ(config.profile.filter.kernel_id->invocation, 1u);
  EXPECT_EQ(config.profile.filter.devices, (std::set<std::uint32_t>{0, 2}));
}

// Kernel replay flushes L2 before each pass unless the launcher says none; like every other
// profile variable, a value that is neither profiles nothing and is named.
TEST(InjectionConfigTest, CacheControlDefaultsToFlushing) {
  auto with = [](std::map<std::string, std::string> extra) {
    extra["GPUSCOPE_PROFILE_METRICS"] = "dram__bytes.sum";
    return ReadInjectionConfig(From(extra));
  };
  using contract::CacheControl;
  EXPECT_EQ(with({}).profile.cache_control, CacheControl::kAll);
  EXPECT_EQ(with({{"GPUSCOPE_CACHE_CONTROL", "none"}}).profile.cache_control, CacheControl::kNone);
  EXPECT_EQ(with({{"GPUSCOPE_CACHE_CONTROL", "all"}}).profile.cache_control, CacheControl::kAll);
  InjectionConfig odd = with({{"GPUSCOPE_CACHE_CONTROL", "some"}});
  EXPECT_FALSE(odd.profile.enabled());
  ASSERT_EQ(odd.warnings.size(), 1u);
  EXPECT_NE(odd.warnings[0].find("GPUSCOPE_CACHE_CONTROL='some'"), std::string::npos);
  EXPECT_NE(odd.warnings[0].find("no kernel is profiled"), std::string::npos);
}

// Memory is saved and restored around kernel replay unless the launcher passes the user's
// --replay-no-restore; anything but 0 or 1 profiles nothing and is named.
TEST(InjectionConfigTest, ReplayRestoresMemoryUnlessTold) {
  auto with = [](std::map<std::string, std::string> extra) {
    extra["GPUSCOPE_PROFILE_METRICS"] = "dram__bytes.sum";
    return ReadInjectionConfig(From(extra));
  };
  EXPECT_TRUE(with({}).profile.restore_memory);
  EXPECT_TRUE(with({{"GPUSCOPE_REPLAY_NO_RESTORE", "0"}}).profile.restore_memory);
  EXPECT_FALSE(with({{"GPUSCOPE_REPLAY_NO_RESTORE", "1"}}).profile.restore_memory);
  InjectionConfig odd = with({{"GPUSCOPE_REPLAY_NO_RESTORE", "yes"}});
  EXPECT_FALSE(odd.profile.enabled());
  ASSERT_EQ(odd.warnings.size(), 1u);
  EXPECT_NE(odd.warnings[0].find("GPUSCOPE_REPLAY_NO_RESTORE must be 0 or 1"), std::string::npos);
}

// --replay-mode app-range: the run's pass as for application replay, and the --nvtx-include
// specs one per line; a bad spec profiles nothing and is named.
TEST(InjectionConfigTest, AppRangeReadsItsPassAndNvtxSpecs) {
  auto with = [](std::map<std::string, std::string> extra) {
    extra["GPUSCOPE_PROFILE_METRICS"] = "dram__bytes.sum";
    extra["GPUSCOPE_REPLAY_MODE"] = "app-range";
    extra["GPUSCOPE_REPLAY_PASS"] = "1";
    extra["GPUSCOPE_REPLAY_PASSES"] = "3";
    extra["GPUSCOPE_REPLAY_DIR"] = "/tmp/replay";
    return ReadInjectionConfig(From(extra));
  };
  InjectionConfig plain = with({});
  EXPECT_TRUE(plain.warnings.empty());
  EXPECT_EQ(plain.profile.replay_mode, model::ReplayMode::kAppRange);
  EXPECT_EQ(plain.profile.app_pass, 1u);
  EXPECT_EQ(plain.profile.app_passes, 3u);
  EXPECT_TRUE(plain.profile.nvtx_include.empty());
  InjectionConfig nvtx = with({{"GPUSCOPE_NVTX_INCLUDE", "solver/\nD@step"}});
  EXPECT_TRUE(nvtx.warnings.empty());
  EXPECT_TRUE(nvtx.profile.nvtx_include.Matches(NvtxRangeKind::kPushPop, "", "solver"));
  EXPECT_TRUE(nvtx.profile.nvtx_include.Matches(NvtxRangeKind::kStartEnd, "D", "step"));
  InjectionConfig bad = with({{"GPUSCOPE_NVTX_INCLUDE", "A/B/"}});
  EXPECT_FALSE(bad.profile.enabled());
  ASSERT_FALSE(bad.warnings.empty());
  EXPECT_NE(bad.warnings[0].find("no kernel is profiled"), std::string::npos);
}

TEST(InjectionConfigTest, EmptyMetricsMeanTracingOnly) {
  InjectionConfig config = ReadInjectionConfig(
      From({{"GPUSCOPE_PROFILE_METRICS", ""}, {"GPUSCOPE_KERNEL_NAME", "k_saxpy"}}));
  EXPECT_FALSE(config.profile.enabled());
  EXPECT_TRUE(config.warnings.empty());
}

TEST(InjectionConfigTest, ABadFilterProfilesNothingAndSaysWhy) {
  InjectionConfig config =
      ReadInjectionConfig(From({{"GPUSCOPE_PROFILE_METRICS", "dram__bytes.sum"},
                                {"GPUSCOPE_KERNEL_NAME", "regex:(bad"},
                                {"GPUSCOPE_LAUNCH_COUNT", "many"}}));
  EXPECT_FALSE(config.profile.enabled());
  ASSERT_EQ(config.warnings.size(), 2u);
  EXPECT_NE(config.warnings[0].find("no kernel is profiled"), std::string::npos);
  EXPECT_NE(config.warnings[1].find("GPUSCOPE_LAUNCH_COUNT='many'"), std::string::npos);
}

TEST(InjectionConfigTest, GpuMetricsComeFromTheirVariables) {
  InjectionConfig none = ReadInjectionConfig(From({}));
  EXPECT_FALSE(none.gpu_metrics.enabled());
  InjectionConfig config = ReadInjectionConfig(
      From({{"GPUSCOPE_GPU_METRICS_SET", "compute"}, {"GPUSCOPE_GPU_METRICS_FREQUENCY", "500"}}));
  EXPECT_TRUE(config.gpu_metrics.enabled());
  EXPECT_EQ(config.gpu_metrics.set_name, "compute");
  EXPECT_EQ(config.gpu_metrics.frequency_hz, 500u);
  EXPECT_TRUE(config.warnings.empty());
}

TEST(InjectionConfigTest, BadGpuMetricsValuesWarn) {
  InjectionConfig unknown = ReadInjectionConfig(From({{"GPUSCOPE_GPU_METRICS_SET", "nope"}}));
  EXPECT_FALSE(unknown.gpu_metrics.enabled());
  ASSERT_EQ(unknown.warnings.size(), 1u);
  InjectionConfig rate = ReadInjectionConfig(
      From({{"GPUSCOPE_GPU_METRICS_SET", "default"}, {"GPUSCOPE_GPU_METRICS_FREQUENCY", "9"}}));
  EXPECT_EQ(rate.gpu_metrics.frequency_hz, 10'000u);
  ASSERT_EQ(rate.warnings.size(), 1u);
  EXPECT_NE(rate.warnings[0].find("using 10000"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::inject
