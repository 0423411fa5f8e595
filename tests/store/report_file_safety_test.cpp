// The report's file itself (store/report_file_create.h): never written through a symbolic
// link, and readable by its owner only (0600) whatever the umask, from creation (with its
// -wal and -shm) through closing and finalising, unless the umask's permissions are asked.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store/testing/scoped_umask.h"
#include "store/testing/scratch_dir.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

using testing::FileMode;
using testing::ScopedUmask;

constexpr const char* kPrecious = "someone's file, not a report";

int Mode(const std::string& path) { return FileMode(path.c_str()); }

// A file the link points at, and the link at the report path.
struct PlantedLink {
  explicit PlantedLink(const test::TempDir& dir)
      : target(dir.File("precious.txt")), link(dir.File("r.sqlite")) {
    test::WriteFileBytes(target,
                         std::vector<char>(kPrecious, kPrecious + std::string(kPrecious).size()));
    chmod(target.c_str(), 0644);
    EXPECT_EQ(symlink(target.c_str(), link.c_str()), 0);
  }
  std::string target;
  std::string link;
};

TEST(ReportFileSafety, ASymbolicLinkAtTheReportPathIsRefusedAndItsTargetUntouched) {
  for (bool overwrite : {false, true}) {
    SCOPED_TRACE(overwrite ? "with -f" : "without -f");
    test::TempDir dir;
    PlantedLink planted(dir);
    auto writer = ReportWriter::Create(planted.link, overwrite);
    ASSERT_FALSE(writer.ok());
    EXPECT_EQ(writer.status().message(), "report " + planted.link + " is a symbolic link to " +
                                             planted.target + "; not writing through it");
    EXPECT_EQ(ReadWholeFile(planted.target), kPrecious);
    EXPECT_EQ(Mode(planted.target), 0644);
    EXPECT_FALSE(test::FileExists(planted.link + "-wal"));
  }
}

TEST(ReportFileSafety, ALinkToAMissingFileCreatesNothingWhereItPoints) {
  test::TempDir dir;
  std::string missing = dir.File("elsewhere.sqlite");
  std::string link = dir.File("r.sqlite");
  ASSERT_EQ(symlink(missing.c_str(), link.c_str()), 0);
  auto writer = ReportWriter::Create(link, true);
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("is a symbolic link"), std::string::npos);
  EXPECT_FALSE(test::FileExists(missing));
}

// A -wal left as a link (to a file the attacker wants overwritten) is removed, not followed.
TEST(ReportFileSafety, CompanionFileLinksAreRemovedNotFollowed) {
  test::TempDir dir;
  std::string target = dir.File("precious.txt");
  test::WriteFileBytes(target,
                       std::vector<char>(kPrecious, kPrecious + std::string(kPrecious).size()));
  std::string path = dir.File("r.sqlite");
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    ASSERT_EQ(symlink(target.c_str(), (path + suffix).c_str()), 0);
  }
  auto writer = ReportWriter::Create(path, false);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  writer.value()->OnKernel(testing::SampleKernel(0));
  writer.value()->Flush();
  EXPECT_EQ(ReadWholeFile(target), kPrecious);
  EXPECT_EQ(Mode(path + "-wal"), 0600) << "a file of its own, not the link";
  ASSERT_TRUE(writer.value()->Close().ok());
  EXPECT_EQ(ReadWholeFile(target), kPrecious);
}

TEST(ReportFileSafety, ReportAndItsWalArePrivateFromCreationToFinalisation) {
  ScopedUmask umask_022(022);
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  writer.value()->OnKernel(testing::SampleKernel(0));
  writer.value()->Flush();
  EXPECT_EQ(Mode(path), 0600);
  EXPECT_EQ(Mode(path + "-wal"), 0600);
  EXPECT_EQ(Mode(path + "-shm"), 0600);
  ASSERT_TRUE(writer.value()->Close().ok());
  EXPECT_EQ(Mode(path), 0600);
  ASSERT_TRUE(FinalizeReport(path).ok());
  EXPECT_EQ(Mode(path), 0600);
}

// The writer died (kill -9) and the launcher finalises what it left: the WAL is folded into
// the file by another process, and the file stays private.
TEST(ReportFileSafety, AReportFinalisedAfterItsWriterDiedStaysPrivate) {
  ScopedUmask umask_022(022);
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto writer = ReportWriter::Create(path, false);
    if (!writer.ok()) _exit(2);
    writer.value()->OnKernel(testing::SampleKernel(0));
    writer.value()->Flush();
    _exit(0);  // no Close: the -wal stays
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_TRUE(test::FileExists(path + "-wal"));
  EXPECT_EQ(Mode(path + "-wal"), 0600);
  ASSERT_TRUE(FinalizeReport(path).ok());
  EXPECT_FALSE(test::FileExists(path + "-wal"));
  EXPECT_EQ(Mode(path), 0600);
  EXPECT_EQ(ReportReader::Open(path).value()->CountRows("kernels").value(), 1u);
}

TEST(ReportFileSafety, OverwritingAWorldReadableReportMakesItPrivate) {
  ScopedUmask umask_022(022);
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  test::WriteFileBytes(path, {'o', 'l', 'd'});
  ASSERT_EQ(chmod(path.c_str(), 0644), 0);
  auto writer = ReportWriter::Create(path, /*overwrite=*/true);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  EXPECT_EQ(Mode(path), 0600);
  ASSERT_TRUE(writer.value()->Close().ok());
  EXPECT_EQ(Mode(path), 0600);
}

TEST(ReportFileSafety, UmaskPermissionsWhenAsked) {
  ScopedUmask umask_027(027);
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false, ReportPermissions::kUmask);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  writer.value()->Flush();
  EXPECT_EQ(Mode(path), 0640);
  EXPECT_EQ(Mode(path + "-wal"), 0640);
  ASSERT_TRUE(writer.value()->Close().ok());
  EXPECT_EQ(Mode(path), 0640);

  // An existing file replaced with -f keeps the mode it had.
  ASSERT_EQ(chmod(path.c_str(), 0604), 0);
  auto again = ReportWriter::Create(path, true, ReportPermissions::kUmask);
  ASSERT_TRUE(again.ok()) << again.status().message();
  ASSERT_TRUE(again.value()->Close().ok());
  EXPECT_EQ(Mode(path), 0604);
}

// A FIFO at the path (no reader) must neither hang the traced program nor be written.
TEST(ReportFileSafety, AFifoAtTheReportPathIsRefusedWithoutWaiting) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  auto writer = ReportWriter::Create(path, true);
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(writer.status().message(), "report " + path + " is not a regular file");
}

TEST(ReportFileSafety, TheFinalizerDoesNotWriteThroughALink) {
  test::TempDir dir;
  std::string report = dir.File("real.sqlite");
  {
    auto writer = ReportWriter::Create(report, false);
    ASSERT_TRUE(writer.ok());
    writer.value()->Flush();
  }
  std::string link = dir.File("link.sqlite");
  ASSERT_EQ(symlink(report.c_str(), link.c_str()), 0);
  Status finalized = FinalizeReport(link);
  ASSERT_FALSE(finalized.ok());
  EXPECT_EQ(finalized.message(),
            "report " + link + " is a symbolic link to " + report + "; not writing through it");
}

}  // namespace
}  // namespace gpuscope::store
