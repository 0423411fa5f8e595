#include "contract/report_path_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace gpuscope::contract {
namespace {

const char* RankThree(const char* name) { return std::string_view(name) == "RANK" ? "3" : nullptr; }

PatternContext Context(unsigned pid) { return {pid, "node7", RankThree}; }

TEST(ExpandReportPathTest, RootUsesThePatternAsGiven) {
  StatusOr<std::string> path = ExpandReportPath("out/run.sqlite", Context(900), /*is_root=*/true);
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(*path, "out/run.sqlite");
}

TEST(ExpandReportPathTest, ChildWithoutPidGetsItsPidBeforeTheExtension) {
  StatusOr<std::string> path = ExpandReportPath("out/run.sqlite", Context(901), /*is_root=*/false);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "out/run.901.sqlite");
}

TEST(ExpandReportPathTest, ChildWhosePatternHasPidKeepsIt) {
  StatusOr<std::string> path =
      ExpandReportPath("run_%p_%h_r%q{RANK}.sqlite", Context(902), /*is_root=*/false);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "run_902_node7_r3.sqlite");
}

TEST(ExpandReportPathTest, DefaultPatternNamesTheReportByPid) {
  StatusOr<std::string> path =
      ExpandReportPath(kDefaultReportPattern, Context(903), /*is_root=*/true);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "gpuscope_903.sqlite");
}

TEST(ExpandReportPathTest, BadPatternIsAOneLineError) {
  StatusOr<std::string> path =
      ExpandReportPath("run_%q{NOT_SET}.sqlite", Context(904), /*is_root=*/true);
  ASSERT_FALSE(path.ok());
  EXPECT_NE(path.status().message().find("NOT_SET"), std::string::npos);
  EXPECT_EQ(path.status().message().find('\n'), std::string::npos);
}

// Where a child's pid goes: after the last dot of the file name, else at the end; "%%p" is
// a literal "%p", not the pid.
TEST(ExpandReportPathTest, ChildPidInsertion) {
  struct Case {
    const char* pattern;
    const char* expected;
  };
  for (const Case& c :
       {Case{"out.d/run", "out.d/run.905"}, Case{".hidden", ".hidden.905"},
        Case{"run%%p.sqlite", "run%p.905.sqlite"}, Case{"a.tar.gz", "a.tar.905.gz"}}) {
    StatusOr<std::string> path = ExpandReportPath(c.pattern, Context(905), /*is_root=*/false);
    ASSERT_TRUE(path.ok()) << c.pattern;
    EXPECT_EQ(*path, c.expected) << c.pattern;
  }
}

TEST(ExpandReportPathTest, AnEmptyExpansionIsAnError) {
  StatusOr<std::string> path = ExpandReportPath("", Context(907), /*is_root=*/true);
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().message(), "the report path is empty");
}

TEST(AbsoluteReportPatternTest, RelativePatternsGoBelowTheWorkingDirectory) {
  EXPECT_EQ(AbsoluteReportPattern("out_%p.sqlite", "/work"), "/work/out_%p.sqlite");
  EXPECT_EQ(AbsoluteReportPattern("/abs/out.sqlite", "/work"), "/abs/out.sqlite");
}

// A '%' in the directory is a directory name, not a macro: the injection's expansion gives
// it back literally.
TEST(AbsoluteReportPatternTest, TheWorkingDirectoryStaysLiteral) {
  const std::string pattern = AbsoluteReportPattern("r_%p.sqlite", "/data/100%p_done");
  EXPECT_EQ(pattern, "/data/100%%p_done/r_%p.sqlite");
  StatusOr<std::string> path = ExpandReportPath(pattern, Context(908), /*is_root=*/true);
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(*path, "/data/100%p_done/r_908.sqlite");
}

}  // namespace
}  // namespace gpuscope::contract
