// OutputFile and the claim checks it shares with run's pre-start checks (output_claim.h).
#include "cli/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "sample_report.h"
#include "temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::FileExists;
using testing::ReadFile;
using testing::TempDir;

std::size_t EntriesIn(const std::string& dir) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++count;
  return count;
}

std::unique_ptr<OutputFile> Create(const std::string& path, bool force) {
  StatusOr<std::unique_ptr<OutputFile>> file =
      OutputFile::Create(OutputClaim(path, "the test output", {}, force));
  EXPECT_TRUE(file.ok()) << file.status().message();
  return file.ok() ? std::move(file.value()) : nullptr;
}

TEST(OutputFile, NothingAppearsBeforeCommitAndNothingIsLeftWithout) {
  TempDir dir;
  std::string path = dir.File("out.txt");
  {
    std::unique_ptr<OutputFile> file = Create(path, false);
    ASSERT_NE(file, nullptr);
    file->stream() << "half";
    EXPECT_FALSE(FileExists(path));
  }
  EXPECT_FALSE(FileExists(path));
  EXPECT_EQ(EntriesIn(dir.path()), 0u);
}

TEST(OutputFile, CommitReplacesTheFileKeepingItsPermissionsAndSymlinks) {
  TempDir dir;
  std::string target = dir.Write("target.txt", "old\n", 0640);
  std::string link = dir.File("link.txt");
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  std::unique_ptr<OutputFile> file = Create(link, true);
  ASSERT_NE(file, nullptr);
  file->stream() << "new\n";
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(ReadFile(target), "new\n");
  struct stat info {};
  ASSERT_EQ(lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  ASSERT_EQ(stat(target.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
  EXPECT_EQ(EntriesIn(dir.path()), 2u);
}

// What appeared at the path while the output was written is protected as it would have
// been at the start.
TEST(OutputFile, CommitChecksTheClaimAgain) {
  TempDir dir;
  std::string path = dir.File("out.sqlite");
  std::unique_ptr<OutputFile> file = Create(path, true);
  ASSERT_NE(file, nullptr);
  testing::WriteAddProgramReport(path, 4242);
  Status committed = file->Commit();
  EXPECT_EQ(committed.message(),
            path + " is a gpuscope report; not overwriting it with the test output");
  file.reset();
  EXPECT_EQ(EntriesIn(dir.path()), 1u);
}

TEST(OutputClaim, SameFileWhicheverWayItIsSpelt) {
  TempDir dir;
  std::string file = dir.Write("a.txt", "x");
  ASSERT_EQ(mkdir(dir.File("sub").c_str(), 0755), 0);
  EXPECT_TRUE(SameFile(file, dir.File("sub/../a.txt")));
  EXPECT_TRUE(SameFile(file, dir.File("./a.txt")));
  EXPECT_FALSE(SameFile(file, dir.File("b.txt")));
  // Neither exists yet: compared by spelling.
  EXPECT_TRUE(SameFile(dir.File("new.txt"), dir.File("sub/../new.txt")));
  EXPECT_FALSE(SameFile(dir.File("new.txt"), dir.File("sub/new.txt")));
}

}  // namespace
}  // namespace gpuscope::cli
