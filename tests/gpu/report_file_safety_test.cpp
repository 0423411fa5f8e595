// GPU tests of the report's file (store/report_file_create.h, inject/report_file_claim.h) in
// real traced runs: a symbolic link at the report path is refused by the launcher before
// the program starts and by the injection library inside the program (which runs on,
// untraced), the file the link names is untouched; a report is 0600 under umask 022 after
// the launcher has finalised it, and the umask's mode when asked.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "report_expectations.h"
#include "store/testing/scoped_umask.h"
#include "store/testing/scratch_dir.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

using store::testing::ScopedUmask;

constexpr const char* kNotes = "the user's notes\n";

int ModeOf(const std::string& path) { return store::testing::FileMode(path.c_str()); }

int CountOccurrences(const std::string& text, const std::string& fragment) {
  int count = 0;
  for (std::size_t at = text.find(fragment); at != std::string::npos;
       at = text.find(fragment, at + fragment.size())) {
    ++count;
  }
  return count;
}

// `gpuscope run -f -o <link> -- vector_add`: refused before the program starts.
TEST(GpuReportFile, TheLauncherRefusesASymbolicLinkAtTheReportPath) {
  ScratchDir dir;
  const std::string target = dir.path() + "/notes.txt";
  const std::string link = dir.path() + "/r.sqlite";
  std::ofstream(target) << kNotes;
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  CommandResult result =
      RunCommand({GpuscopeBinary(), "run", "-f", "-o", link, "--", ExampleBinary("vector_add")});
  EXPECT_EQ(result.exit_code, 1) << result.Describe();
  EXPECT_EQ(result.err, "gpuscope: error: report " + link + " is a symbolic link to " + target +
                            "; not writing through it\n");
  EXPECT_EQ(result.out.find("vector_add:"), std::string::npos) << "the program ran";
  EXPECT_EQ(ReadWholeFile(target), kNotes);
  struct stat info {};
  ASSERT_EQ(lstat(link.c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode)) << "the link stays a link";
}

// The link appears after the launcher's check (the program plants it, as anything racing
// with gpuscope could): the injection library refuses it once, the program runs on.
TEST(GpuReportFile, TheInjectionRefusesALinkThatAppearedAfterTheLaunchersCheck) {
  for (bool force : {true, false}) {
    SCOPED_TRACE(force ? "with -f" : "without -f");
    ScratchDir dir;
    const std::string target = dir.path() + "/notes.txt";
    const std::string link = dir.path() + "/r.sqlite";
    std::ofstream(target) << kNotes;
    std::vector<std::string> argv = {GpuscopeBinary(), "run", "-o", link};
    if (force) argv.push_back("-f");
    const std::string plant_then_run =
        "ln -s '" + target + "' '" + link + "' && exec '" + ExampleBinary("vector_add") + "'";
    for (const std::string& word :
         {std::string("--"), std::string("sh"), std::string("-c"), plant_then_run}) {
      argv.push_back(word);
    }
    CommandResult result = RunCommand(argv);
    EXPECT_EQ(result.exit_code, 0) << "the program's own exit code: " << result.Describe();
    EXPECT_NE(result.out.find("vector_add: "), std::string::npos) << result.Describe();
    EXPECT_NE(result.out.find(" elements ok"), std::string::npos) << result.Describe();
    const std::string refusal = "gpuscope: report " + link + " is a symbolic link to " + target +
                                "; not writing through it; this process is not traced";
    EXPECT_EQ(CountOccurrences(result.err, refusal), 1) << result.err;
    EXPECT_EQ(ReadWholeFile(target), kNotes);
  }
}

TEST(GpuReportFile, AReportIsReadableByItsOwnerOnlyUnderUmask022) {
  ScopedUmask umask_022(022);
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("vector_add")}, 0, run, report));
  EXPECT_EQ(ModeOf(run.reports[0]), 0600);
  EXPECT_TRUE(report.reader->finalized()) << "the mode is checked after finalisation";
  EXPECT_EQ(ModeOf(run.reports[0] + "-wal"), -1);
}

TEST(GpuReportFile, TheUmasksModeWhenAsked) {
  ScopedUmask umask_022(022);
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("vector_add")}, 0, run, report,
                                                {"--report-permissions", "umask"}));
  EXPECT_EQ(ModeOf(run.reports[0]), 0644);
}

}  // namespace
}  // namespace gpuscope::gpu_test
