// The nvprof summary built from rows and printed; every expected text below was written
// by hand from nvprof's layout (reference 002), not produced by the code under test.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analysis/summary_builder.h"
#include "render/nvprof_summary_format.h"
#include "store/testing/reader_rows.h"

namespace gpuscope::analysis {
namespace {

using render::FormatNvprofSummary;
using render::OutputOptions;

using model::CopyKind;
using store::testing::Api;
using store::testing::Driver;
using store::testing::Kernel;
using store::testing::Memcpy;

constexpr std::uint64_t kSummaryT0 = 1'700'000'000'000'000'000;  // an absolute CUPTI time

std::string Format(const NvprofSummary& summary, OutputOptions options = {}) {
  std::ostringstream out;
  FormatNvprofSummary(summary, options, out);
  return out.str();
}

// The rows of reference 002's `add` program, with API calls chosen for easy arithmetic.
NvprofSummaryBuilder SampleBuilder() {
  NvprofSummaryBuilder builder(/*demangle=*/true);
  builder.BeginReport();
  builder.AddKernel(
      Kernel(7, "add(int, int, int*)", kSummaryT0 + 1000, kSummaryT0 + 1000 + 3424, "_Z3addiiPi"));
  builder.AddMemcpy(Memcpy(CopyKind::kDtoH, kSummaryT0 + 9000, kSummaryT0 + 9000 + 2656, 4));
  builder.AddApiCall(Api(1, "cudaMalloc", kSummaryT0, kSummaryT0 + 165'860'000));
  builder.AddApiCall(Driver(2, "cuDeviceGetAttribute", kSummaryT0 + 10, kSummaryT0 + 10 + 80));
  builder.AddApiCall(
      Driver(2, "cuDeviceGetAttribute", kSummaryT0 + 200, kSummaryT0 + 200 + 647'070));
  builder.AddApiCall(
      Driver(2, "cuDeviceGetAttribute", kSummaryT0 + 900'000, kSummaryT0 + 900'000 + 732'850));
  builder.AddApiCall(Api(3, "cudaFree", kSummaryT0 + 2'000'000, kSummaryT0 + 2'000'000 + 81'893));
  // Made by cudaMalloc on the program's behalf: nvprof counts only the outer call.
  builder.AddApiCall(
      Driver(4, "cuMemAlloc_v2", kSummaryT0 + 100, kSummaryT0 + 5'000'100, /*nested=*/true));
  return builder;
}

TEST(NvprofSummary, MatchesNvprofsLayout) {
  const char* expected =
      // clang-format off
      "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
      " GPU activities:   56.32%  3.4240us         1  3.4240us  3.4240us  3.4240us  add(int, int, int*)\n"
      "                   43.68%  2.6560us         1  2.6560us  2.6560us  2.6560us  [CUDA memcpy DtoH]\n"
      "      API calls:   99.13%  165.86ms         1  165.86ms  165.86ms  165.86ms  cudaMalloc\n"
      "                    0.82%  1.3800ms         3  460.00us      80ns  732.85us  cuDeviceGetAttribute\n"
      "                    0.05%  81.893us         1  81.893us  81.893us  81.893us  cudaFree\n";
  // clang-format on
  EXPECT_EQ(Format(SampleBuilder().Build()), expected);
}

TEST(NvprofSummary, PercentagesAreRelativeToTheirSection) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddKernel(Kernel(1, "k", kSummaryT0, kSummaryT0 + 1000));
  builder.AddMemcpy(Memcpy(CopyKind::kHtoD, kSummaryT0, kSummaryT0 + 3000));
  builder.AddApiCall(Api(1, "cudaLaunchKernel", kSummaryT0, kSummaryT0 + 1'000'000));
  const char* expected =
      // clang-format off
      "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
      " GPU activities:   75.00%  3.0000us         1  3.0000us  3.0000us  3.0000us  [CUDA memcpy HtoD]\n"
      "                   25.00%  1.0000us         1  1.0000us  1.0000us  1.0000us  k\n"
      "      API calls:  100.00%  1.0000ms         1  1.0000ms  1.0000ms  1.0000ms  cudaLaunchKernel\n";
  // clang-format on
  EXPECT_EQ(Format(builder.Build()), expected);
}

TEST(NvprofSummary, EmptySectionsAreOmitted) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddApiCall(Api(1, "cudaGetDeviceCount", kSummaryT0, kSummaryT0 + 1500));
  const char* expected =
      // clang-format off
      "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
      "      API calls:  100.00%  1.5000us         1  1.5000us  1.5000us  1.5000us  cudaGetDeviceCount\n";
  // clang-format on
  EXPECT_EQ(Format(builder.Build()), expected);
}

TEST(NvprofSummary, NothingProfiledIsOneLine) {
  NvprofSummaryBuilder builder(true);
  EXPECT_EQ(Format(builder.Build()),
            "No kernels, memory copies, memsets or API calls were profiled.\n");
  OutputOptions gpu_only;
  gpu_only.api_calls = false;
  builder.BeginReport();
  builder.AddApiCall(
      Api(1, "cudaFree", kSummaryT0, kSummaryT0 + 1));  // not in the requested section
  EXPECT_EQ(Format(builder.Build(), gpu_only),
            "No kernels, memory copies or memsets were profiled.\n");
}

TEST(NvprofSummary, OneSectionOnRequest) {
  OutputOptions api_only;
  api_only.gpu_activities = false;
  std::string text = Format(SampleBuilder().Build(), api_only);
  EXPECT_EQ(text.find("GPU activities"), std::string::npos);
  EXPECT_NE(text.find("      API calls:   99.13%"), std::string::npos);
}

TEST(NvprofSummary, FixedUnitWritesEveryTimeInItAndWidensColumns) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddKernel(Kernel(1, "add(int, int, int*)", kSummaryT0, kSummaryT0 + 3424));
  builder.AddMemcpy(Memcpy(CopyKind::kDtoH, kSummaryT0, kSummaryT0 + 656));
  OutputOptions options;
  options.unit = TimeUnit::kMilliseconds;
  const char* expected =
      // clang-format off
      "            Type  Time(%)        Time     Calls         Avg         Min         Max  Name\n"
      " GPU activities:   83.92%  0.003424ms         1  0.003424ms  0.003424ms  0.003424ms  add(int, int, int*)\n"
      "                   16.08%  0.000656ms         1  0.000656ms  0.000656ms  0.000656ms  [CUDA memcpy DtoH]\n";
  // clang-format on
  EXPECT_EQ(Format(builder.Build(), options), expected);
}

TEST(NvprofSummary, CsvHasNvprofsHeaderUnitsAndQuotedRows) {
  OutputOptions csv;
  csv.csv = true;
  const char* expected =
      // clang-format off
      "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n"
      ",%,us,,us,us,us,\n"
      "\"GPU activities\",56.315789,3.424000,1,3.424000,3.424000,3.424000,\"add(int, int, int*)\"\n"
      "\"GPU activities\",43.684211,2.656000,1,2.656000,2.656000,2.656000,\"[CUDA memcpy DtoH]\"\n"
      "\"API calls\",99.126299,165860.000000,1,165860.000000,165860.000000,165860.000000,\"cudaMalloc\"\n"
      "\"API calls\",0.824758,1380.000000,3,460.000000,0.080000,732.850000,\"cuDeviceGetAttribute\"\n"
      "\"API calls\",0.048943,81.893000,1,81.893000,81.893000,81.893000,\"cudaFree\"\n";
  // clang-format on
  EXPECT_EQ(Format(SampleBuilder().Build(), csv), expected);
}

TEST(NvprofSummary, CsvEscapesNamesAndNamesItsFixedUnit) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddKernel(Kernel(1, "f<\"a,b\">(int)", kSummaryT0, kSummaryT0 + 2'000'000));
  OutputOptions csv;
  csv.csv = true;
  csv.unit = TimeUnit::kMilliseconds;
  const char* expected =
      // clang-format off
      "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n"
      ",%,ms,,ms,ms,ms,\n"
      "\"GPU activities\",100.000000,2.000000,1,2.000000,2.000000,2.000000,\"f<\"\"a,b\"\">(int)\"\n";
  // clang-format on
  EXPECT_EQ(Format(builder.Build(), csv), expected);
}

TEST(NvprofSummary, CsvOfNothingIsJustTheHeader) {
  OutputOptions csv;
  csv.csv = true;
  EXPECT_EQ(Format(NvprofSummaryBuilder(true).Build(), csv),
            "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n"
            ",%,us,,us,us,us,\n");
}

}  // namespace
}  // namespace gpuscope::analysis
