#include "cli/launch/manifest_file.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

TEST(Manifest, ParsesLinesAndPutsTheRootFirst) {
  Manifest manifest = ParseManifest(
      "722\t713\t/w/r_722.sqlite\n"
      "713\t100\t/w/r_713.sqlite\n"
      "730\t713\t/w/with\ttab.sqlite\n",
      713);
  ASSERT_EQ(manifest.entries.size(), 3u);
  EXPECT_EQ(manifest.entries[0].pid, 713u);
  EXPECT_EQ(manifest.entries[0].parent_pid, 100u);
  EXPECT_EQ(manifest.entries[0].report_path, "/w/r_713.sqlite");
  EXPECT_EQ(manifest.entries[1].pid, 722u);
  EXPECT_EQ(manifest.entries[2].report_path, "/w/with\ttab.sqlite");
  EXPECT_TRUE(manifest.malformed_lines.empty());
}

TEST(Manifest, ChildrenOnlyKeepTheirOrder) {
  // The root never initialised CUDA; its children did.
  Manifest manifest = ParseManifest("9\t1\t/a\n8\t1\t/b\n", 1);
  ASSERT_EQ(manifest.entries.size(), 2u);
  EXPECT_EQ(manifest.entries[0].report_path, "/a");
  EXPECT_EQ(manifest.entries[1].report_path, "/b");
}

TEST(Manifest, ReportsMalformedAndCutLinesInsteadOfDroppingThem) {
  Manifest manifest = ParseManifest(
      "1\t0\t/ok.sqlite\n"
      "garbage\n"
      "x\t0\t/bad_pid\n"
      "2\t0\t\n"
      "3\t0\t/cut_short",
      1);
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_EQ(manifest.entries[0].report_path, "/ok.sqlite");
  EXPECT_EQ(manifest.malformed_lines,
            (std::vector<std::string>{"garbage", "x\t0\t/bad_pid", "2\t0\t", "3\t0\t/cut_short"}));
}

TEST(Manifest, AReportListedTwiceAppearsOnce) {
  Manifest manifest = ParseManifest("5\t1\t/r.sqlite\n5\t1\t/r.sqlite\n", 5);
  EXPECT_EQ(manifest.entries.size(), 1u);
}

TEST(Manifest, EmptyManifestHasNoEntries) {
  Manifest manifest = ParseManifest("", 1);
  EXPECT_TRUE(manifest.entries.empty());
  EXPECT_TRUE(manifest.malformed_lines.empty());
}

TEST(Manifest, CreatesAnEmptyPrivateFileInTmpdirAndReadsItBack) {
  testing::TempDir dir;
  const char* previous = std::getenv("TMPDIR");
  std::string saved = previous != nullptr ? previous : "";
  setenv("TMPDIR", dir.path().c_str(), 1);
  StatusOr<std::string> path = CreateManifestFile();
  if (previous != nullptr) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(path->rfind(dir.path() + "/gpuscope-manifest-", 0), 0u) << path.value();
  EXPECT_EQ(testing::ReadWholeFile(path.value()), "");

  dir.Write(path->substr(dir.path().size() + 1), "42\t1\t/r.sqlite\n");
  StatusOr<Manifest> manifest = TakeManifest(path.value(), 42);
  ASSERT_TRUE(manifest.ok());
  ASSERT_EQ(manifest->entries.size(), 1u);
  EXPECT_EQ(manifest->entries[0].pid, 42u);
  // Taken: a process registering later finds no file (and does not create one).
  EXPECT_FALSE(testing::FileExists(path.value()));
}

TEST(Manifest, MissingFileIsAnError) {
  testing::TempDir dir;
  EXPECT_FALSE(TakeManifest(dir.File("none"), 1).ok());
}

}  // namespace
}  // namespace gpuscope::cli
