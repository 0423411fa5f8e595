// `gpuscope run --log-file` by the rules of every output (output_files_binary_test.cpp): the
// log never replaces the program, the report or another gpuscope report, and replaces an
// existing file only with -f; each refusal comes before the program starts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "../../support/gpuscope_process.h"
#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::ReadWholeFile;
using testing::TempDir;

class RunLogFile : public ::testing::Test {
 protected:
  RunLogFile() { placeholder_library_ = dir_.Write("libgpuscope_inject.so", "placeholder"); }

  // `gpuscope run -o <dir>/r_%p.sqlite <options> -- touch <marker>`.
  testing::Finished Run(std::vector<std::string> options) {
    std::vector<std::string> args = {"run", "-o", dir_.File("r_%p.sqlite")};
    args.insert(args.end(), options.begin(), options.end());
    for (const std::string& word : {std::string("--"), std::string("touch"), marker_}) {
      args.push_back(word);
    }
    return testing::RunGpuscope(args, {{"GPUSCOPE_INJECTION_LIBRARY", placeholder_library_}});
  }
  void ExpectRefusedBeforeTheStart(const testing::Finished& ran, const std::string& message) {
    EXPECT_EQ(ran.exit_code, 1);
    EXPECT_EQ(ran.err, "gpuscope: error: " + message + "\n");
    EXPECT_FALSE(testing::FileExists(marker_)) << "the program ran";
  }

  TempDir dir_;
  std::string placeholder_library_;
  std::string marker_ = dir_.File("program_ran");
};

TEST_F(RunLogFile, NeverOverwritesAReportEvenWithForce) {
  std::string other = dir_.File("other.sqlite");
  testing::WriteAddProgramReport(other, 5151);
  const std::string before = ReadWholeFile(other);
  ExpectRefusedBeforeTheStart(Run({"-f", "--log-file", other}),
                              other + " is a gpuscope report; not overwriting it with the log");
  EXPECT_TRUE(ReadWholeFile(other) == before) << "the report changed";
}

TEST_F(RunLogFile, NeverOverwritesTheReportOfTheSameRun) {
  for (const std::string& log : {dir_.File("r_%p.sqlite"), dir_.File("./r_%p.sqlite")}) {
    ExpectRefusedBeforeTheStart(
        Run({"-f", "--log-file", log}),
        "--log-file " + log +
            " names the report's file (-o); not overwriting the report with "
            "the log");
  }
}

TEST_F(RunLogFile, NeverOverwritesTheProgram) {
  std::string program = dir_.File("program");
  std::filesystem::copy_file("/bin/true", program);
  const std::string before = ReadWholeFile(program);
  testing::Finished ran = testing::RunGpuscope(
      {"run", "-f", "-o", dir_.File("r_%p.sqlite"), "--log-file", program, "--", program},
      {{"GPUSCOPE_INJECTION_LIBRARY", placeholder_library_}});
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_EQ(ran.err, "gpuscope: error: " + program +
                         " is an input of this command; not overwriting it with the log\n");
  EXPECT_TRUE(ReadWholeFile(program) == before) << "the program changed";
}

TEST_F(RunLogFile, ExistingLogIsReplacedOnlyWithForce) {
  std::string log = dir_.Write("gpuscope.log", "an earlier log\n");
  ExpectRefusedBeforeTheStart(Run({"--log-file", log}),
                              log + " already exists (use -f to overwrite it)");
  EXPECT_EQ(ReadWholeFile(log), "an earlier log\n");

  testing::Finished ran = Run({"-f", "--log-file", log});
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_TRUE(testing::FileExists(marker_));
  EXPECT_NE(ReadWholeFile(log).find("gpuscope is profiling process"), std::string::npos)
      << ReadWholeFile(log);
}

// The report itself (-o) is never written through a symbolic link, even with -f: the
// command stops before the program starts and the file the link names stays as it was.
TEST_F(RunLogFile, AReportPathThatIsASymbolicLinkIsRefusedBeforeTheStart) {
  std::string target = dir_.Write("notes.txt", "the user's notes\n");
  std::string link = dir_.File("r.sqlite");
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  for (const char* force : {"-f", "--quiet"}) {
    testing::Finished ran =
        testing::RunGpuscope({"run", force, "-o", link, "--", "touch", marker_},
                             {{"GPUSCOPE_INJECTION_LIBRARY", placeholder_library_}});
    ExpectRefusedBeforeTheStart(
        ran, "report " + link + " is a symbolic link to " + target + "; not writing through it");
    EXPECT_EQ(ReadWholeFile(target), "the user's notes\n");
  }
}

}  // namespace
}  // namespace gpuscope::cli
