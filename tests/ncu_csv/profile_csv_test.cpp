#include "profile_csv.h"

#include <gtest/gtest.h>

namespace gpuscope::ncu_csv {
namespace {

// `ncu --csv --page raw --print-units base --metrics ... -k regex:^k_ metrics_kernels` as it
// reaches stdout: ncu's progress lines and the program's own output around the table, every
// field quoted, a units row under the header, thousands separators in the values.
constexpr std::string_view kNcuRaw =
    R"csv(==PROF== Connected to process 4711 (/work/build/examples/metrics_kernels)
==PROF== Profiling "k_saxpy" - 0: 0%....50%....100% - 9 passes
==PROF== Profiling "k_saxpy" - 1: 0%....50%....100% - 9 passes
==PROF== Profiling "k_tiny" - 2: 0%....50%....100% - 9 passes
checksum k_saxpy 1f2e3d4c5b6a7988
metrics_kernels: 3 launches of 2 kernels
==PROF== Disconnected from process 4711
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes_read.sum","gpu__time_duration.sum","sm__throughput.avg.pct_of_peak_sustained_elapsed","smsp__sass_branch_targets_threads_divergent.sum"
"","","","","","","","","","","","byte","nsecond","%",""
"0","4711","metrics_kernels","127.0.0.1","k_saxpy(long, float, const float *, float *)","1","7","(256, 1, 1)","(262144, 1, 1)","0","9.0","536,870,912","61,728","34.60","0"
"1","4711","metrics_kernels","127.0.0.1","k_saxpy(long, float, const float *, float *)","1","7","(256, 1, 1)","(262144, 1, 1)","0","9.0","536,871,040","61,920","34.52","0"
"2","4711","metrics_kernels","127.0.0.1","k_tiny(int *)","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","n/a","2,720","0.09","0"
)csv";

// gpuscope profile --csv --page raw: one row per launch and metric, CUPTI names in both
// "Metric Name" and "Metric Id", values unscaled in base units.
constexpr std::string_view kGpuscopeRaw =
    R"csv("ID","Process ID","Kernel Name","Invocation","Context","Stream","Device","CC","Grid Size","Block Size","Section Name","Metric Name","Metric Unit","Metric Value","Metric Id"
"0","4711","k_saxpy(long, float, const float *, float *)","0","1","7","0","9.0","(262144, 1, 1)","(256, 1, 1)","Command line profiler metrics","dram__bytes_read.sum","byte","536870912","dram__bytes_read.sum"
"0","4711","k_saxpy(long, float, const float *, float *)","0","1","7","0","9.0","(262144, 1, 1)","(256, 1, 1)","Command line profiler metrics","gpu__time_duration.sum","nsecond","61800","gpu__time_duration.sum"
"1","4711","k_tiny(int *)","2","1","7","0","9.0","(1, 1, 1)","(32, 1, 1)","Command line profiler metrics","gpu__time_duration.sum","nsecond","2700","gpu__time_duration.sum"
)csv";

TEST(ParseProfileCsv, NcuRawPageSkipsOtherOutputAndReadsUnitsAndValues) {
  auto launches = ParseProfileCsv(kNcuRaw);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 3u);
  const ProfiledLaunch& first = (*launches)[0];
  EXPECT_EQ(first.id, 0);
  EXPECT_EQ(first.process_id, "4711");
  EXPECT_EQ(first.kernel_name, "k_saxpy(long, float, const float *, float *)");
  EXPECT_EQ(first.function_name, "k_saxpy");
  EXPECT_FALSE(first.invocation) << "ncu prints no invocation";
  EXPECT_EQ(first.grid_size, "(262144, 1, 1)");
  EXPECT_EQ(first.block_size, "(256, 1, 1)");
  EXPECT_EQ(first.cc, "9.0");
  ASSERT_EQ(first.metrics.size(), 4u) << "identity columns are not metrics";
  EXPECT_EQ(first.metrics.at("dram__bytes_read.sum").number, 536870912.0);
  EXPECT_EQ(first.metrics.at("dram__bytes_read.sum").unit, "byte");
  EXPECT_EQ(first.metrics.at("gpu__time_duration.sum").number, 61728.0);
  EXPECT_EQ(first.metrics.at("sm__throughput.avg.pct_of_peak_sustained_elapsed").number, 34.6);
  EXPECT_EQ(first.metrics.at("sm__throughput.avg.pct_of_peak_sustained_elapsed").unit, "%");
  EXPECT_EQ((*launches)[1].metrics.at("dram__bytes_read.sum").number, 536871040.0);
  const ProfiledLaunch& tiny = (*launches)[2];
  EXPECT_EQ(tiny.function_name, "k_tiny");
  EXPECT_FALSE(tiny.metrics.at("dram__bytes_read.sum").number) << "n/a has no number";
  EXPECT_EQ(tiny.metrics.at("dram__bytes_read.sum").text, "n/a");
}

TEST(ParseProfileCsv, NcuScaledUnitsBecomeBaseUnits) {
  constexpr std::string_view kScaled =
      R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes_read.sum","gpu__time_duration.sum"
"","","","","","","","","","","","","Mbyte","usecond"
"0","1","a.out","h","k_saxpy","2026-Nov-21 10:00:00","1","7","(256, 1, 1)","(4, 1, 1)","0","9.0","536.87","61.73"
)csv";
  auto launches = ParseProfileCsv(kScaled);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_EQ((*launches)[0].metrics.size(), 2u) << "\"Kernel Time\" is no metric";
  EXPECT_DOUBLE_EQ(*(*launches)[0].metrics.at("dram__bytes_read.sum").number, 536.87e6);
  EXPECT_DOUBLE_EQ(*(*launches)[0].metrics.at("gpu__time_duration.sum").number, 61730.0);
}

TEST(ParseProfileCsv, GpuscopeRawRowsGroupIntoLaunchesKeyedByMetricId) {
  auto launches = ParseProfileCsv(kGpuscopeRaw);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 2u);
  const ProfiledLaunch& saxpy = (*launches)[0];
  EXPECT_EQ(saxpy.function_name, "k_saxpy");
  EXPECT_EQ(saxpy.invocation, 0);
  EXPECT_EQ(saxpy.grid_size, "(262144, 1, 1)");
  ASSERT_EQ(saxpy.metrics.size(), 2u);
  EXPECT_EQ(saxpy.metrics.at("gpu__time_duration.sum").number, 61800.0);
  EXPECT_EQ((*launches)[1].invocation, 2);
  EXPECT_EQ((*launches)[1].metrics.at("gpu__time_duration.sum").number, 2700.0);
}

TEST(ParseProfileCsv, DetailsPageUsesTheMetricNameWhenThereIsNoMetricId) {
  constexpr std::string_view kDetails =
      R"csv("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","4711","metrics_kernels","127.0.0.1","k_tiny(int *)","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","usecond","2.72"
"0","4711","metrics_kernels","127.0.0.1","k_tiny(int *)","1","7","(32, 1, 1)","(1, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Elapsed Cycles","cycle","4,321"
)csv";
  auto launches = ParseProfileCsv(kDetails);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 1u);
  EXPECT_DOUBLE_EQ(*(*launches)[0].metrics.at("Duration").number, 2720.0);
  EXPECT_EQ((*launches)[0].metrics.at("Elapsed Cycles").number, 4321.0);
}

TEST(ParseProfileCsv, LaunchesComeInIdOrder) {
  constexpr std::string_view kShuffled =
      R"csv("ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"1","k_b","x__y.sum","","2"
"0","k_a","x__y.sum","","1"
)csv";
  auto launches = ParseProfileCsv(kShuffled);
  ASSERT_TRUE(launches.ok()) << launches.status().message();
  ASSERT_EQ(launches->size(), 2u);
  EXPECT_EQ((*launches)[0].function_name, "k_a");
  EXPECT_EQ((*launches)[1].function_name, "k_b");
}

TEST(ParseProfileCsv, TextWithoutAHeaderIsAnErrorThatSaysWhatWasExpected) {
  auto launches = ParseProfileCsv("==PROF== No kernels were profiled.\nchecksum all 0\n");
  ASSERT_FALSE(launches.ok());
  EXPECT_NE(launches.status().message().find("no profiler CSV header"), std::string::npos)
      << launches.status().message();
}

TEST(ParseProfileCsv, ARecordOfTheWrongWidthNamesItsLine) {
  constexpr std::string_view kShort =
      R"csv("ID","Kernel Name","gpu__time_duration.sum"
"","","nsecond"
"0","k_a"
)csv";
  auto launches = ParseProfileCsv(kShort);
  ASSERT_FALSE(launches.ok());
  EXPECT_EQ(launches.status().message(), "line 3: 2 fields where the header has 3");
}

TEST(ParseProfileCsv, ANonNumericIdIsAnError) {
  constexpr std::string_view kBadId =
      R"csv("ID","Kernel Name","gpu__time_duration.sum"
"","","nsecond"
"first","k_a","1"
)csv";
  auto launches = ParseProfileCsv(kBadId);
  ASSERT_FALSE(launches.ok());
  EXPECT_EQ(launches.status().message(), "line 3: ID \"first\" is not a launch number");
}

TEST(ParseProfileCsv, OneIdWithTwoKernelNamesIsAnError) {
  constexpr std::string_view kClash =
      R"csv("ID","Kernel Name","Metric Name","Metric Unit","Metric Value"
"0","k_a","x__y.sum","","1"
"0","k_b","x__y.sum","","2"
)csv";
  auto launches = ParseProfileCsv(kClash);
  ASSERT_FALSE(launches.ok());
  EXPECT_NE(launches.status().message().find("names two kernels"), std::string::npos);
}

TEST(KernelFunctionName, StripsReturnTypeParametersTemplatesAndNamespaces) {
  EXPECT_EQ(KernelFunctionName("k_saxpy(long, float, const float *, float *)"), "k_saxpy");
  EXPECT_EQ(KernelFunctionName("k_saxpy"), "k_saxpy");
  EXPECT_EQ(KernelFunctionName("void ns::k_fill<float, (int)3>(float *, int)"), "k_fill");
  EXPECT_EQ(KernelFunctionName("void at::native::vectorized_elementwise_kernel<4, "
                               "at::native::FillFunctor<float>>(int, T2, T3)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(KernelFunctionName("convolve"), "convolve");
}

}  // namespace
}  // namespace gpuscope::ncu_csv
