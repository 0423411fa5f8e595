// OutputFile and the claim checks it shares with run's pre-start checks (output_claim.h).
#include "cli/output/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::FileExists;
using testing::ReadWholeFile;
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
  EXPECT_EQ(ReadWholeFile(target), "new\n");
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

// Following a link to a missing file would create the output wherever the link's maker
// chose; replacing it would turn the user's link into a file. Refused either way, like
// GNU cp's "not writing through dangling symlink".
TEST(OutputFile, ALinkToAMissingFileIsRefusedWithOrWithoutForce) {
  for (bool force : {false, true}) {
    TempDir dir;
    std::string missing = dir.File("planted.txt");
    std::string link = dir.File("out.txt");
    ASSERT_EQ(symlink(missing.c_str(), link.c_str()), 0);
    StatusOr<std::unique_ptr<OutputFile>> file =
        OutputFile::Create(OutputClaim(link, "the test output", {}, force));
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.status().message(), link + " is a symbolic link to " + missing +
                                           ", which names no existing file; not writing "
                                           "through it");
    EXPECT_FALSE(FileExists(missing));
    EXPECT_EQ(EntriesIn(dir.path()), 1u) << "the link alone, no temporary file";
  }
}

// A link retargeted while the output was written: the checks at Commit are about the new
// target, so the output must not land on the old one unchecked.
TEST(OutputFile, ALinkRetargetedWhileWritingIsNotCommitted) {
  TempDir dir;
  std::string first = dir.Write("first.txt", "first\n");
  std::string second = dir.Write("second.txt", "second\n");
  std::string link = dir.File("out.txt");
  ASSERT_EQ(symlink(first.c_str(), link.c_str()), 0);
  std::unique_ptr<OutputFile> file = Create(link, true);
  ASSERT_NE(file, nullptr);
  file->stream() << "new\n";
  ASSERT_EQ(unlink(link.c_str()), 0);
  ASSERT_EQ(symlink(second.c_str(), link.c_str()), 0);
  Status committed = file->Commit();
  EXPECT_EQ(committed.message(),
            link + " was changed to name another file while it was written; not writing it");
  file.reset();
  EXPECT_EQ(ReadWholeFile(first), "first\n");
  EXPECT_EQ(ReadWholeFile(second), "second\n");
  EXPECT_EQ(EntriesIn(dir.path()), 3u);
}

// A report output (run/profile -o) is never a link, even to a report and even with -f.
TEST(OutputClaim, AReportIsNeverWrittenThroughALink) {
  TempDir dir;
  std::string target = dir.File("old.sqlite");
  testing::WriteAddProgramReport(target, 4242);
  std::string link = dir.File("r.sqlite");
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  OutputClaim claim(link, "the report", {}, /*force_overwrite=*/true);
  claim.output_is_report = true;
  EXPECT_EQ(CheckOutputClaim(claim).message(),
            "report " + link + " is a symbolic link to " + target + "; not writing through it");
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
