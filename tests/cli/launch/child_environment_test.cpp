#include "cli/launch/child_environment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

ChildEnvironmentSettings Settings() {
  ChildEnvironmentSettings settings;
  settings.injection_library = "/opt/gpuscope/lib/libgpuscope_inject.so";
  settings.cupti_dir = "/usr/local/cuda/lib64";
  settings.tracing.report_pattern = "/work/run_%p.sqlite";
  settings.tracing.manifest_path = "/tmp/gpuscope-manifest-abc";
  return settings;
}

// name -> value; a name present twice fails the test (the program would see only one).
std::map<std::string, std::string> AsMap(const std::vector<std::string>& environment) {
  std::map<std::string, std::string> map;
  for (const std::string& entry : environment) {
    std::size_t equals = entry.find('=');
    std::string name = entry.substr(0, equals);
    EXPECT_EQ(map.count(name), 0u) << name << " appears twice";
    map[name] = entry.substr(equals + 1);
  }
  return map;
}

TEST(ChildEnvironment, SetsEveryContractVariable) {
  auto env = AsMap(BuildChildEnvironment({"HOME=/root", "PATH=/usr/bin"}, Settings()));
  EXPECT_EQ(env["CUDA_INJECTION64_PATH"], "/opt/gpuscope/lib/libgpuscope_inject.so");
  EXPECT_EQ(env["NVTX_INJECTION64_PATH"], "/opt/gpuscope/lib/libgpuscope_inject.so")
      << "NVTX reaches CUPTI through gpuscope's library, so that one CUPTI serves both";
  EXPECT_EQ(env["LD_LIBRARY_PATH"], "/usr/local/cuda/lib64");
  EXPECT_EQ(env["GPUSCOPE_REPORT"], "/work/run_%p.sqlite");
  EXPECT_EQ(env["GPUSCOPE_FOLLOW_CHILDREN"], "1");
  EXPECT_EQ(env["GPUSCOPE_FORCE_OVERWRITE"], "0");
  EXPECT_EQ(env["GPUSCOPE_REPORT_PERMISSIONS"], "private");
  EXPECT_EQ(env["GPUSCOPE_PROFILE_FROM_START"], "1");
  EXPECT_EQ(env["GPUSCOPE_QUIET"], "0");
  EXPECT_EQ(env["GPUSCOPE_TRACE"], "cuda,nvtx");
  EXPECT_EQ(env["GPUSCOPE_API_CAPTURE"], std::string(ApiCaptureName(kDefaultApiCapture)));
  EXPECT_EQ(env["GPUSCOPE_CUDA_GRAPH_TRACE"], "node");
  EXPECT_EQ(env["GPUSCOPE_BACKTRACE"], "0");  // set off, so that a nested run never inherits it
  EXPECT_EQ(env["GPUSCOPE_MANIFEST"], "/tmp/gpuscope-manifest-abc");
  EXPECT_EQ(env["HOME"], "/root");
  EXPECT_EQ(env["PATH"], "/usr/bin");
  EXPECT_EQ(env.count(contract::kRootPidVariable), 0u);  // the launcher adds it in the child
}

TEST(ChildEnvironment, OptionsReachTheInjection) {
  ChildEnvironmentSettings settings = Settings();
  settings.tracing.follow_children = false;
  settings.tracing.force_overwrite = true;
  settings.tracing.report_permissions = ReportPermissions::kUmask;
  settings.tracing.profile_from_start = false;
  settings.tracing.quiet = true;
  settings.tracing.trace.cuda_api = false;
  settings.tracing.trace.api_capture = ApiCapture::kCallback;
  settings.tracing.trace.cuda_graph_trace = CudaGraphTrace::kGraph;
  settings.tracing.backtrace = true;
  auto env = AsMap(BuildChildEnvironment({}, settings));
  EXPECT_EQ(env["GPUSCOPE_TRACE"], "cuda-gpu,nvtx");
  EXPECT_EQ(env["GPUSCOPE_API_CAPTURE"], "callback");
  EXPECT_EQ(env["GPUSCOPE_CUDA_GRAPH_TRACE"], "graph");
  EXPECT_EQ(env["GPUSCOPE_BACKTRACE"], "1");
  EXPECT_EQ(env["GPUSCOPE_FOLLOW_CHILDREN"], "0");
  EXPECT_EQ(env["GPUSCOPE_FORCE_OVERWRITE"], "1");
  EXPECT_EQ(env["GPUSCOPE_REPORT_PERMISSIONS"], "umask");
  EXPECT_EQ(env["GPUSCOPE_PROFILE_FROM_START"], "0");
  EXPECT_EQ(env["GPUSCOPE_QUIET"], "1");
}

TEST(ChildEnvironment, PrefixesAnExistingLibraryPath) {
  auto env = AsMap(BuildChildEnvironment({"LD_LIBRARY_PATH=/opt/app/lib:/opt/x"}, Settings()));
  EXPECT_EQ(env["LD_LIBRARY_PATH"], "/usr/local/cuda/lib64:/opt/app/lib:/opt/x");
  // An empty value would add the current directory to the search path: not kept.
  env = AsMap(BuildChildEnvironment({"LD_LIBRARY_PATH="}, Settings()));
  EXPECT_EQ(env["LD_LIBRARY_PATH"], "/usr/local/cuda/lib64");
}

TEST(ChildEnvironment, ReplacesStaleContractVariablesAndKeepsTuning) {
  auto env = AsMap(BuildChildEnvironment(
      {"CUDA_INJECTION64_PATH=/old/lib.so", "GPUSCOPE_REPORT=old.sqlite", "GPUSCOPE_ROOT_PID=1",
       "GPUSCOPE_FLUSH_MS=100", "NVTX_INJECTION64_PATH=/other/tool.so", "WEIRD==x=y"},
      Settings()));
  EXPECT_EQ(env["CUDA_INJECTION64_PATH"], "/opt/gpuscope/lib/libgpuscope_inject.so");
  EXPECT_EQ(env["GPUSCOPE_REPORT"], "/work/run_%p.sqlite");
  EXPECT_EQ(env["NVTX_INJECTION64_PATH"], "/opt/gpuscope/lib/libgpuscope_inject.so");
  EXPECT_EQ(env.count("GPUSCOPE_ROOT_PID"), 0u);
  EXPECT_EQ(env["GPUSCOPE_FLUSH_MS"], "100");
  EXPECT_EQ(env["WEIRD"], "=x=y");
}

// Source counters: the JIT compilers' line-table switches (contract::kLineInfoDefaults), and
// only then; `gpuscope run` leaves the program's compilers alone.
TEST(ChildEnvironment, LineInfoSwitchesOnlyWhenSourceCountersAreCollected) {
  auto plain = AsMap(BuildChildEnvironment({"HOME=/root"}, Settings()));
  ChildEnvironmentSettings with_source = Settings();
  with_source.jit_line_info = true;
  auto source = AsMap(BuildChildEnvironment({"HOME=/root"}, with_source));
  for (const contract::DefaultValue& line_info : contract::kLineInfoDefaults) {
    EXPECT_EQ(plain.count(line_info.name), 0u) << line_info.name;
    EXPECT_EQ(source[line_info.name], line_info.value) << line_info.name;
  }
  EXPECT_EQ(source["TRITON_DISABLE_LINE_INFO"], "0") << "Triton keeps its line tables";
  EXPECT_EQ(source["HOME"], "/root");
}

TEST(ChildEnvironment, LineInfoSwitchesNeverReplaceTheUsersValue) {
  ChildEnvironmentSettings with_source = Settings();
  with_source.jit_line_info = true;
  // The user turned Triton's line tables off: that stays, and so does an empty value.
  auto off = AsMap(BuildChildEnvironment({"TRITON_DISABLE_LINE_INFO=1"}, with_source));
  EXPECT_EQ(off["TRITON_DISABLE_LINE_INFO"], "1");
  auto empty = AsMap(BuildChildEnvironment({"TRITON_DISABLE_LINE_INFO="}, with_source));
  EXPECT_EQ(empty["TRITON_DISABLE_LINE_INFO"], "");
  // A value that only starts like the name is another variable.
  auto other = AsMap(BuildChildEnvironment({"TRITON_DISABLE_LINE_INFO_X=1"}, with_source));
  EXPECT_EQ(other["TRITON_DISABLE_LINE_INFO"], "0");
  EXPECT_EQ(other["TRITON_DISABLE_LINE_INFO_X"], "1");
}

// Numba's line tables come from gpuscope's Python start-up hook: its directory goes first on
// PYTHONPATH, the user's entries after it, and only while source counters are collected.
TEST(ChildEnvironment, ThePythonHookGoesFirstOnPythonPathWithSourceCounters) {
  ChildEnvironmentSettings with_source = Settings();
  with_source.jit_line_info = true;
  with_source.python_hook_dir = "/opt/gpuscope/lib/gpuscope-python";
  auto alone = AsMap(BuildChildEnvironment({"HOME=/root"}, with_source));
  EXPECT_EQ(alone["PYTHONPATH"], "/opt/gpuscope/lib/gpuscope-python");
  auto users = AsMap(BuildChildEnvironment({"PYTHONPATH=/home/me/src:/home/me/lib"}, with_source));
  EXPECT_EQ(users["PYTHONPATH"], "/opt/gpuscope/lib/gpuscope-python:/home/me/src:/home/me/lib");
  auto empty = AsMap(BuildChildEnvironment({"PYTHONPATH="}, with_source));
  EXPECT_EQ(empty["PYTHONPATH"], "/opt/gpuscope/lib/gpuscope-python");

  ChildEnvironmentSettings plain = Settings();
  plain.python_hook_dir = with_source.python_hook_dir;  // found, but not asked for
  auto run = AsMap(BuildChildEnvironment({"PYTHONPATH=/home/me/src"}, plain));
  EXPECT_EQ(run["PYTHONPATH"], "/home/me/src");
  // An install without the hook: the user's PYTHONPATH as it was.
  with_source.python_hook_dir.clear();
  auto missing = AsMap(BuildChildEnvironment({"PYTHONPATH=/home/me/src"}, with_source));
  EXPECT_EQ(missing["PYTHONPATH"], "/home/me/src");
}

// `gpuscope profile`'s request reaches the injection as the contract writes it; a run without
// one clears every profiling variable an outer profiled run left.
TEST(ChildEnvironment, TheProfileRequestReplacesAnyOuterOne) {
  ChildEnvironmentSettings profiled = Settings();
  profiled.profile.metrics = {"dram__bytes.sum"};
  profiled.profile.replay_mode = model::ReplayMode::kApplication;
  auto env = AsMap(BuildChildEnvironment({"GPUSCOPE_KERNEL_NAME=stale"}, profiled));
  for (const auto& [name, value] : profiled.profile.ToEnvironment()) {
    EXPECT_EQ(env[name], value) << name;
  }
  EXPECT_EQ(env["GPUSCOPE_PROFILE_METRICS"], "dram__bytes.sum");
  EXPECT_EQ(env["GPUSCOPE_REPLAY_MODE"], "application");
  EXPECT_EQ(env["GPUSCOPE_KERNEL_NAME"], "");

  auto plain = AsMap(BuildChildEnvironment(
      {"GPUSCOPE_PROFILE_METRICS=dram__bytes.sum", "GPUSCOPE_REPLAY_MODE=application"},
      Settings()));
  for (const char* name : contract::kProfileVariables) {
    ASSERT_EQ(plain.count(name), 1u) << name;
    EXPECT_EQ(plain[name], "") << name;
  }
}

TEST(ChildEnvironment, CurrentEnvironmentIsThisProcesssEnviron) {
  setenv("GPUSCOPE_CLI_TEST_MARKER", "present", 1);
  std::vector<std::string> current = CurrentEnvironment();
  EXPECT_NE(std::find(current.begin(), current.end(), "GPUSCOPE_CLI_TEST_MARKER=present"),
            current.end());
}

}  // namespace
}  // namespace gpuscope::cli

namespace gpuscope::cli {
namespace {

TEST(ChildEnvironmentGpuMetrics, SetAndRateReachTheInjectionAndAreClearedOtherwise) {
  ChildEnvironmentSettings settings = Settings();
  settings.gpu_metrics.set_name = "memory";
  settings.gpu_metrics.frequency_hz = 2000;
  auto env = AsMap(BuildChildEnvironment({}, settings));
  EXPECT_EQ(env["GPUSCOPE_GPU_METRICS_SET"], "memory");
  EXPECT_EQ(env["GPUSCOPE_GPU_METRICS_FREQUENCY"], "2000");
  // A run without --gpu-metrics inside a sampled program's environment samples nothing.
  auto plain = AsMap(BuildChildEnvironment(
      {"GPUSCOPE_GPU_METRICS_SET=default", "GPUSCOPE_GPU_METRICS_FREQUENCY=10000"}, Settings()));
  EXPECT_EQ(plain["GPUSCOPE_GPU_METRICS_SET"], "");
  EXPECT_EQ(plain["GPUSCOPE_GPU_METRICS_FREQUENCY"], "");
}

}  // namespace
}  // namespace gpuscope::cli
