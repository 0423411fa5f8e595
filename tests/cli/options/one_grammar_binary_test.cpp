// One spelling per idea across gpuscope's commands (issue 18, "One grammar"): every usage or
// argument error starts "gpuscope: error: ", every command that prints tables takes
// `--format` and `--csv` alike, `-f` is --force-overwrite wherever a file is written (export's
// old `-f csv` still reads as --format, with a warning) and `-o` names the output file.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::FileExists;
using testing::Finished;
using testing::RecordedReport;
using testing::ReadWholeFile;
using testing::RunGpuscope;
using testing::TempDir;

std::vector<std::string> Cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(OneGrammar, EveryCommandSaysUsageErrorsWithOnePrefix) {
  for (const char* command : {"run", "profile", "stats", "rules", "roofline", "occupancy", "diff",
                              "ranks", "export", "view", "report", "help"}) {
    Finished ran = RunGpuscope({command, "--no-such-option"});
    EXPECT_EQ(ran.exit_code, 2) << command << ": " << ran.err;
    const std::string expected = std::string(command) == "help"
                                     ? "gpuscope: error: unknown command '--no-such-option'\n"
                                     : "gpuscope: error: unknown option '--no-such-option'\n";
    EXPECT_EQ(ran.err.rfind(expected, 0), 0u) << command << ": " << ran.err;
  }
  // Not a usage error but gpuscope's own failure, after the program ran: the same prefix.
  TempDir dir;
  Finished profiled =
      RunGpuscope({"profile", "--chip", "gh100", "-o", dir.File("p_%p.sqlite"), "--", "/bin/true"});
  EXPECT_EQ(profiled.exit_code, 1) << profiled.err;
  EXPECT_NE(profiled.err.find("gpuscope: error: no report was written"), std::string::npos)
      << profiled.err;
  EXPECT_EQ(profiled.err.find("==ERROR=="), std::string::npos) << profiled.err;
}

// What a newcomer types first: `gpuscope` alone and `gpuscope help --help` show help, and a
// report where a program belongs is named for what it is, by `run` as by the short form.
TEST(OneGrammar, GpuscopeAloneAndHelpOfHelpPrintTheHelp) {
  Finished alone = RunGpuscope({});
  EXPECT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(alone.err, "");
  EXPECT_EQ(alone.out, RunGpuscope({"--help"}).out);
  EXPECT_EQ(alone.out.rfind("Usage: gpuscope", 0), 0u) << alone.out;
  Finished help = RunGpuscope({"help", "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_EQ(help.out.rfind("Usage: gpuscope help [command]\n", 0), 0u) << help.out;
}

TEST(OneGrammar, RunOfAReportSaysItIsAReportAsTheShortFormDoes) {
  const std::string report = RecordedReport("h100_add.sqlite");
  const std::string expected = "gpuscope: error: '" + report +
                               "' is a report, not a program to trace: did you mean 'gpuscope "
                               "stats " +
                               report + "'?\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--", report}, {"run", report}, {report}}) {
    Finished ran = RunGpuscope(args);
    EXPECT_EQ(ran.exit_code, 2) << args.size() << ": " << ran.err;
    EXPECT_EQ(ran.err, expected) << args.size();
  }
}

TEST(OneGrammar, EveryCommandThatPrintsTablesTakesFormatAndCsv) {
  const std::string trace = RecordedReport("h100_nvtx_ranges.sqlite");
  const std::string profiled = RecordedReport("h100_metrics_full.sqlite");
  const std::vector<std::vector<std::string>> commands = {
      {"stats", "-r", "cuda_gpu_kern_sum", trace},
      {"rules", "--list"},
      {"roofline", profiled},
      {"occupancy", "--cc", "9.0", "--threads", "256", "--regs", "40"},
      {"diff", trace, trace},
      {"ranks", trace},
  };
  for (const std::vector<std::string>& command : commands) {
    Finished column = RunGpuscope(command);
    Finished format_column = RunGpuscope(Cat(command, {"--format", "column"}));
    Finished csv = RunGpuscope(Cat(command, {"--csv"}));
    Finished format_csv = RunGpuscope(Cat(command, {"--format", "csv"}));
    ASSERT_EQ(format_csv.exit_code, 0) << command[0] << ": " << format_csv.err;
    EXPECT_EQ(format_column.exit_code, 0) << command[0] << ": " << format_column.err;
    EXPECT_EQ(format_column.out, column.out) << command[0];
    EXPECT_EQ(format_csv.out, csv.out) << command[0];
    EXPECT_NE(csv.out, column.out) << command[0];
    EXPECT_NE(csv.out.find(','), std::string::npos) << command[0] << ": " << csv.out;
  }
}

TEST(OneGrammar, AFormatACommandLacksIsRefusedNamingTheOnesItHas) {
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"rules"},
                                             {"roofline", RecordedReport("h100_metrics_full.sqlite")},
                                             {"occupancy", "--cc", "9.0", "--threads", "256",
                                              "--regs", "40"}}) {
    Finished ran = RunGpuscope(Cat(command, {"--format", "json"}));
    EXPECT_EQ(ran.exit_code, 2) << command[0];
    EXPECT_EQ(ran.err.rfind("gpuscope: error: option '--format' expects column or csv, not "
                            "'json'\n",
                            0),
              0u)
        << command[0] << ": " << ran.err;
  }
}

TEST(OneGrammar, ExportTakesDashFAsForceAndStillReadsTheOldDashFFormat) {
  TempDir dir;
  const std::string report = RecordedReport("h100_add.sqlite");
  const std::string json = dir.Write("trace.json", "kept unless forced\n");
  Finished refused = RunGpuscope({"export", "-o", json, report});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err, "gpuscope: error: " + json + " already exists (use -f to overwrite it)\n");
  EXPECT_EQ(ReadWholeFile(json), "kept unless forced\n");
  Finished forced = RunGpuscope({"export", "-f", "-o", json, report});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(ReadWholeFile(json).rfind("{", 0), 0u);

  // `-f csv` (export's -f before): --format csv, with a warning that says so.
  const std::string tables = dir.File("tables");
  Finished legacy = RunGpuscope({"export", "-f", "csv", "-o", tables, report});
  EXPECT_EQ(legacy.exit_code, 0) << legacy.err;
  EXPECT_EQ(legacy.err.rfind("gpuscope: warning: '-f csv' is read as '--format csv'", 0), 0u)
      << legacy.err;
  EXPECT_TRUE(FileExists(tables + "/kernels.csv"));
}

TEST(OneGrammar, DashONamesTheChartOfRooflineAndOccupancy) {
  TempDir dir;
  const std::string roof = dir.File("roof.svg");
  Finished roofline = RunGpuscope({"roofline", "-o", roof, RecordedReport("h100_metrics_full.sqlite")});
  EXPECT_EQ(roofline.exit_code, 0) << roofline.err;
  EXPECT_NE(ReadWholeFile(roof).find("<svg"), std::string::npos);
  const std::string graphs = dir.File("occupancy.svg");
  Finished occupancy = RunGpuscope(
      {"occupancy", "--cc", "9.0", "--threads", "256", "--regs", "40", "-o", graphs});
  EXPECT_EQ(occupancy.exit_code, 0) << occupancy.err;
  EXPECT_NE(ReadWholeFile(graphs).find("<svg"), std::string::npos);
  // Existing: replaced only with -f, as everywhere.
  Finished again = RunGpuscope(
      {"occupancy", "--cc", "9.0", "--threads", "256", "--regs", "40", "-o", graphs});
  EXPECT_EQ(again.exit_code, 1);
  Finished forced = RunGpuscope(
      {"occupancy", "--cc", "9.0", "--threads", "256", "--regs", "40", "-o", graphs, "-f"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
}

}  // namespace
}  // namespace gpuscope::cli
