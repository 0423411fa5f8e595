#include "cli/output/output_path_checks.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../store/without_permission_override.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

PatternContext StandIn() {
  PatternContext context;
  context.pid = 777;
  context.hostname = "host";
  context.getenv = [](const char* name) -> const char* {
    return std::string_view(name) == "RANK" ? "2" : nullptr;
  };
  return context;
}

TEST(ReportPath, RelativePatternBecomesAbsolute) {
  testing::TempDir dir;
  StatusOr<std::string> pattern =
      PrepareReportPattern("out_%p.sqlite", false, StandIn(), dir.path());
  ASSERT_TRUE(pattern.ok()) << pattern.status().message();
  EXPECT_EQ(pattern.value(), dir.path() + "/out_%p.sqlite");
}

TEST(ReportPath, PercentInTheWorkingDirectoryIsEscaped) {
  testing::TempDir dir;
  std::string odd = dir.File("100%p");
  ASSERT_EQ(mkdir(odd.c_str(), 0755), 0);
  StatusOr<std::string> pattern = PrepareReportPattern("r_%p.sqlite", false, StandIn(), odd);
  ASSERT_TRUE(pattern.ok()) << pattern.status().message();
  EXPECT_EQ(pattern.value(), dir.path() + "/100%%p/r_%p.sqlite");
  // The injection library expands it into the directory that exists.
  EXPECT_EQ(ExpandPathPattern(pattern.value(), StandIn()).value(), odd + "/r_777.sqlite");
}

TEST(ReportPath, AbsolutePatternIsKept) {
  testing::TempDir dir;
  std::string requested = dir.path() + "/rank%q{RANK}.sqlite";
  StatusOr<std::string> pattern = PrepareReportPattern(requested, false, StandIn(), "/elsewhere");
  ASSERT_TRUE(pattern.ok()) << pattern.status().message();
  EXPECT_EQ(pattern.value(), requested);
}

TEST(ReportPath, MissingDirectoryIsAnError) {
  testing::TempDir dir;
  StatusOr<std::string> pattern =
      PrepareReportPattern(dir.path() + "/no/such/r.sqlite", false, StandIn(), "/");
  ASSERT_FALSE(pattern.ok());
  EXPECT_EQ(pattern.status().message(),
            "report directory '" + dir.path() + "/no/such' does not exist");
}

TEST(ReportPath, AFileInPlaceOfTheDirectoryIsAnError) {
  testing::TempDir dir;
  dir.Write("plain", "x");
  StatusOr<std::string> pattern =
      PrepareReportPattern(dir.File("plain/r.sqlite"), false, StandIn(), "/");
  ASSERT_FALSE(pattern.ok());
  EXPECT_NE(pattern.status().message().find("does not exist"), std::string::npos);
}

TEST(ReportPath, UnwritableDirectoryIsAnError) {
  testing::TempDir dir;
  std::string locked = dir.File("locked");
  ASSERT_EQ(mkdir(locked.c_str(), 0555), 0);
  // Without root's permission override, so that the test runs (and means this) as root too.
  std::string message = test_support::RunWithoutPermissionOverride([&] {
    StatusOr<std::string> pattern =
        PrepareReportPattern(locked + "/r.sqlite", false, StandIn(), "/");
    return pattern.ok() ? "accepted: " + pattern.value() : pattern.status().message();
  });
  EXPECT_EQ(message, "report directory '" + locked + "' is not writable");
}

TEST(ReportPath, ExistingReportWithoutPidNeedsForce) {
  testing::TempDir dir;
  dir.Write("fixed.sqlite", "old");
  StatusOr<std::string> pattern =
      PrepareReportPattern("fixed.sqlite", false, StandIn(), dir.path());
  ASSERT_FALSE(pattern.ok());
  EXPECT_NE(pattern.status().message().find("already exists (use -f"), std::string::npos)
      << pattern.status().message();
  EXPECT_TRUE(PrepareReportPattern("fixed.sqlite", true, StandIn(), dir.path()).ok());
}

// Refused before the program starts, not only in the traced process.
TEST(ReportPath, ASymbolicLinkAtTheReportPathIsRefusedEvenWithForce) {
  testing::TempDir dir;
  std::string target = dir.Write("notes.txt", "the user's notes");
  ASSERT_EQ(symlink(target.c_str(), dir.File("fixed.sqlite").c_str()), 0);
  for (bool force : {false, true}) {
    StatusOr<std::string> pattern =
        PrepareReportPattern("fixed.sqlite", force, StandIn(), dir.path());
    ASSERT_FALSE(pattern.ok());
    EXPECT_EQ(pattern.status().message(), "report " + dir.File("fixed.sqlite") +
                                              " is a symbolic link to " + target +
                                              "; not writing through it");
  }
}

// A report is a database: a FIFO or a device at its path is refused before the program
// starts, with or without -f, not left to the traced process to find.
TEST(ReportPath, AReportPathThatIsNotARegularFileIsRefused) {
  testing::TempDir dir;
  ASSERT_EQ(mkfifo(dir.File("fifo.sqlite").c_str(), 0600), 0);
  for (const std::string& path : {dir.File("fifo.sqlite"), std::string("/dev/null")}) {
    for (bool force : {false, true}) {
      StatusOr<std::string> pattern = PrepareReportPattern(path, force, StandIn(), dir.path());
      ASSERT_FALSE(pattern.ok()) << path;
      EXPECT_EQ(pattern.status().message(), path + " is not a regular file");
    }
  }
}

TEST(ReportPath, PatternWithPidDoesNotCollideWithTheStandIn) {
  // The stand-in pid is not the program's: a file with that name says nothing.
  testing::TempDir dir;
  dir.Write("r_777.sqlite", "old");
  EXPECT_TRUE(PrepareReportPattern("r_%p.sqlite", false, StandIn(), dir.path()).ok());
}

TEST(ReportPath, DirectoryAsReportIsAnError) {
  testing::TempDir dir;
  ASSERT_EQ(mkdir(dir.File("sub").c_str(), 0755), 0);
  StatusOr<std::string> pattern = PrepareReportPattern("sub", true, StandIn(), dir.path());
  ASSERT_FALSE(pattern.ok());
  EXPECT_NE(pattern.status().message().find("is a directory"), std::string::npos);
}

TEST(ReportPath, BadPatternsAreErrors) {
  testing::TempDir dir;
  EXPECT_FALSE(PrepareReportPattern("", false, StandIn(), dir.path()).ok());
  StatusOr<std::string> unset =
      PrepareReportPattern("r%q{UNSET}.sqlite", false, StandIn(), dir.path());
  ASSERT_FALSE(unset.ok());
  EXPECT_NE(unset.status().message().find("UNSET is not set"), std::string::npos);
  EXPECT_FALSE(PrepareReportPattern("r%x.sqlite", false, StandIn(), dir.path()).ok());
}

TEST(ReportPath, LogFilePatternIsCheckedTheSameWay) {
  testing::TempDir dir;
  EXPECT_TRUE(CheckLogFilePattern("%1", StandIn(), false, {}).ok());
  EXPECT_TRUE(CheckLogFilePattern("%2", StandIn(), false, {}).ok());
  EXPECT_TRUE(CheckLogFilePattern(dir.File("log_%p.txt"), StandIn(), false, {}).ok());
  Status missing = CheckLogFilePattern(dir.File("none/log.txt"), StandIn(), false, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "log file directory '" + dir.File("none") + "' does not exist");
}

TEST(ReportPath, DirectoryOf) {
  EXPECT_EQ(DirectoryOf("a/b/c"), "a/b");
  EXPECT_EQ(DirectoryOf("c"), ".");
  EXPECT_EQ(DirectoryOf("/c"), "/");
}

}  // namespace
}  // namespace gpuscope::cli
