// The writer on a filesystem that fills up mid-run: a real tmpfs of 2 MiB in a private mount
// namespace (store/testing/small_filesystem.h). It stops at the first ENOSPC, says so once,
// counts every record it could not store by table, stores the counts, and what it committed
// stays a self-contained readable report. Skipped, with the reason, where this machine cannot
// mount a tmpfs (full_disk_vfs_test.cpp covers the same logic everywhere).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/small_filesystem.h"
#include "store/testing/synthetic_trace.h"
#include "util/status.h"
#include "writer_failure_check.h"

namespace gpuscope::store {
namespace {

constexpr std::uint64_t kFilesystemBytes = 2 << 20;

// Fills whatever space is left in `dir` (another program filling the disk).
void FillTheRest(const std::string& dir) {
  int fd = open((dir + "/filler").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return;
  std::vector<char> block(64 * 1024, 'x');
  while (write(fd, block.data(), block.size()) > 0) {
  }
  std::vector<char> byte(1, 'x');
  while (write(fd, byte.data(), 1) > 0) {
  }
  close(fd);
}

std::string RunOrSkip(std::uint64_t bytes, const std::function<std::string(const std::string&)>& body,
                      bool* skipped) {
  testing::SmallFilesystemRun run = testing::RunInSmallFilesystem(bytes, body);
  *skipped = !run.ran;
  if (!run.ran) return run.why_not;
  EXPECT_EQ(run.died_of_signal, 0) << "the writer crashed; stderr:\n" << run.stderr_text;
  EXPECT_EQ(run.exit_code, 0) << run.stderr_text;
  return run.result;
}

// The report alone fills the filesystem: the writer stops while its reserve still lets it
// complete the report.
TEST(FullFilesystem, TheReportFillingTheDiskStopsTheWriterAndKeepsTheCommittedPart) {
  bool skipped = false;
  std::string result = RunOrSkip(kFilesystemBytes, [](const std::string& dir) {
    return test::WriteUntilFull(dir + "/r.sqlite", 400'000, /*fill_after_flushes=*/0, nullptr);
  }, &skipped);
  if (skipped) GTEST_SKIP() << "no tmpfs in a private mount namespace here: " << result;
  test::ExpectCompleteAccount(result, 400'000);
}

// Something else fills the filesystem: SQLite's own write fails (SQLITE_FULL) in the middle
// of a transaction. The filler runs after two flushes, while the report and its reserve
// (twice the log) still fit in the filesystem with room to spare: later, the report's own
// growth would stop the writer first, through the reserve, and this case would not be seen.
TEST(FullFilesystem, ADiskFilledByAnotherProgramStopsTheWriterAndKeepsTheCommittedPart) {
  bool skipped = false;
  std::string result = RunOrSkip(kFilesystemBytes, [](const std::string& dir) {
    return test::WriteUntilFull(dir + "/r.sqlite", 400'000, /*fill_after_flushes=*/2,
                                [dir] { FillTheRest(dir); });
  }, &skipped);
  if (skipped) GTEST_SKIP() << "no tmpfs in a private mount namespace here: " << result;
  test::ExpectCompleteAccount(result, 400'000);
  EXPECT_NE(result.find("database or disk is full"), std::string::npos) << result;
}

// A launch-bound program fills the disk before the first flush (GpuLoad on the H100: 3 M
// launches, a 4 MiB report directory, 0 kernels kept of 9 M records): the writer bounds each
// transaction by the free space, so what fitted before the disk filled is committed and kept.
TEST(FullFilesystem, ADiskFilledWithinTheFirstFlushIntervalKeepsWhatFitted) {
  bool skipped = false;
  std::string result = RunOrSkip(kFilesystemBytes, [](const std::string& dir) {
    return test::WriteUntilFull(dir + "/r.sqlite", 200'000, /*fill_after_flushes=*/0, nullptr,
                                /*kernels_per_flush=*/200'000);
  }, &skipped);
  if (skipped) GTEST_SKIP() << "no tmpfs in a private mount namespace here: " << result;
  test::ExpectCompleteAccount(result, 200'000);
}

// A flush interval whose records need the disk twice over (a launch-bound program between two
// flushes, as on the GPU). Once it was one commit that grew the log past what the disk could
// hold twice, and the report stayed its file plus a log with no room to fold; the writer now
// commits it in parts bounded by the free space, so the reserve always covers the log and the
// report ends folded into one file.
TEST(FullFilesystem, AFlushIntervalLargerThanTheDiskIsCommittedInPartsAndFolded) {
  bool skipped = false;
  std::string result = RunOrSkip(kFilesystemBytes, [](const std::string& dir) {
    return test::WriteUntilFull(dir + "/r.sqlite", 40'000, /*fill_after_flushes=*/0, nullptr,
                                /*kernels_per_flush=*/12'000);
  }, &skipped);
  if (skipped) GTEST_SKIP() << "no tmpfs in a private mount namespace here: " << result;
  test::ExpectCompleteAccount(result, 40'000);
}

}  // namespace
}  // namespace gpuscope::store
