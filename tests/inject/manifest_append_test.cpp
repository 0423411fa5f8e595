#include "inject/manifest_append.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "contract/manifest_line.h"
#include "temp_dir.h"

namespace gpuscope::inject {
namespace {

using testing::TempDir;

TEST(ManifestAppendTest, AppendsOneLinePerProcess) {
  TempDir dir;
  const std::string manifest = dir.path() + "/manifest";
  std::ofstream(manifest).close();  // the launcher creates it
  ASSERT_TRUE(AppendToManifest(manifest, contract::FormatManifestLine({1, 0, "/a.sqlite"})).ok());
  ASSERT_TRUE(AppendToManifest(manifest, contract::FormatManifestLine({2, 1, "/b.sqlite"})).ok());
  std::ifstream in(manifest);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "1\t0\t/a.sqlite\n2\t1\t/b.sqlite\n");
}

// The launcher removes the manifest once it has read it: a process that registers later
// gets an error and must not create a new file that nobody would ever remove.
TEST(ManifestAppendTest, AManifestTheLauncherRemovedIsNotRecreated) {
  TempDir dir;
  const std::string manifest = dir.path() + "/manifest";
  Status status = AppendToManifest(manifest, contract::FormatManifestLine({1, 0, "/a.sqlite"}));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(manifest), std::string::npos) << status.message();
  EXPECT_NE(access(manifest.c_str(), F_OK), 0) << "the manifest was recreated";
}

TEST(ManifestAppendTest, NoManifestPathDoesNothing) {
  EXPECT_TRUE(AppendToManifest("", "x\n").ok());
}

TEST(ManifestAppendTest, UnwritableManifestIsAnError) {
  Status status = AppendToManifest("/nonexistent_gpuscope_dir/manifest", "1\t0\t/a\n");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/nonexistent_gpuscope_dir/manifest"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::inject
