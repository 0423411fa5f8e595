#include "inject/report_file_claim.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "temp_dir.h"

namespace gpuscope::inject {
namespace {

using testing::TempDir;

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

TEST(ClaimReportPathTest, FreeNameIsClaimedAsAnEmptyPlaceholder) {
  TempDir dir;
  const std::string requested = dir.path() + "/r.sqlite";
  StatusOr<ClaimedReportPath> claimed = ClaimReportPath(requested, /*force_overwrite=*/false);
  ASSERT_TRUE(claimed.ok()) << claimed.status().message();
  EXPECT_EQ(claimed->path, requested);
  EXPECT_FALSE(claimed->renamed);
  EXPECT_TRUE(claimed->created_empty);
  EXPECT_TRUE(Exists(requested));
}

TEST(ClaimReportPathTest, ExistingReportsGetNumberedSuffixes) {
  TempDir dir;
  const std::string requested = dir.path() + "/r.sqlite";
  std::ofstream(requested) << "an earlier report";
  std::ofstream(dir.path() + "/r-1.sqlite") << "another";
  StatusOr<ClaimedReportPath> claimed = ClaimReportPath(requested, false);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed->path, dir.path() + "/r-2.sqlite");
  EXPECT_TRUE(claimed->renamed);
  // The earlier report is untouched.
  std::ifstream earlier(requested);
  std::string text;
  std::getline(earlier, text);
  EXPECT_EQ(text, "an earlier report");
  // A second claimant of the same name gets the next one.
  StatusOr<ClaimedReportPath> second = ClaimReportPath(requested, false);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->path, dir.path() + "/r-3.sqlite");
}

TEST(ClaimReportPathTest, ForceOverwriteUsesTheNameAsItIs) {
  TempDir dir;
  const std::string requested = dir.path() + "/r.sqlite";
  std::ofstream(requested) << "old";
  StatusOr<ClaimedReportPath> claimed = ClaimReportPath(requested, /*force_overwrite=*/true);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed->path, requested);
  EXPECT_FALSE(claimed->renamed);
  EXPECT_FALSE(claimed->created_empty);
}

TEST(ClaimReportPathTest, MissingDirectoryIsAClearError) {
  StatusOr<ClaimedReportPath> claimed =
      ClaimReportPath("/nonexistent_gpuscope_dir/r.sqlite", false);
  ASSERT_FALSE(claimed.ok());
  EXPECT_NE(claimed.status().message().find("/nonexistent_gpuscope_dir/r.sqlite"),
            std::string::npos);
  EXPECT_NE(claimed.status().message().find("No such file"), std::string::npos);
}

TEST(AbsolutePathTest, RelativePathsAreMadeAbsolute) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  EXPECT_EQ(AbsolutePath("a/b.sqlite"), std::string(cwd) + "/a/b.sqlite");
  EXPECT_EQ(AbsolutePath("/x/y.sqlite"), "/x/y.sqlite");
}

}  // namespace
}  // namespace gpuscope::inject
