// The process's place in a multi-rank job, read from the job launcher's variables through
// the production config reader (precedence, bad values), the boot id, and what the session
// writes first: the process record with both.
#include "inject/rank_identity.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "environment_map.h"
#include "inject/config.h"
#include "inject/process_info.h"
#include "temp_dir.h"

namespace gpuscope::inject {
namespace {

using testing::From;

TEST(RankIdentityTest, NothingSetIsUnknownWithoutWarnings) {
  const InjectionConfig config = ReadInjectionConfig(From({}));
  EXPECT_FALSE(config.identity.rank.has_value());
  EXPECT_FALSE(config.identity.local_rank.has_value());
  EXPECT_FALSE(config.identity.world_size.has_value());
  EXPECT_EQ(config.identity.rank_variable, "");
  EXPECT_TRUE(config.warnings.empty());
}

TEST(RankIdentityTest, TorchrunVariables) {
  const InjectionConfig config =
      ReadInjectionConfig(From({{"RANK", "5"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "8"}}));
  EXPECT_EQ(config.identity.rank, 5);
  EXPECT_EQ(config.identity.local_rank, 1);
  EXPECT_EQ(config.identity.world_size, 8);
  EXPECT_EQ(config.identity.rank_variable, "RANK");
  EXPECT_TRUE(config.warnings.empty());
}

// The first variable of each list that is set wins: Open MPI over PMI over Slurm over
// torchrun's, for the rank, the local rank and the size alike.
TEST(RankIdentityTest, PrecedenceOfTheLaunchers) {
  std::map<std::string, std::string> env = {{"OMPI_COMM_WORLD_RANK", "12"},
                                            {"PMI_RANK", "13"},
                                            {"SLURM_PROCID", "14"},
                                            {"RANK", "15"},
                                            {"OMPI_COMM_WORLD_LOCAL_RANK", "2"},
                                            {"MPI_LOCALRANKID", "3"},
                                            {"SLURM_LOCALID", "4"},
                                            {"LOCAL_RANK", "5"},
                                            {"OMPI_COMM_WORLD_SIZE", "64"},
                                            {"PMI_SIZE", "65"},
                                            {"SLURM_NTASKS", "66"},
                                            {"WORLD_SIZE", "67"}};
  InjectionConfig config = ReadInjectionConfig(From(env));
  EXPECT_EQ(config.identity.rank, 12);
  EXPECT_EQ(config.identity.rank_variable, "OMPI_COMM_WORLD_RANK");
  EXPECT_EQ(config.identity.local_rank, 2);
  EXPECT_EQ(config.identity.world_size, 64);

  env.erase("OMPI_COMM_WORLD_RANK");
  env.erase("OMPI_COMM_WORLD_LOCAL_RANK");
  env.erase("OMPI_COMM_WORLD_SIZE");
  config = ReadInjectionConfig(From(env));
  EXPECT_EQ(config.identity.rank, 13);
  EXPECT_EQ(config.identity.rank_variable, "PMI_RANK");
  EXPECT_EQ(config.identity.local_rank, 3);
  EXPECT_EQ(config.identity.world_size, 65);

  env.erase("PMI_RANK");
  env.erase("MPI_LOCALRANKID");
  env.erase("PMI_SIZE");
  env["SLURM_PROCID"] = "";  // set but empty: as if unset
  config = ReadInjectionConfig(From(env));
  EXPECT_EQ(config.identity.rank, 15);
  EXPECT_EQ(config.identity.rank_variable, "RANK");
  EXPECT_EQ(config.identity.local_rank, 4);
  EXPECT_EQ(config.identity.world_size, 66);
  EXPECT_TRUE(config.warnings.empty());
}

// A value that is not a number in range leaves that value unknown with one warning naming the
// variable and its value; the next variable of the list is not consulted.
TEST(RankIdentityTest, BadValuesAreUnknownWithOneWarningEach) {
  InjectionConfig config = ReadInjectionConfig(From({{"RANK", "abc"}}));
  EXPECT_FALSE(config.identity.rank.has_value());
  EXPECT_EQ(config.identity.rank_variable, "");
  ASSERT_EQ(config.warnings.size(), 1u);
  EXPECT_NE(config.warnings[0].find("RANK='abc'"), std::string::npos) << config.warnings[0];
  EXPECT_NE(config.warnings[0].find("unknown"), std::string::npos) << config.warnings[0];

  config = ReadInjectionConfig(From({{"PMI_RANK", "-1"}, {"RANK", "3"}}));
  EXPECT_FALSE(config.identity.rank.has_value()) << "never falls through to RANK";
  ASSERT_EQ(config.warnings.size(), 1u);
  EXPECT_NE(config.warnings[0].find("PMI_RANK='-1'"), std::string::npos);

  config = ReadInjectionConfig(
      From({{"RANK", "7 "}, {"LOCAL_RANK", "99999999999"}, {"WORLD_SIZE", "0"}}));
  EXPECT_FALSE(config.identity.rank.has_value());
  EXPECT_FALSE(config.identity.local_rank.has_value());
  EXPECT_FALSE(config.identity.world_size.has_value()) << "a job has at least one process";
  EXPECT_EQ(config.warnings.size(), 3u);

  config = ReadInjectionConfig(From({{"RANK", "0"}, {"WORLD_SIZE", "1"}}));
  EXPECT_EQ(config.identity.rank, 0) << "rank 0 is a rank";
  EXPECT_EQ(config.identity.world_size, 1);
  EXPECT_TRUE(config.warnings.empty());
}

TEST(BootIdTest, ReadsAUuidWithoutItsNewline) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/boot_id";
  std::ofstream(path) << "c41e898c-a9b4-4040-aba2-7dd66e8b8cf1\n";
  EXPECT_EQ(ReadBootId(path.c_str()), "c41e898c-a9b4-4040-aba2-7dd66e8b8cf1");
}

TEST(BootIdTest, MissingOrForeignContentIsUnknown) {
  testing::TempDir dir;
  EXPECT_EQ(ReadBootId((dir.path() + "/none").c_str()), "");
  const std::string path = dir.path() + "/boot_id";
  std::ofstream(path) << "not a boot id at all, but 36 chars!\n";
  EXPECT_EQ(ReadBootId(path.c_str()), "");
  std::ofstream(path, std::ios::trunc) << "c41e898c-a9b4-4040-aba2-7dd66e8b8cf1-and-more\n";
  EXPECT_EQ(ReadBootId(path.c_str()), "");
}

// This machine's own boot id, as every process of this boot reads it.
TEST(BootIdTest, TheKernelsBootIdIsStableWithinABoot) {
  const std::string first = ReadBootId();
  if (first.empty()) GTEST_SKIP() << kBootIdPath << " is not readable here";
  EXPECT_EQ(first.size(), 36u);
  EXPECT_EQ(ReadBootId(), first);
}

TEST(DescribeThisProcessTest, CarriesTheIdentityAndTheBootId) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/boot_id";
  std::ofstream(path) << "00000000-1111-2222-3333-444444444444\n";
  RankIdentity identity;
  identity.rank = 3;
  identity.local_rank = 1;
  identity.world_size = 4;
  identity.rank_variable = "SLURM_PROCID";
  const ProcessDescription process = DescribeThisProcess(1'000, identity, path.c_str());
  EXPECT_EQ(process.start, 1'000u);
  EXPECT_EQ(process.boot_id, "00000000-1111-2222-3333-444444444444");
  EXPECT_EQ(process.rank, 3);
  EXPECT_EQ(process.local_rank, 1);
  EXPECT_EQ(process.world_size, 4);
  EXPECT_EQ(process.rank_variable, "SLURM_PROCID");
}

}  // namespace
}  // namespace gpuscope::inject
