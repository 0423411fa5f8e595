// `gpuscope occupancy` end to end, through the real binary.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "../../support/gpuscope_process.h"
#include "../../support/xml_checker.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::occupancy_testing {
namespace {

using cli::testing::RunGpuscope;
using Ran = cli::testing::Finished;
using store::testing::ReadWholeFile;
using store::testing::ScratchDir;

const std::vector<std::string> kIssueExample = {"occupancy", "--cc", "9.0",    "--threads", "256",
                                                "--regs",    "40",   "--smem", "1984"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// A usage error: exit 2, nothing on stdout, the first stderr line is the one-line error.
void ExpectUsageError(const std::vector<std::string>& args, const std::string& message) {
  Ran ran = RunGpuscope(args);
  EXPECT_EQ(ran.exit_code, 2) << ran.err;
  EXPECT_EQ(ran.out, "");
  const std::string first_line = ran.err.substr(0, ran.err.find('\n'));
  EXPECT_EQ(first_line.rfind("gpuscope: error: ", 0), 0u) << ran.err;
  EXPECT_NE(first_line.find(message), std::string::npos) << ran.err;
}

TEST(OccupancyBinary, PrintsTheIssueExample) {
  Ran ran = RunGpuscope(kIssueExample);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(ran.err, "");
  EXPECT_NE(ran.out.find("Theoretical occupancy on compute capability 9.0 (Hopper)"),
            std::string::npos)
      << ran.out;
  EXPECT_NE(ran.out.find("Block Limit Registers"), std::string::npos);
  EXPECT_NE(ran.out.find("6  <- limiter"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("48 of 64"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("75.00 %"), std::string::npos) << ran.out;
  EXPECT_EQ(ran.out.find("Varying Block Size"), std::string::npos);  // only with --graphs
}

TEST(OccupancyBinary, GraphsAsTables) {
  Ran ran = RunGpuscope(With(kIssueExample, {"--graphs"}));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  for (const char* title :
       {"Varying Block Size (threads per block)", "Varying Register Count (registers per thread)",
        "Varying Shared Memory Usage (shared memory per block (bytes))"}) {
    EXPECT_NE(ran.out.find(title), std::string::npos) << ran.out;
  }
  EXPECT_NE(ran.out.find("* the launch as given"), std::string::npos);
}

TEST(OccupancyBinary, CsvWithAndWithoutGraphs) {
  Ran ran = RunGpuscope(With(kIssueExample, {"--csv"}));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(ran.out.rfind("compute_capability,threads_per_block,", 0), 0u) << ran.out;
  EXPECT_NE(ran.out.find("\n9.0,256,40,1984,0,47168,,1,8,6,48,64,75.0000,8,6,76,32,64,registers,"
                         "10240,3072,233472,\n"),
            std::string::npos)
      << ran.out;

  ran = RunGpuscope(With(kIssueExample, {"--csv", "--graphs", "--carveout", "50"}));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const std::size_t blank = ran.out.find("\n\n");
  ASSERT_NE(blank, std::string::npos) << ran.out;
  EXPECT_EQ(ran.out.substr(blank + 2, ran.out.find('\n', blank + 2) - blank - 2),
            "graph,x,blocks_per_sm,active_warps_per_sm,occupancy_percent,limiters");
  EXPECT_NE(ran.out.find("\nregisters,255,"), std::string::npos);
  EXPECT_NE(ran.out.find("\nshared_memory,232448,1,8,12.5000,shared memory\n"), std::string::npos);
}

TEST(OccupancyBinary, SvgFileIsValidXml) {
  ScratchDir dir;
  const std::string path = dir.File("occupancy.svg");
  Ran ran = RunGpuscope(With(kIssueExample, {"--svg", path}));
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("Theoretical Occupancy"), std::string::npos);  // text still printed
  const std::string svg = ReadWholeFile(path);
  std::string error;
  std::optional<analysis::testing::XmlSummary> xml = analysis::testing::CheckXml(svg, &error);
  ASSERT_TRUE(xml.has_value()) << error;
  EXPECT_EQ(xml->root, "svg");
  EXPECT_EQ(xml->element_counts["polyline"], 3);

  ran = RunGpuscope(With(kIssueExample, {"--svg", dir.File("missing/dir/x.svg")}));
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_NE(ran.err.find("gpuscope: error: cannot write '"), std::string::npos) << ran.err;
  EXPECT_EQ(ran.err.find('\n'), ran.err.size() - 1) << ran.err;
}

TEST(OccupancyBinary, ConfigurationThatCannotLaunch) {
  std::vector<std::string> args = {"occupancy", "--cc",   "9.0",   "--threads",  "1024", "--regs",
                                   "32",        "--smem", "16896", "--dyn-smem", "48K"};
  Ran ran = RunGpuscope(args);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find("This configuration cannot launch: no block fits on an SM. Shared "
                         "memory: the launch asks for 49152 bytes of dynamic shared memory"),
            std::string::npos)
      << ran.out;

  ran = RunGpuscope(With(args, {"--csv"}));
  ASSERT_EQ(ran.exit_code, 0);
  EXPECT_EQ(ran.err.rfind("gpuscope: this configuration cannot launch: Shared memory:", 0), 0u)
      << ran.err;

  // With the opt-in it runs.
  ran = RunGpuscope(With(args, {"--max-dyn-smem", "49152"}));
  ASSERT_EQ(ran.exit_code, 0);
  EXPECT_EQ(ran.out.find("cannot launch"), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find("Theoretical Active Blocks per SM"), std::string::npos);
}

TEST(OccupancyBinary, NsightComputeConfiguration) {
  Ran ran = RunGpuscope({"occupancy", "--cc", "sm_90", "--threads", "64", "--regs", "40",
                         "--dyn-smem", "1936", "--smem-config", "100K", "--csv"});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_NE(ran.out.find(",75.0000,32,24,33,32,64,registers,"), std::string::npos) << ran.out;
}

TEST(OccupancyBinary, UsageErrors) {
  auto base = [](std::vector<std::string> replace) {
    std::vector<std::string> args = {"occupancy", "--cc",   "9.0", "--threads",
                                     "256",       "--regs", "40"};
    return With(args, replace);
  };
  ExpectUsageError({"occupancy", "--cc", "6.1", "--threads", "256", "--regs", "40"},
                   "compute capability 6.1 is not supported (supported: 7.0,");
  ExpectUsageError({"occupancy", "--cc", "nine", "--threads", "256", "--regs", "40"},
                   "'nine' is not a compute capability");
  ExpectUsageError(base({"--threads", "1025"}), "threads per block must be 1 to 1024, not 1025");
  ExpectUsageError(base({"--threads", "0"}), "threads per block must be 1 to 1024, not 0");
  ExpectUsageError(base({"--regs", "256"}), "registers per thread must be 0 to 255, not 256");
  ExpectUsageError(base({"--regs", "-3"}), "option '--regs' expects a whole number");
  ExpectUsageError(base({"--dyn-smem", "300000"}),
                   "exceed the 232448 bytes a block of compute capability 9.0 may use");
  ExpectUsageError(base({"--smem", "64K"}), "static shared memory is at most 49152 bytes");
  ExpectUsageError(base({"--smem", "lots"}), "option '--smem' expects a size in bytes");
  ExpectUsageError(base({"--carveout", "120"}), "option '--carveout' expects a percentage");
  ExpectUsageError(base({"--smem-config", "5000"}), "not 5000 bytes");
  ExpectUsageError(base({"--csv", "--svg", "x.svg"}),
                   "CSV output and an SVG file (-o/--svg) cannot be combined");
  ExpectUsageError(base({"extra"}), "unexpected argument 'extra'");
  ExpectUsageError(base({"--bogus"}), "unknown option");
  ExpectUsageError({"occupancy", "--threads", "256", "--regs", "40"}, "--cc is required");
  ExpectUsageError({"occupancy", "--cc", "9.0", "--regs", "40"}, "--threads is required");
  ExpectUsageError({"occupancy", "--cc", "9.0", "--threads", "32"}, "--regs is required");
}

TEST(OccupancyBinary, HelpAndCommandList) {
  Ran ran = RunGpuscope({"occupancy", "--help"});
  EXPECT_EQ(ran.exit_code, 0);
  EXPECT_EQ(ran.out.rfind("Usage: gpuscope occupancy --cc MAJOR.MINOR", 0), 0u) << ran.out;
  EXPECT_NE(ran.out.find("--dyn-smem"), std::string::npos);
  ran = RunGpuscope({"--help"});
  EXPECT_NE(ran.out.find("occupancy"), std::string::npos) << ran.out;
}

}  // namespace
}  // namespace gpuscope::occupancy_testing
