#include "contract/environment_variables.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::contract {
namespace {

// The names are a published interface (src/contract/README.md, users' job scripts set
// GPUSCOPE_FLUSH_MS or GPUSCOPE_CUPTI_DIR): they are spelled out here once more so that a
// rename cannot pass unnoticed.
TEST(EnvironmentVariables, NamesAreThePublishedOnes) {
  EXPECT_STREQ(kCudaInjectionVariable, "CUDA_INJECTION64_PATH");
  EXPECT_STREQ(kNvtxInjectionVariable, "NVTX_INJECTION64_PATH");
  EXPECT_STREQ(kLibraryPathVariable, "LD_LIBRARY_PATH");
  EXPECT_STREQ(kReportVariable, "GPUSCOPE_REPORT");
  EXPECT_STREQ(kRootPidVariable, "GPUSCOPE_ROOT_PID");
  EXPECT_STREQ(kFollowChildrenVariable, "GPUSCOPE_FOLLOW_CHILDREN");
  EXPECT_STREQ(kForceOverwriteVariable, "GPUSCOPE_FORCE_OVERWRITE");
  EXPECT_STREQ(kReportPermissionsVariable, "GPUSCOPE_REPORT_PERMISSIONS");
  EXPECT_STREQ(kProfileFromStartVariable, "GPUSCOPE_PROFILE_FROM_START");
  EXPECT_STREQ(kFlushMsVariable, "GPUSCOPE_FLUSH_MS");
  EXPECT_STREQ(kManifestVariable, "GPUSCOPE_MANIFEST");
  EXPECT_STREQ(kQuietVariable, "GPUSCOPE_QUIET");
  EXPECT_STREQ(kDebugVariable, "GPUSCOPE_DEBUG");
  EXPECT_STREQ(kBacktraceVariable, "GPUSCOPE_BACKTRACE");
  EXPECT_STREQ(kProfileMetricsVariable, "GPUSCOPE_PROFILE_METRICS");
  EXPECT_STREQ(kKernelNameVariable, "GPUSCOPE_KERNEL_NAME");
  EXPECT_STREQ(kKernelNameBaseVariable, "GPUSCOPE_KERNEL_NAME_BASE");
  EXPECT_STREQ(kLaunchSkipVariable, "GPUSCOPE_LAUNCH_SKIP");
  EXPECT_STREQ(kLaunchCountVariable, "GPUSCOPE_LAUNCH_COUNT");
  EXPECT_STREQ(kKernelIdVariable, "GPUSCOPE_KERNEL_ID");
  EXPECT_STREQ(kDevicesVariable, "GPUSCOPE_DEVICES");
  EXPECT_STREQ(kReplayModeVariable, "GPUSCOPE_REPLAY_MODE");
  EXPECT_STREQ(kReplayPassVariable, "GPUSCOPE_REPLAY_PASS");
  EXPECT_STREQ(kReplayPassesVariable, "GPUSCOPE_REPLAY_PASSES");
  EXPECT_STREQ(kReplayDirVariable, "GPUSCOPE_REPLAY_DIR");
  EXPECT_STREQ(kProfileConfigFileVariable, "GPUSCOPE_PROFILE_CONFIG_FILE");
  EXPECT_STREQ(kProfileChipVariable, "GPUSCOPE_PROFILE_CHIP");
  EXPECT_STREQ(kProfilePassesVariable, "GPUSCOPE_PROFILE_PASSES");
  EXPECT_STREQ(kInjectionLibraryVariable, "GPUSCOPE_INJECTION_LIBRARY");
  EXPECT_STREQ(kCuptiDirVariable, "GPUSCOPE_CUPTI_DIR");
  EXPECT_STREQ(kCacheDirVariable, "GPUSCOPE_CACHE_DIR");
  EXPECT_STREQ(kReaderThreadsVariable, "GPUSCOPE_READER_THREADS");
  EXPECT_STREQ(kNvdisasmVariable, "GPUSCOPE_NVDISASM");
  EXPECT_STREQ(kProfileSourceVariable, "GPUSCOPE_PROFILE_SOURCE");
  EXPECT_STREQ(kTritonDisableLineInfoVariable, "TRITON_DISABLE_LINE_INFO");
}

// The launchers' rank variables, in their order of precedence (the first set one wins).
TEST(EnvironmentVariables, RankVariablesInOrderOfPrecedence) {
  auto names = [](const auto& list) {
    return std::vector<std::string>(std::begin(list), std::end(list));
  };
  EXPECT_EQ(names(kRankVariables),
            (std::vector<std::string>{"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID", "RANK"}));
  EXPECT_EQ(names(kLocalRankVariables),
            (std::vector<std::string>{"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                      "SLURM_LOCALID", "LOCAL_RANK"}));
  EXPECT_EQ(
      names(kWorldSizeVariables),
      (std::vector<std::string>{"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", "WORLD_SIZE"}));
}

// The launcher resets every profiling variable in each run, so the list must hold each of
// them exactly once, and nothing that a plain `gpuscope run` sets itself.
TEST(EnvironmentVariables, ProfileVariablesAreDistinctAndComplete) {
  std::set<std::string_view> names(std::begin(kProfileVariables), std::end(kProfileVariables));
  EXPECT_EQ(names.size(), std::size(kProfileVariables));
  EXPECT_EQ(names.size(), 18u);
  for (const char* name :
       {kKernelNameVariable, kReplayDirVariable, kProfilePassesVariable, kProfileSourceVariable,
        kCacheControlVariable, kReplayNoRestoreVariable, kNvtxIncludeVariable}) {
    EXPECT_EQ(names.count(name), 1u) << name;
  }
  for (const char* name : {kReportVariable, kManifestVariable, kRootPidVariable}) {
    EXPECT_EQ(names.count(name), 0u) << name;
  }
}

// The JIT compilers' line-table switches belong to the program, not to the contract: none is
// a gpuscope variable (those the launcher replaces; these it only adds where unset), each
// appears once, and each value is one that keeps the line table.
TEST(EnvironmentVariables, LineInfoDefaultsAreTheProgramsDistinctSwitches) {
  std::set<std::string_view> names;
  for (const DefaultValue& line_info : kLineInfoDefaults) {
    EXPECT_TRUE(names.insert(line_info.name).second) << line_info.name << " twice";
    EXPECT_NE(std::string_view(line_info.name).rfind("GPUSCOPE_", 0), 0u) << line_info.name;
    for (const char* profile_name : kProfileVariables) {
      EXPECT_STRNE(line_info.name, profile_name);
    }
  }
  EXPECT_EQ(names.count(kTritonDisableLineInfoVariable), 1u);
  EXPECT_STREQ(kLineInfoDefaults[0].value, "0") << "TRITON_DISABLE_LINE_INFO=0 keeps lines";
}

TEST(EnvironmentVariables, FlagsAreOneOrZero) {
  EXPECT_STREQ(FlagValue(true), "1");
  EXPECT_STREQ(FlagValue(false), "0");
}

}  // namespace
}  // namespace gpuscope::contract
