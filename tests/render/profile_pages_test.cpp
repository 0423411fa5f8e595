#include <gtest/gtest.h>

#include <sstream>

#include "../support/test_profiles.h"
#include "render/details_format.h"
#include "render/metrics_csv.h"
#include "render/section_listing.h"

namespace gpuscope::analysis::metrics {
namespace {

using render::ClocksLine;
using render::FormatDetailsPage;
using render::FormatSectionList;
using render::FormatSetList;
using render::MetricsCsvColumns;
using render::PrintRawPage;
using render::WriteDetailsCsv;
using render::WriteRawCsv;

using testing::Saxpy;
using testing::SharedMemoryConflicts;

std::vector<const Section*> Sections(std::vector<std::string> names) {
  std::vector<const Section*> out;
  for (const std::string& name : names) out.push_back(FindSection(name).value());
  return out;
}

KernelProfile Failed() {
  KernelProfile k = Saxpy();
  k.profile_index = 2;
  k.invocation = 1;
  k.measured = false;
  k.metrics.clear();
  k.failure = "kernel replay failed: CUPTI_ERROR_OUT_OF_MEMORY";
  return k;
}

int CountLines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// The H200 saxpy launch: Appendix A values; 8 blocks/SM, 248.24 waves on 132 SMs.
TEST(DetailsPage, SaxpyHeaderTablesGolden) {
  // The leading newline of the raw string is not part of the output.
  const std::string expected = std::string(R"c(
  saxpy(int, float, const float *, float *) (262144, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Clocks: not locked (SM 1.98 GHz, DRAM 3.20 GHz measured)
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    DRAM Frequency                  Ghz         3.20
    SM Frequency                    Ghz         1.98
    Elapsed Cycles                cycle          n/a
    Memory Throughput                 %        69.10
    DRAM Throughput                   %        69.10
    Duration                         us        61.73
    L1/TEX Cache Throughput           %           18
    L2 Cache Throughput               %        75.40
    SM Active Cycles              cycle          n/a
    Compute (SM) Throughput           %        34.60
    Section: Launch Statistics
    -------------------------------- --------------- ------------
    Metric Name                          Metric Unit Metric Value
    -------------------------------- --------------- ------------
    Block Size                                                256
    Cluster Size                                                0
    Grid Size                                             262,144
    Registers Per Thread             register/thread           16
    Shared Memory Configuration Size           Kbyte        32.77
    Driver Shared Memory Per Block       Kbyte/block         1.02
    Dynamic Shared Memory Per Block       byte/block            0
    Static Shared Memory Per Block        byte/block            0
    # SMs                                         SM          132
    Threads                                   thread   67,108,864
    Waves Per SM                                           248.24
    Section: Occupancy
    ------------------------------- ----------- ------------
    Metric Name                     Metric Unit Metric Value
    ------------------------------- ----------- ------------
    Block Limit Barriers                  block           64
    Block Limit SM                        block           32
    Block Limit Registers                 block           16
    Block Limit Shared Mem                block           32
    Block Limit Warps                     block            8
    Theoretical Active Warps per SM        warp           64
    Theoretical Occupancy                     %          100
    Achieved Occupancy                        %        74.30
    Achieved Active Warps Per SM           warp          n/a

)c")
                                   .substr(1);
  EXPECT_EQ(FormatDetailsPage({Saxpy()}, Sections({"SpeedOfLight", "LaunchStats", "Occupancy"}),
                              {.body_tables = false, .findings = false}),
            expected);
}

TEST(DetailsPage, BodyTablesFollowTheirSectionHeader) {
  const std::string text =
      FormatDetailsPage({SharedMemoryConflicts()}, Sections({"MemoryWorkloadAnalysis"}));
  const auto header = text.find("    Section: Memory Workload Analysis\n");
  const auto shared = text.find("\n    Shared Memory\n");
  ASSERT_NE(header, std::string::npos);
  ASSERT_NE(shared, std::string::npos);
  EXPECT_LT(header, shared);
  EXPECT_NE(text.find("    Shared Load Bank Conflicts                       134,100,000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    Shared Bank Conflicts Of Wavefronts           %        96.89\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    Static Shared Memory Per Block"), 0u);
}

TEST(DetailsPage, UnmeasuredKernelPrintsItsFailureInsteadOfSections) {
  const std::string text = FormatDetailsPage({Failed()}, Sections({"SpeedOfLight"}));
  EXPECT_EQ(text,
            "  saxpy(int, float, const float *, float *) (262144, 1, 1)x(256, 1, 1), Context 1, "
            "Stream 7, Device 0, CC 9.0\n"
            "    Not measured: kernel replay failed: CUPTI_ERROR_OUT_OF_MEMORY\n");
}

TEST(DetailsPage, ClocksLineSaysWhatWasNotMeasured) {
  KernelProfile k = Saxpy();
  k.metrics.erase("dram__cycles_elapsed.avg.per_second");
  EXPECT_EQ(ClocksLine(k), "Clocks: not locked (SM 1.98 GHz, DRAM n/a measured)");
}

TEST(DetailsPage, CommandLineMetricsAreALastSection) {
  const Section user = CommandLineMetricsSection({"gpu__time_duration.sum", "zz__missing.sum"});
  auto sections = Sections({"Occupancy"});
  sections.push_back(&user);
  const std::string text = FormatDetailsPage({Saxpy()}, sections);
  const auto occupancy = text.find("Section: Occupancy");
  const auto last = text.find("Section: Command line profiler metrics");
  ASSERT_NE(last, std::string::npos);
  EXPECT_LT(occupancy, last);
  EXPECT_NE(text.find("    gpu__time_duration.sum                   61,728\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    zz__missing.sum                             n/a\n"), std::string::npos)
      << text;
}

TEST(DetailsCsv, HeaderAndRows) {
  std::ostringstream out;
  WriteDetailsCsv(out, {Saxpy(), Failed()}, Sections({"SpeedOfLight", "LaunchStats"}));
  const std::string csv = out.str();
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      R"c("ID","Process ID","Kernel Name","Invocation","Context","Stream","Device","CC",)c"
      R"c("Grid Size","Block Size","Section Name","Metric Name","Metric Unit","Metric Value",)c"
      R"c("Metric Id")c");
  const std::string kernel =
      R"c("0","4242","saxpy(int, float, const float *, float *)","0","1","7","0","9.0",)c"
      R"c("(262144, 1, 1)","(256, 1, 1)",)c";
  EXPECT_NE(csv.find(kernel + R"c("GPU Speed Of Light Throughput","Duration","usecond","61.73",)c"
                              R"c("gpu__time_duration.sum")c"
                              "\n"),
            std::string::npos)
      << csv;
  // No thousands separators in the CSV; derived rows have no Metric Id.
  EXPECT_NE(csv.find(kernel + R"c("Launch Statistics","Threads","thread","67108864","")c"
                              "\n"),
            std::string::npos);
  EXPECT_NE(csv.find(kernel + R"c("Launch Statistics","Waves Per SM","","248.24","")c"
                              "\n"),
            std::string::npos);
  EXPECT_NE(csv.find(kernel + R"c("GPU Speed Of Light Throughput","Elapsed Cycles","cycle","n/a",)c"
                              R"c("gpc__cycles_elapsed.max")c"
                              "\n"),
            std::string::npos);
  EXPECT_NE(csv.find(R"c("2","4242","saxpy(int, float, const float *, float *)","1","1","7","0",)c"
                     R"c("9.0","(262144, 1, 1)","(256, 1, 1)","error","Not measured","",)c"
                     R"c("kernel replay failed: CUPTI_ERROR_OUT_OF_MEMORY","")c"
                     "\n"),
            std::string::npos)
      << csv;
  const int rows_per_kernel = static_cast<int>(FindSection("SpeedOfLight").value()->entries.size() +
                                               FindSection("LaunchStats").value()->entries.size());
  EXPECT_EQ(CountLines(csv), 1 + rows_per_kernel + 1);
  EXPECT_EQ(MetricsCsvColumns().size(), 15u);
}

TEST(DetailsCsv, NamesWithQuotesAndCommasStayOneCell) {
  KernelProfile k = Saxpy();
  k.demangled_name = R"c(void f<1, "x">(int))c";
  std::ostringstream out;
  WriteDetailsCsv(out, {k}, Sections({"Occupancy"}));
  EXPECT_NE(out.str().find(R"c("void f<1, ""x"">(int)")c"), std::string::npos);
}

TEST(RawCsv, EveryMetricUnscaledWithItsBaseUnit) {
  std::ostringstream out;
  WriteRawCsv(out, {Saxpy(), Failed()}, {{"gpu__time_duration.sum", "nanosecond"}});
  const std::string csv = out.str();
  const std::string kernel =
      R"c("0","4242","saxpy(int, float, const float *, float *)","0","1","7","0","9.0",)c"
      R"c("(262144, 1, 1)","(256, 1, 1)",)c";
  EXPECT_NE(csv.find(kernel + R"c("raw","gpu__time_duration.sum","nanosecond","61728",)c"
                              R"c("gpu__time_duration.sum")c"
                              "\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(kernel + R"c("raw","gpc__cycles_elapsed.avg.per_second","","1980000000",)c"
                              R"c("gpc__cycles_elapsed.avg.per_second")c"
                              "\n"),
            std::string::npos);
  EXPECT_NE(csv.find(kernel + R"c("raw","sm__throughput.avg.pct_of_peak_sustained_elapsed","",)c"
                              R"c("34.6","sm__throughput.avg.pct_of_peak_sustained_elapsed")c"
                              "\n"),
            std::string::npos);
  EXPECT_EQ(CountLines(csv), 1 + static_cast<int>(Saxpy().metrics.size()) + 1);
  EXPECT_NE(csv.find(R"c("error","Not measured")c"), std::string::npos);
}

TEST(RawPage, TextTableByCuptiName) {
  std::ostringstream out;
  PrintRawPage(out, {Saxpy()}, {{"gpu__time_duration.sum", "nanosecond"}});
  const std::string text = out.str();
  EXPECT_NE(text.find("    gpu__time_duration.sum "), std::string::npos);
  EXPECT_NE(text.find(" nanosecond            61,728\n"), std::string::npos) << text;
  EXPECT_NE(text.find("1,980,000,000\n"), std::string::npos);
}

TEST(Listings, SetsWithMetricAndPassCounts) {
  std::vector<std::size_t> asked;
  const std::string text = FormatSetList([&](const std::vector<std::string>& names) {
    asked.push_back(names.size());
    return std::optional<int>(static_cast<int>(names.size() % 50));
  });
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(text.rfind("----------", 0), 0u) << text;
  EXPECT_NE(text.find("Identifier Sections"), std::string::npos) << text;
  EXPECT_NE(text.find("basic      SpeedOfLight, LaunchStats, Occupancy, WorkloadDistribution"),
            std::string::npos)
      << text;
  // The basic line: enabled, its metric count, and the counter's answer for it.
  const auto basic = text.find("\nbasic ");
  ASSERT_NE(basic, std::string::npos);
  const std::string line = text.substr(basic + 1, text.find('\n', basic + 1) - basic - 1);
  EXPECT_NE(line.find(" yes "), std::string::npos) << line;
  EXPECT_NE(line.find(" " + std::to_string(asked[0]) + " "), std::string::npos) << line;
  EXPECT_EQ(line.substr(line.rfind(' ') + 1), std::to_string(asked[0] % 50)) << line;
  EXPECT_NE(text.find("full "), std::string::npos);
}

TEST(Listings, SectionsWithoutAPassCounterSayNa) {
  const std::string text = FormatSectionList();
  EXPECT_NE(text.find("Identifier"), std::string::npos);
  EXPECT_NE(text.find("WarpStateStats"), std::string::npos);
  EXPECT_NE(text.find("Warp State Statistics"), std::string::npos);
  EXPECT_EQ(CountLines(text), 3 + static_cast<int>(AllSections().size()));
  EXPECT_NE(text.find(" n/a\n"), std::string::npos);
  EXPECT_EQ(text.find(" n/a\n"), text.find(" n/a"));
}

// The kernel name and failure text come from the report: control characters print as \xHH.
TEST(DetailsPage, ControlCharactersInNamesPrintEscaped) {
  KernelProfile k = Failed();
  k.demangled_name = "k\x1b]0;pwn\x07\r\nx";
  k.failure = "k\x1b]0;pwn\x07\r\nx";
  EXPECT_EQ(FormatDetailsPage({k}, Sections({"SpeedOfLight"})),
            std::string("  ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" +
                " (262144, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n"
                "    Not measured: " +
                "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "\n");
  KernelProfile raw = Saxpy();
  raw.demangled_name = "k\x1b]0;pwn\x07\r\nx";
  raw.metrics["k\x1b]0;pwn\x07\r\nx"] = 1;
  std::ostringstream out;
  PrintRawPage(out, {raw}, {});
  EXPECT_EQ(out.str().find_first_of("\x1b\x07\r"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("k\\x1b]0;pwn\\x07\\x0d\\x0ax"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::analysis::metrics
