// The writer's own behaviour: name interning and demangling, relative times, counters,
// creating and overwriting files, and what happens when the disk refuses a write.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store/testing/synthetic_trace.h"
#include "store_test_util.h"
#include "util/demangle.h"

namespace gpuscope::store {
namespace {

constexpr model::Timestamp kT0 = testing::kSampleStart;

TEST(Writer, InternsEachNameOnceAndDemanglesKernelNames) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    // "_Z3addiiPi" is first seen as an API name, later as a kernel name.
    model::ApiCallRecord odd = testing::SampleApiCall(0);
    odd.name = "_Z3addiiPi";
    writer.value()->OnApiCall(odd, false);
    for (int i = 0; i < 300; ++i) {
      // Each record gets its own copy of the name: interning must not rely on pointers.
      model::KernelRecord kernel = testing::SampleKernel(i);
      std::string name(kernel.mangled_name);
      kernel.mangled_name = name;
      writer.value()->OnKernel(kernel);
      writer.value()->OnApiCall(testing::SampleApiCall(i), false);
    }
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  // 3 kernel names and 3 API names, "_Z3addiiPi" among both, stored once.
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM strings"), 6);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM strings WHERE demangled IS NOT NULL"), 3);
  EXPECT_EQ(test::QueryText(path, "SELECT demangled FROM strings WHERE value = '_Z3addiiPi'"),
            "add(int, int, int*)");
  EXPECT_EQ(
      test::QueryText(path, "SELECT demangled FROM strings WHERE value = '_Z6vecAddPKfS0_Pfi'"),
      Demangle("_Z6vecAddPKfS0_Pfi"));
  // Not a mangled name: demangled equals the name.
  EXPECT_EQ(
      test::QueryText(path, "SELECT demangled FROM strings WHERE value = 'triton_poi_fused_0'"),
      "triton_poi_fused_0");
  EXPECT_EQ(test::QueryText(path,
                            "SELECT demangled IS NULL FROM strings WHERE value = "
                            "'cudaLaunchKernel'"),
            "1");
  EXPECT_EQ(test::QueryInt(path, "SELECT count(DISTINCT name_id) FROM kernels"), 3);
}

TEST(Writer, StoresTimesRelativeToTheFirstTimestamp) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  model::KernelRecord first = testing::SampleKernel(0);
  model::KernelRecord earlier = testing::SampleKernel(1);
  earlier.start = first.start - 1'000'000;  // arrives later, happened earlier
  earlier.end = first.start - 10;
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    writer.value()->OnKernel(first);
    writer.value()->OnKernel(earlier);
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'time_base_ns'"),
            std::to_string(first.start));
  EXPECT_EQ(test::QueryInt(path, "SELECT start FROM kernels WHERE id = 1"), 0);
  EXPECT_EQ(test::QueryInt(path, "SELECT \"end\" FROM kernels WHERE id = 1"),
            static_cast<std::int64_t>(first.end - first.start));
  EXPECT_EQ(test::QueryInt(path, "SELECT start FROM kernels WHERE id = 2"), -1'000'000);
  EXPECT_EQ(test::QueryText(path, "SELECT typeof(start) FROM kernels WHERE id = 2"), "integer");
  // Relative times are small: SQLite stores them in at most 6 bytes.
  EXPECT_EQ(test::QueryInt(path, "SELECT max(abs(start)) < (1 << 47) FROM kernels"), 1);

  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader.value()->time_base(), first.start);
  std::vector<model::Timestamp> starts;
  ASSERT_TRUE(reader.value()
                  ->ForEachKernel([&](const KernelRow& row) {
                    starts.push_back(row.record.start);
                    return true;
                  })
                  .ok());
  EXPECT_EQ(starts, (std::vector<model::Timestamp>{earlier.start, first.start}));
}

TEST(Writer, LatestCountersWin) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  ASSERT_TRUE(writer.ok());
  model::CollectionCounters counters;
  counters.dropped_records = 5;
  writer.value()->OnCounters(counters);
  writer.value()->Flush();
  EXPECT_EQ(test::QueryInt(path, "SELECT value FROM counters WHERE name = 'dropped_records'"), 5);
  counters.dropped_records = 9;
  counters.unfinished_nvtx_ranges = 2;
  writer.value()->OnCounters(counters);
  ASSERT_TRUE(writer.value()->Close().ok());
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(reader.value()->counters().dropped_records, 9u);
  EXPECT_EQ(reader.value()->counters().unfinished_nvtx_ranges, 2u);
}

TEST(Writer, RefusesToOverwriteUnlessAsked) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    writer.value()->OnKernel(testing::SampleKernel(0));
  }
  auto again = ReportWriter::Create(path, false);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), "report " + path + " already exists");

  test::WriteFileBytes(path + "-wal", {'s', 't', 'a', 'l', 'e'});  // must not be applied
  auto replaced = ReportWriter::Create(path, true);
  ASSERT_TRUE(replaced.ok()) << replaced.status().message();
  ASSERT_TRUE(replaced.value()->Close().ok());
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernels"), 0);
  EXPECT_FALSE(test::FileExists(path + "-wal"));
}

// The injection claims a report name with an empty O_EXCL placeholder and then creates the
// report over it. The name must stay claimed throughout: the writer empties the file in
// place instead of unlinking it, so the placeholder's inode is the finished report's.
TEST(Writer, OverwritingKeepsTheClaimedFile) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  ASSERT_GE(fd, 0);
  // Held open, the placeholder's inode cannot be freed and reused for a new file: equal
  // inode numbers then mean the same file, and a link count of 1 that it was never unlinked.
  struct stat placeholder {};
  ASSERT_EQ(fstat(fd, &placeholder), 0);
  {
    auto writer = ReportWriter::Create(path, /*overwrite=*/true);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    writer.value()->OnKernel(testing::SampleKernel(0));
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  struct stat report {};
  ASSERT_EQ(stat(path.c_str(), &report), 0);
  EXPECT_EQ(report.st_ino, placeholder.st_ino);
  struct stat held {};
  ASSERT_EQ(fstat(fd, &held), 0);
  EXPECT_EQ(held.st_nlink, 1u) << "the placeholder was unlinked";
  close(fd);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernels"), 1);

  // A file with content (an earlier report) is really overwritten, in place too.
  fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  {
    auto writer = ReportWriter::Create(path, /*overwrite=*/true);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  ASSERT_EQ(stat(path.c_str(), &report), 0);
  EXPECT_EQ(report.st_ino, placeholder.st_ino);
  close(fd);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernels"), 0);
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();

  // Not a report at all: replaced by one.
  test::WriteFileBytes(path, std::vector<char>(10000, 'x'));
  {
    auto writer = ReportWriter::Create(path, /*overwrite=*/true);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  EXPECT_TRUE(ReportReader::Open(path).ok());
}

// Create on a disk that refuses every write: the database opens, the schema cannot be
// written, and Create must return that error - the writer's destructor used to touch the
// statements that were never prepared (a crash inside the traced program's cuInit).
TEST(Writer, CreateOnAFullDiskIsAnErrorNotACrash) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the limit must not leak into the test process
    close(pipe_fds[0]);
    signal(SIGXFSZ, SIG_IGN);  // writes fail with EFBIG instead of killing the process
    rlimit limit{0, 0};
    setrlimit(RLIMIT_FSIZE, &limit);
    auto writer = ReportWriter::Create(path, false);
    std::string message = writer.ok() ? "created" : writer.status().message();
    if (write(pipe_fds[1], message.data(), message.size()) < 0) _exit(3);
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[1024];
  ssize_t got;
  while ((got = read(pipe_fds[0], buffer, sizeof(buffer))) > 0) message.append(buffer, got);
  close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(message.rfind("cannot create report " + path + ": ", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(Writer, UnwritablePlaceIsAOneLineError) {
  test::TempDir dir;
  std::string path = dir.File("no/such/dir/r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  ASSERT_FALSE(writer.ok());
  const std::string& message = writer.status().message();
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_NE(message.find("cannot create report " + path), std::string::npos) << message;

  std::string directory = dir.File("a_directory");
  ASSERT_EQ(mkdir(directory.c_str(), 0755), 0);
  auto over_directory = ReportWriter::Create(directory, true);
  ASSERT_FALSE(over_directory.ok());
  EXPECT_NE(over_directory.status().message().find("is a directory"), std::string::npos);
}

TEST(Writer, RecordsAfterCloseAreCountedNotLost) {
  test::TempDir dir;
  auto writer = ReportWriter::Create(dir.File("r.sqlite"), false);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer.value()->Close().ok());
  writer.value()->OnKernel(testing::SampleKernel(0));
  writer.value()->Flush();
  EXPECT_EQ(writer.value()->records_not_written(), 1u);
  EXPECT_TRUE(writer.value()->Close().ok());  // idempotent
}

// A disk that refuses writes (here: a file-size limit) must not crash the traced program,
// and every record must end up either in the report or in records_not_written.
TEST(Writer, WriteErrorsStopTheWriterAndCountEveryLostRecord) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  constexpr std::uint64_t kKernels = 200'000;
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipe_fds[0]);
    signal(SIGXFSZ, SIG_IGN);  // writes past the limit fail with EFBIG instead
    rlimit limit{2 << 20, 2 << 20};
    setrlimit(RLIMIT_FSIZE, &limit);
    auto writer = ReportWriter::Create(path, false);
    if (!writer.ok()) _exit(2);
    testing::SyntheticTraceOptions options;
    options.kernels = kKernels;
    options.flush_every_kernels = 1000;
    testing::WriteSyntheticTrace(*writer.value(), options);
    Status closed = writer.value()->Close();
    std::uint64_t lost = writer.value()->records_not_written();
    bool one_line = closed.message().find('\n') == std::string::npos &&
                    closed.message().find(path) != std::string::npos;
    if (write(pipe_fds[1], &lost, sizeof(lost)) != sizeof(lost)) _exit(3);
    _exit(!closed.ok() && one_line ? 0 : 4);
  }
  close(pipe_fds[1]);
  std::uint64_t lost = 0;
  ASSERT_EQ(read(pipe_fds[0], &lost, sizeof(lost)), static_cast<ssize_t>(sizeof(lost)));
  close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << "the writer did not report the error as one line";
  EXPECT_GT(lost, 0u);

  ASSERT_TRUE(FinalizeReport(path).ok());
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::uint64_t kept =
      reader.value()->CountRows("kernels").value() + reader.value()->CountRows("api_calls").value();
  EXPECT_GT(kept, 0u);
  // Process, device, context and stream records, then two records per kernel.
  EXPECT_EQ(kept + lost + 4, 2 * kKernels + 4);
}

}  // namespace
}  // namespace gpuscope::store
