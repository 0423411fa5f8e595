#include "cli/launch/program_resolver.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

TEST(ProgramResolver, NameWithSlashIsUsedAsGiven) {
  testing::TempDir dir;
  std::string app = dir.Write("app", "#!/bin/sh\n", 0755);
  ResolvedProgram found = ResolveProgram(app, "");
  EXPECT_EQ(found.problem, ProgramProblem::kNone);
  EXPECT_EQ(found.path, app);
  EXPECT_EQ(ResolveProgram(dir.File("missing"), "/bin").problem, ProgramProblem::kNotFound);
}

TEST(ProgramResolver, NonExecutableFilesAndDirectoriesAreNotExecutable) {
  testing::TempDir dir;
  std::string data = dir.Write("data.txt", "x", 0644);
  EXPECT_EQ(ResolveProgram(data, "").problem, ProgramProblem::kNotExecutable);
  EXPECT_EQ(ResolveProgram(dir.path() + "/", "").problem, ProgramProblem::kNotExecutable);
}

TEST(ProgramResolver, SearchesThePathInOrder) {
  testing::TempDir first, second;
  first.Write("tool", "#!/bin/sh\n", 0755);
  second.Write("tool", "#!/bin/sh\n", 0755);
  ResolvedProgram found = ResolveProgram("tool", first.path() + ":" + second.path());
  EXPECT_EQ(found.problem, ProgramProblem::kNone);
  EXPECT_EQ(found.path, first.File("tool"));
}

TEST(ProgramResolver, SkipsANonExecutableMatchForALaterExecutableOne) {
  testing::TempDir first, second;
  first.Write("tool", "data", 0644);
  second.Write("tool", "#!/bin/sh\n", 0755);
  ResolvedProgram found = ResolveProgram("tool", first.path() + ":" + second.path());
  EXPECT_EQ(found.problem, ProgramProblem::kNone);
  EXPECT_EQ(found.path, second.File("tool"));
  EXPECT_EQ(ResolveProgram("tool", first.path()).problem, ProgramProblem::kNotExecutable);
}

TEST(ProgramResolver, NotOnThePathIsNotFound) {
  testing::TempDir dir;
  EXPECT_EQ(ResolveProgram("gpuscope-no-such-tool", dir.path()).problem, ProgramProblem::kNotFound);
  EXPECT_EQ(ResolveProgram("", "/bin").problem, ProgramProblem::kNotFound);
}

TEST(ProgramResolver, EmptyPathEntryMeansTheCurrentDirectory) {
  testing::TempDir dir;
  dir.Write("tool", "#!/bin/sh\n", 0755);
  char previous[4096];
  ASSERT_NE(getcwd(previous, sizeof(previous)), nullptr);
  ASSERT_EQ(chdir(dir.path().c_str()), 0);
  ResolvedProgram found = ResolveProgram("tool", "/nonexistent::/bin");
  ResolvedProgram not_searched = ResolveProgram("tool", "/nonexistent:/bin");
  ASSERT_EQ(chdir(previous), 0);
  EXPECT_EQ(found.problem, ProgramProblem::kNone);
  EXPECT_EQ(found.path, "./tool");
  EXPECT_EQ(not_searched.problem, ProgramProblem::kNotFound);
}

TEST(ProgramResolver, Messages) {
  EXPECT_EQ(DescribeProgramProblem("./app", ProgramProblem::kNotFound), "./app: command not found");
  EXPECT_EQ(DescribeProgramProblem("./app", ProgramProblem::kNotExecutable),
            "./app is not executable");
}

}  // namespace
}  // namespace gpuscope::cli
