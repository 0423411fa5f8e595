// Outputs never destroy inputs (issue 14), through the real binary: every command that
// writes a file refuses to write over a file it reads (however the path is spelt), replaces
// an existing file only with its force option, never replaces a gpuscope report with
// anything else, and leaves the old file whole when the write fails or is cut short.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/securebits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <thread>

#include "../../store/without_permission_override.h"
#include "../../support/gpuscope_process.h"
#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::FileExists;
using testing::Finished;
using testing::ReadWholeFile;
using testing::RunGpuscope;
using testing::TempDir;

// One command that writes a file: how to ask it to write `output` from `input`.
struct Writer {
  std::string name;
  std::string force;  // its force-overwrite option
  std::string what;   // how its refusals name the output
  std::function<std::vector<std::string>(const std::string& output, const std::string& input)> args;
  bool reads_input = true;  // occupancy reads no file
};

// gtest names a parameter by this instead of its bytes.
void PrintTo(const Writer& writer, std::ostream* out) { *out << writer.name; }

std::string Copy(const std::string& from, const std::string& to) {
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
  return to;
}

// roofline needs profiled kernels; the others take the sample trace.
std::string InputFor(const Writer& writer, const TempDir& dir) {
  if (writer.name == "roofline") {
    return Copy(std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_metrics_full.sqlite",
                dir.File("profiled.sqlite"));
  }
  std::string path = dir.File("input.sqlite");
  testing::WriteAddProgramReport(path, 4242);
  return path;
}

std::vector<Writer> Writers() {
  return {
      {"report", "-f", "the HTML report",
       [](const std::string& out, const std::string& in) {
         return std::vector<std::string>{"report", in, "-o", out};
       }},
      {"export_chrome", "-f", "the Chrome trace",
       [](const std::string& out, const std::string& in) {
         return std::vector<std::string>{"export", "-o", out, in};
       }},
      {"roofline", "-f", "the SVG",
       [](const std::string& out, const std::string& in) {
         return std::vector<std::string>{"roofline", "--svg", out, in};
       }},
      {"occupancy", "-f", "the SVG",
       [](const std::string& out, const std::string&) {
         return std::vector<std::string>{"occupancy", "--cc", "9.0",   "--threads", "256",
                                         "--regs",    "32",   "--svg", out};
       },
       /*reads_input=*/false},
  };
}

std::vector<std::string> With(std::vector<std::string> args, const std::string& option) {
  args.push_back(option);
  return args;
}

// One line on stderr, exit 1: how every refusal ends.
void ExpectRefusal(const Finished& ran, const std::string& message) {
  EXPECT_EQ(ran.exit_code, 1) << ran.err;
  EXPECT_EQ(ran.err, "gpuscope: error: " + message + "\n");
}

// No ".<name>.gpuscope-*" temporary file is left in `dir`.
void ExpectNoTemporaryFiles(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().find(".gpuscope-"), std::string::npos)
        << entry.path();
  }
}

class OutputFiles : public ::testing::TestWithParam<Writer> {
 protected:
  TempDir dir_;
};
// The commands among them that read reports.
class OutputFilesOfReaders : public OutputFiles {};

std::vector<Writer> Readers() {
  std::vector<Writer> readers;
  for (const Writer& writer : Writers()) {
    if (writer.reads_input) readers.push_back(writer);
  }
  return readers;
}

TEST_P(OutputFilesOfReaders, OutputThatIsTheInputIsRefusedEvenWithForce) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  const std::string before = ReadWholeFile(input);
  for (bool force : {false, true}) {
    std::vector<std::string> args = writer.args(input, input);
    Finished ran = RunGpuscope(force ? With(args, writer.force) : args);
    ExpectRefusal(ran,
                  input + " is an input of this command; not overwriting it with " + writer.what);
    EXPECT_TRUE(ReadWholeFile(input) == before) << writer.name << ": the input changed";
  }
  ExpectNoTemporaryFiles(dir_.path());
}

TEST_P(OutputFilesOfReaders, OutputThatNamesTheInputAnotherWayIsRefused) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  const std::string before = ReadWholeFile(input);
  ASSERT_EQ(symlink(input.c_str(), dir_.File("link.out").c_str()), 0);
  ASSERT_EQ(mkdir(dir_.File("sub").c_str(), 0755), 0);
  ASSERT_EQ(link(input.c_str(), dir_.File("hard.out").c_str()), 0);
  std::string name = std::filesystem::path(input).filename().string();
  for (const std::string& output :
       {dir_.File("link.out"), dir_.File("sub/../" + name), dir_.File("hard.out")}) {
    Finished ran = RunGpuscope(With(writer.args(output, input), writer.force));
    ExpectRefusal(ran, output + " is the same file as the input " + input +
                           "; not overwriting it with " + writer.what);
    EXPECT_TRUE(ReadWholeFile(input) == before) << writer.name << " through " << output;
  }
  ExpectNoTemporaryFiles(dir_.path());
}

// A report is replaced by nothing but a report: an output path that names one is a typo.
TEST_P(OutputFiles, AnotherReportIsNeverOverwritten) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  std::string other = dir_.File("other.sqlite");
  testing::WriteAddProgramReport(other, 5151);
  const std::string before = ReadWholeFile(other);
  for (bool force : {false, true}) {
    std::vector<std::string> args = writer.args(other, input);
    Finished ran = RunGpuscope(force ? With(args, writer.force) : args);
    ExpectRefusal(ran, other + " is a gpuscope report; not overwriting it with " + writer.what);
    EXPECT_TRUE(ReadWholeFile(other) == before) << writer.name << ": the report changed";
  }
}

TEST_P(OutputFiles, ExistingFileIsReplacedOnlyWithForce) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  std::string output = dir_.Write("existing.out", "an earlier output\n");
  Finished ran = RunGpuscope(writer.args(output, input));
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_NE(ran.err.find(output + " already exists (use " + writer.force), std::string::npos)
      << ran.err;
  EXPECT_TRUE(ReadWholeFile(output) == "an earlier output\n") << writer.name << " replaced it";

  ran = RunGpuscope(With(writer.args(output, input), writer.force));
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_FALSE(ReadWholeFile(output) == "an earlier output\n") << writer.name << " did not replace it";
  ExpectNoTemporaryFiles(dir_.path());
}

// Reads a FIFO to its end on a thread: the reader a writer into the FIFO waits for.
class FifoReader {
 public:
  explicit FifoReader(const std::string& path)
      : path_(path), thread_([this] { text_ = ReadWholeFile(path_); }) {}
  // After the writer ended: a reader still waiting for one (the writer refused) is let go.
  std::string Finish() {
    int fd = open(path_.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) close(fd);
    thread_.join();
    return text_;
  }

 private:
  std::string path_;
  std::string text_;
  std::thread thread_;
};

bool IsFifo(const std::string& path, bool follow) {
  struct stat info {};
  return (follow ? stat(path.c_str(), &info) : lstat(path.c_str(), &info)) == 0 &&
         S_ISFIFO(info.st_mode);
}

// A FIFO, or a link to one, is written into as a stream, as the shell's > does: it stays a
// FIFO and the link a link. Renaming over it would have replaced them with regular files.
TEST_P(OutputFiles, FifoIsWrittenIntoAndStaysAFifo) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  std::string fifo = dir_.File("out.fifo");
  std::string link = dir_.File("out.link");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(symlink(fifo.c_str(), link.c_str()), 0);
  for (const std::string& output : {fifo, link}) {
    for (bool force : {false, true}) {  // nothing is replaced: -f is not needed
      FifoReader reader(fifo);
      std::vector<std::string> args = writer.args(output, input);
      Finished ran = RunGpuscope(force ? With(args, writer.force) : args);
      std::string written = reader.Finish();
      EXPECT_EQ(ran.exit_code, 0) << writer.name << " into " << output << ": " << ran.err;
      EXPECT_GT(written.size(), 100u) << writer.name << " into " << output;
      EXPECT_TRUE(IsFifo(fifo, /*follow=*/false)) << writer.name << " replaced the FIFO";
      EXPECT_TRUE(IsFifo(link, /*follow=*/true)) << writer.name << " replaced the link";
    }
  }
  ExpectNoTemporaryFiles(dir_.path());
}

// /dev/stdout and /proc/self/fd/1 are links to whatever standard output is (a pipe here):
// the output goes there, the notice "wrote ..." to stderr so as not to mix into it, and the
// link stays a link. A link in the test's directory stands for /dev/stdout, which a root
// run of an unfixed gpuscope would have replaced for the whole system.
TEST_P(OutputFiles, LinkToStandardOutputWritesStandardOutput) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  std::string link = dir_.File("stdout.link");
  ASSERT_EQ(symlink("/proc/self/fd/1", link.c_str()), 0);
  Finished ran = RunGpuscope(With(writer.args(link, input), writer.force));
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_GT(ran.out.size(), 100u) << writer.name;
  EXPECT_EQ(ran.out.find("gpuscope: wrote"), std::string::npos) << writer.name;
  struct stat info {};
  ASSERT_EQ(lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode)) << writer.name << " replaced the link";
  ExpectNoTemporaryFiles(dir_.path());
}

TEST_P(OutputFiles, CharacterDeviceIsWrittenIntoAndStaysADevice) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  Finished ran = RunGpuscope(writer.args("/dev/null", input));
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  struct stat info {};
  ASSERT_EQ(lstat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
}

// An export holds the report's kernel names, command line and NVTX strings: a new one is
// as private as the report (0600), whatever the umask lets through.
TEST_P(OutputFiles, NewOutputIsReadableByItsOwnerOnly) {
  const Writer& writer = GetParam();
  std::string input = InputFor(writer, dir_);
  std::string output = dir_.File("new.out");
  mode_t saved = umask(022);
  Finished ran = RunGpuscope(writer.args(output, input));
  umask(saved);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  struct stat info {};
  ASSERT_EQ(stat(output.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u) << writer.name;
}

std::string NameOf(const ::testing::TestParamInfo<Writer>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Commands, OutputFiles, ::testing::ValuesIn(Writers()), NameOf);
INSTANTIATE_TEST_SUITE_P(Commands, OutputFilesOfReaders, ::testing::ValuesIn(Readers()), NameOf);

// export --format csv writes a directory of tables: the directory and each table are claimed.
class CsvOutputFiles : public ::testing::Test {
 protected:
  CsvOutputFiles() { testing::WriteAddProgramReport(input_, 4242); }
  TempDir dir_;
  std::string input_ = dir_.File("input.sqlite");
};

TEST_F(CsvOutputFiles, DirectoryThatIsTheInputOrAReportIsRefused) {
  std::string other = dir_.File("other.sqlite");
  testing::WriteAddProgramReport(other, 5151);
  const std::string input_before = ReadWholeFile(input_), other_before = ReadWholeFile(other);
  Finished ran =
      RunGpuscope({"export", "--format", "csv", "--force-overwrite", "-o", input_, input_});
  ExpectRefusal(ran,
                input_ + " is an input of this command; not overwriting it with the CSV tables");
  ran = RunGpuscope({"export", "--format", "csv", "--force-overwrite", "-o", other, input_});
  ExpectRefusal(ran, other + " is a gpuscope report; not overwriting it with the CSV tables");
  EXPECT_TRUE(ReadWholeFile(input_) == input_before && ReadWholeFile(other) == other_before);
}

TEST_F(CsvOutputFiles, TablesAreReplacedOnlyWithForce) {
  std::string out = dir_.File("tables");
  ASSERT_EQ(RunGpuscope({"export", "--format", "csv", "-o", out, input_}).exit_code, 0);
  std::string kernels = out + "/kernels.csv";
  dir_.Write("tables/kernels.csv", "edited by hand\n");
  Finished ran = RunGpuscope({"export", "--format", "csv", "-o", out, input_});
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_NE(ran.err.find("already exists (use -f to overwrite it)"), std::string::npos)
      << ran.err;
  EXPECT_EQ(ReadWholeFile(kernels), "edited by hand\n");
  ran = RunGpuscope({"export", "--format", "csv", "-f", "-o", out, input_});
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ReadWholeFile(kernels).find("_Z3addiiPi"), std::string::npos) << ReadWholeFile(kernels);
  ExpectNoTemporaryFiles(out);
}

// Starts gpuscope with its files limited to `bytes` (RLIMIT_FSIZE), so that its output stops
// midway as on a full disk; with `ignore_signal` the write fails (EFBIG), else SIGXFSZ ends
// gpuscope there, as an interruption would. Only the child gets the limit.
Finished RunWithFileSizeLimit(const std::vector<std::string>& args, rlim_t bytes,
                              bool ignore_signal) {
  rlimit saved{};
  getrlimit(RLIMIT_FSIZE, &saved);
  rlimit limited = saved;
  limited.rlim_cur = bytes;
  struct sigaction ignore {
  }, saved_action{};
  ignore.sa_handler = ignore_signal ? SIG_IGN : SIG_DFL;
  sigaction(SIGXFSZ, &ignore, &saved_action);
  setrlimit(RLIMIT_FSIZE, &limited);
  testing::GpuscopeProcess process(args, {});
  setrlimit(RLIMIT_FSIZE, &saved);
  sigaction(SIGXFSZ, &saved_action, nullptr);
  return process.Finish();
}

TEST(OutputFilesCutShort, TheOldFileStaysWholeAndNoTemporaryFileIsLeft) {
  for (const Writer& writer : Writers()) {
    if (writer.name == "export_chrome") continue;  // the sample's trace is smaller than 4 KiB
    for (bool killed : {true, false}) {
      TempDir dir;
      std::string input = InputFor(writer, dir);
      std::string output = dir.Write("old.out", "the old output\n");
      Finished ran = RunWithFileSizeLimit(With(writer.args(output, input), writer.force), 4096,
                                          /*ignore_signal=*/!killed);
      if (killed) {
        EXPECT_EQ(ran.signal, SIGXFSZ) << writer.name << ": " << ran.err;
      } else {
        EXPECT_EQ(ran.exit_code, 1) << writer.name << ": " << ran.err;
        EXPECT_NE(ran.err.find("gpuscope: error: cannot write"), std::string::npos) << ran.err;
      }
      EXPECT_TRUE(ReadWholeFile(output) == "the old output\n")
          << writer.name << (killed ? " killed: " : " failed: ") << "the old output was lost";
      ExpectNoTemporaryFiles(dir.path());
    }
  }
}

// The directory takes no new file (a temporary one neither): the old output stays.
TEST(OutputFilesCutShort, ReadOnlyDirectoryLeavesTheOldFile) {
  TempDir dir;
  std::string input = dir.File("input.sqlite");
  testing::WriteAddProgramReport(input, 4242);
  ASSERT_EQ(mkdir(dir.File("locked").c_str(), 0755), 0);
  std::string output = dir.Write("locked/old.html", "the old page\n", 0666);
  ASSERT_EQ(chmod(dir.File("locked").c_str(), 0555), 0);
  // Without root's permission override, so that the test means this as root too; NOROOT
  // keeps exec from giving root its capabilities back (only root can set it, and only root
  // needs it).
  std::string err = test_support::RunWithoutPermissionOverride([&] {
    prctl(PR_SET_SECUREBITS, SECBIT_NOROOT);
    Finished ran = RunGpuscope({"report", input, "-o", output, "-f"});
    return "exit " + std::to_string(ran.exit_code) + ": " + ran.err;
  });
  chmod(dir.File("locked").c_str(), 0755);
  EXPECT_EQ(err, "exit 1: gpuscope: error: cannot write '" + output + "': Permission denied\n");
  EXPECT_TRUE(ReadWholeFile(output) == "the old page\n") << "the old page was replaced";
  ExpectNoTemporaryFiles(dir.File("locked"));
}

}  // namespace
}  // namespace gpuscope::cli
