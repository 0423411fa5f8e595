// A process killed while tracing (kill -9, abort, a crash) leaves a report holding every
// record up to its last flush; finalizing makes it one self-contained file.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

constexpr int kFlushed = 2500;    // kernels (and API calls) before the last flush
constexpr int kUnflushed = 1700;  // after it: lost with the process

enum class Death { kExit, kAbort, kKill };

// Forks a process that writes, flushes, writes more and dies without closing the report.
void WriteAndDie(const std::string& path, Death death) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto writer = ReportWriter::Create(path, false);
    if (!writer.ok()) _exit(2);
    for (int i = 0; i < kFlushed + kUnflushed; ++i) {
      if (i == kFlushed) writer.value()->Flush();
      writer.value()->OnKernel(testing::SampleKernel(i));
      writer.value()->OnApiCall(testing::SampleApiCall(i), false);
    }
    switch (death) {
      case Death::kExit:
        _exit(0);  // no destructors, no Close
      case Death::kAbort:
        signal(SIGABRT, SIG_DFL);
        abort();
      case Death::kKill:
        raise(SIGKILL);
    }
    _exit(3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  if (death == Death::kExit) {
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
  } else {
    ASSERT_TRUE(WIFSIGNALED(status));
  }
}

void ExpectFlushedRows(const std::string& path, bool finalized) {
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader.value()->finalized(), finalized);
  // Finalized or not, the report says that its writer never closed it: the process died.
  EXPECT_EQ(reader.value()->closed_by_writer(), std::optional<bool>(false));
  int kernels = 0;
  ASSERT_TRUE(reader.value()
                  ->ForEachKernel([&](const KernelRow& row) {
                    EXPECT_EQ(row.record.correlation_id,
                              testing::SampleKernel(kernels).correlation_id);
                    ++kernels;
                    return true;
                  })
                  .ok());
  EXPECT_EQ(kernels, kFlushed);
  EXPECT_EQ(reader.value()->CountRows("api_calls").value(), static_cast<std::uint64_t>(kFlushed));
  EXPECT_GT(reader.value()->process().end, 0u);  // the flush time
}

class CrashRecovery : public ::testing::TestWithParam<Death> {};

TEST_P(CrashRecovery, ReportHoldsEverythingUpToTheLastFlush) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  WriteAndDie(path, GetParam());
  // The state right after the crash: the database plus its write-ahead log.
  ASSERT_TRUE(test::FileExists(path + "-wal"));
  ExpectFlushedRows(path, /*finalized=*/false);

  ASSERT_TRUE(FinalizeReport(path).ok());
  EXPECT_FALSE(test::FileExists(path + "-wal"));
  EXPECT_FALSE(test::FileExists(path + "-shm"));
  ExpectFlushedRows(path, /*finalized=*/true);
  EXPECT_EQ(test::QueryText(path, "PRAGMA journal_mode"), "delete");
}

INSTANTIATE_TEST_SUITE_P(Deaths, CrashRecovery,
                         ::testing::Values(Death::kExit, Death::kAbort, Death::kKill));

// `gpuscope stats` may read a report whose program is still running: it sees the flushes.
TEST(LiveReport, ReaderSeesWhatTheRunningWriterFlushed) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  ASSERT_TRUE(writer.ok());
  for (int i = 0; i < 10; ++i) writer.value()->OnKernel(testing::SampleKernel(i));
  writer.value()->Flush();
  for (int i = 10; i < 15; ++i) writer.value()->OnKernel(testing::SampleKernel(i));
  {
    auto reader = ReportReader::Open(path);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    EXPECT_FALSE(reader.value()->finalized());
    EXPECT_EQ(reader.value()->CountRows("kernels").value(), 10u);
  }
  // Finalizing while the writer still has the report open is refused.
  Status finalized = FinalizeReport(path);
  ASSERT_FALSE(finalized.ok());
  EXPECT_EQ(finalized.message(),
            "cannot finalize report " + path + ": another process still has it open");
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'finalized'"), "0");
  ASSERT_TRUE(writer.value()->Close().ok());
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(reader.value()->CountRows("kernels").value(), 15u);
}

}  // namespace
}  // namespace gpuscope::store
