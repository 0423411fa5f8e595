#include "inject/report_file_claim.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "store/testing/scoped_umask.h"
#include "temp_dir.h"

namespace gpuscope::inject {
namespace {

using store::testing::FileMode;
using store::testing::ScopedUmask;
using testing::TempDir;

constexpr ReportPermissions kPrivate = ReportPermissions::kPrivate;

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

TEST(ClaimReportPathTest, FreeNameIsClaimedAsAnEmptyPlaceholder) {
  TempDir dir;
  const std::string requested = dir.path() + "/r.sqlite";
  StatusOr<ClaimedReportPath> claimed =
      ClaimReportPath(requested, /*force_overwrite=*/false, kPrivate);
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
  StatusOr<ClaimedReportPath> claimed = ClaimReportPath(requested, false, kPrivate);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed->path, dir.path() + "/r-2.sqlite");
  EXPECT_TRUE(claimed->renamed);
  // The earlier report is untouched.
  std::ifstream earlier(requested);
  std::string text;
  std::getline(earlier, text);
  EXPECT_EQ(text, "an earlier report");
  // A second claimant of the same name gets the next one.
  StatusOr<ClaimedReportPath> second = ClaimReportPath(requested, false, kPrivate);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->path, dir.path() + "/r-3.sqlite");
}

TEST(ClaimReportPathTest, ForceOverwriteUsesTheNameAsItIs) {
  TempDir dir;
  const std::string requested = dir.path() + "/r.sqlite";
  std::ofstream(requested) << "old";
  StatusOr<ClaimedReportPath> claimed =
      ClaimReportPath(requested, /*force_overwrite=*/true, kPrivate);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed->path, requested);
  EXPECT_FALSE(claimed->renamed);
  EXPECT_FALSE(claimed->created_empty);
}

TEST(ClaimReportPathTest, MissingDirectoryIsAClearError) {
  StatusOr<ClaimedReportPath> claimed =
      ClaimReportPath("/nonexistent_gpuscope_dir/r.sqlite", false, kPrivate);
  ASSERT_FALSE(claimed.ok());
  EXPECT_NE(claimed.status().message().find("/nonexistent_gpuscope_dir/r.sqlite"),
            std::string::npos);
  EXPECT_NE(claimed.status().message().find("No such file"), std::string::npos);
}

std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return text;
}

// `run -f -o r.sqlite` with r.sqlite a link to another file: the traced process must not
// claim the link (and the writer would then empty what it names), with or without -f.
TEST(ClaimReportPathTest, ASymbolicLinkAtTheRequestedPathIsRefused) {
  for (bool force : {false, true}) {
    SCOPED_TRACE(force ? "with -f" : "without -f");
    TempDir dir;
    const std::string target = dir.path() + "/notes.txt";
    const std::string requested = dir.path() + "/r.sqlite";
    std::ofstream(target) << "the user's notes";
    ASSERT_EQ(symlink(target.c_str(), requested.c_str()), 0);
    StatusOr<ClaimedReportPath> claimed = ClaimReportPath(requested, force, kPrivate);
    ASSERT_FALSE(claimed.ok());
    EXPECT_EQ(claimed.status().message(), "report " + requested + " is a symbolic link to " +
                                              target + "; not writing through it");
    EXPECT_EQ(FirstLine(target), "the user's notes");
    EXPECT_FALSE(Exists(dir.path() + "/r-1.sqlite")) << "refused, not renamed";
  }
}

// A link to a missing file too: following it would create the report wherever it points.
TEST(ClaimReportPathTest, ADanglingLinkIsRefusedAndNothingIsCreatedWhereItPoints) {
  TempDir dir;
  const std::string missing = dir.path() + "/elsewhere/../planted.sqlite";
  const std::string requested = dir.path() + "/r.sqlite";
  ASSERT_EQ(symlink(missing.c_str(), requested.c_str()), 0);
  for (bool force : {false, true}) {
    EXPECT_FALSE(ClaimReportPath(requested, force, kPrivate).ok());
  }
  EXPECT_FALSE(Exists(dir.path() + "/planted.sqlite"));
}

TEST(ClaimReportPathTest, ThePlaceholderIsPrivateUnlessTheUmaskIsAsked) {
  ScopedUmask umask_022(022);
  TempDir dir;
  StatusOr<ClaimedReportPath> private_claim =
      ClaimReportPath(dir.path() + "/private.sqlite", false, kPrivate);
  ASSERT_TRUE(private_claim.ok());
  EXPECT_EQ(FileMode(private_claim->path.c_str()), 0600);
  StatusOr<ClaimedReportPath> umask_claim =
      ClaimReportPath(dir.path() + "/shared.sqlite", false, ReportPermissions::kUmask);
  ASSERT_TRUE(umask_claim.ok());
  EXPECT_EQ(FileMode(umask_claim->path.c_str()), 0644);
}

TEST(AbsolutePathTest, RelativePathsAreMadeAbsolute) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  EXPECT_EQ(AbsolutePath("a/b.sqlite"), std::string(cwd) + "/a/b.sqlite");
  EXPECT_EQ(AbsolutePath("/x/y.sqlite"), "/x/y.sqlite");
}

}  // namespace
}  // namespace gpuscope::inject
