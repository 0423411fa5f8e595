#include "inject/report_path.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "inject/manifest.h"
#include "temp_dir.h"

namespace gpuscope::inject {
namespace {

using testing::TempDir;

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

PatternContext Context(unsigned pid) {
  PatternContext context;
  context.pid = pid;
  context.hostname = "node7";
  context.getenv = [](const char* name) -> const char* {
    return std::string(name) == "RANK" ? "3" : nullptr;
  };
  return context;
}

TEST(ExpandReportPathTest, RootUsesThePatternAsGiven) {
  InjectionConfig config;
  config.report_pattern = "out/run.sqlite";
  StatusOr<std::string> path = ExpandReportPath(config, Context(900), /*is_root=*/true);
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(*path, "out/run.sqlite");
}

TEST(ExpandReportPathTest, ChildWithoutPidGetsItsPidBeforeTheExtension) {
  InjectionConfig config;
  config.report_pattern = "out/run.sqlite";
  StatusOr<std::string> path = ExpandReportPath(config, Context(901), /*is_root=*/false);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "out/run.901.sqlite");
}

TEST(ExpandReportPathTest, ChildWhosePatternHasPidKeepsIt) {
  InjectionConfig config;
  config.report_pattern = "run_%p_%h_r%q{RANK}.sqlite";
  StatusOr<std::string> path = ExpandReportPath(config, Context(902), /*is_root=*/false);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "run_902_node7_r3.sqlite");
}

TEST(ExpandReportPathTest, DefaultPatternNamesTheReportByPid) {
  InjectionConfig config;
  StatusOr<std::string> path = ExpandReportPath(config, Context(903), /*is_root=*/true);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, "gpuscope_903.sqlite");
}

TEST(ExpandReportPathTest, BadPatternIsAOneLineError) {
  InjectionConfig config;
  config.report_pattern = "run_%q{NOT_SET}.sqlite";
  StatusOr<std::string> path = ExpandReportPath(config, Context(904), /*is_root=*/true);
  ASSERT_FALSE(path.ok());
  EXPECT_NE(path.status().message().find("NOT_SET"), std::string::npos);
  EXPECT_EQ(path.status().message().find('\n'), std::string::npos);
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

TEST(ManifestTest, LineFormatIsWhatTheLauncherParses) {
  EXPECT_EQ(FormatManifestLine(12, 7, "/tmp/r.sqlite"), "12\t7\t/tmp/r.sqlite\n");
}

TEST(ManifestTest, AppendsOneLinePerProcess) {
  TempDir dir;
  const std::string manifest = dir.path() + "/manifest";
  std::ofstream(manifest).close();  // the launcher creates it
  ASSERT_TRUE(AppendToManifest(manifest, FormatManifestLine(1, 0, "/a.sqlite")).ok());
  ASSERT_TRUE(AppendToManifest(manifest, FormatManifestLine(2, 1, "/b.sqlite")).ok());
  std::ifstream in(manifest);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "1\t0\t/a.sqlite\n2\t1\t/b.sqlite\n");
}

// The launcher removes the manifest once it has read it: a process that registers later
// gets an error and must not create a new file that nobody would ever remove.
TEST(ManifestTest, AManifestTheLauncherRemovedIsNotRecreated) {
  TempDir dir;
  const std::string manifest = dir.path() + "/manifest";
  Status status = AppendToManifest(manifest, FormatManifestLine(1, 0, "/a.sqlite"));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(manifest), std::string::npos) << status.message();
  EXPECT_NE(access(manifest.c_str(), F_OK), 0) << "the manifest was recreated";
}

TEST(ManifestTest, NoManifestPathDoesNothing) { EXPECT_TRUE(AppendToManifest("", "x\n").ok()); }

TEST(ManifestTest, UnwritableManifestIsAnError) {
  Status status = AppendToManifest("/nonexistent_gpuscope_dir/manifest", "1\t0\t/a\n");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/nonexistent_gpuscope_dir/manifest"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::inject
