// nsys-style statistics tables: values checked against numbers computed by hand, layouts
// against nsys's own column output.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "../support/json_checker.h"
#include "analysis/stats_builders.h"
#include "analysis/stats_reports.h"
#include "analysis/stats_table.h"
#include "render/stats_report.h"
#include "render/stats_table_format.h"
#include "store/testing/reader_rows.h"
#include "util/units.h"

namespace gpuscope::analysis {
namespace {

using render::ParseStatsFormat;
using render::StatsFormat;
using render::WithThousandsSeparators;
using render::WriteStatsReport;
using render::WriteStatsTable;

using model::CopyKind;
using store::testing::Api;
using store::testing::Driver;
using store::testing::Kernel;
using store::testing::Memcpy;
using store::testing::Memset;
using testing::JsonValue;
using testing::ParseJson;

constexpr std::uint64_t kStatsT0 = 1'700'000'000'000'000'000;

std::string Write(const StatsTable& table, StatsFormat format) {
  std::ostringstream out;
  WriteStatsTable(table, format, out);
  return out.str();
}

TEST(ThousandsSeparators, IntegerPartOnly) {
  EXPECT_EQ(WithThousandsSeparators("0"), "0");
  EXPECT_EQ(WithThousandsSeparators("999"), "999");
  EXPECT_EQ(WithThousandsSeparators("1000"), "1,000");
  EXPECT_EQ(WithThousandsSeparators("121288629"), "121,288,629");
  EXPECT_EQ(WithThousandsSeparators("40429543.0"), "40,429,543.0");
  EXPECT_EQ(WithThousandsSeparators("1234.567"), "1,234.567");
}

TEST(ThousandsSeparators, KeepsTheSignOutOfTheGroups) {
  EXPECT_EQ(WithThousandsSeparators("-123"), "-123");
  EXPECT_EQ(WithThousandsSeparators("-1000"), "-1,000");
  EXPECT_EQ(WithThousandsSeparators("-121288629"), "-121,288,629");
}

KernelSumBuilder TwoKernels() {
  KernelSumBuilder builder;
  builder.BeginReport();
  for (std::uint64_t duration : {1000, 100, 400, 200}) {
    builder.AddKernel(Kernel(1, "A", kStatsT0, kStatsT0 + duration));
  }
  builder.BeginReport();  // a second report: id 1 is another kernel there
  for (std::uint64_t duration : {50, 60})
    builder.AddKernel(Kernel(1, "B", kStatsT0, kStatsT0 + duration));
  builder.AddKernel(Kernel(2, "B", kStatsT0, kStatsT0 + 50));
  builder.AddKernel(Kernel(2, "B", 0, 0));  // untimed: not a sample
  return builder;
}

TEST(KernelSum, ColumnLayout) {
  const char* expected =
      // clang-format off
      " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n"
      "\n"
      " Time (%)  Total Time (ns)  Instances  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)  Name\n"
      " --------  ---------------  ---------  --------  --------  --------  --------  -----------  ----\n"
      "     91.4            1,700          4     425.0     300.0       100     1,000        403.1  A\n"
      "      8.6              160          3      53.3      50.0        50        60          5.8  B\n"
      "\n";
  // clang-format on
  EXPECT_EQ(Write(TwoKernels().Build(), StatsFormat::kColumn), expected);
}

TEST(KernelSum, Csv) {
  EXPECT_EQ(
      Write(TwoKernels().Build(), StatsFormat::kCsv),
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "91.4,1700,4,425.0,300.0,100,1000,403.1,A\n"
      "8.6,160,3,53.3,50.0,50,60,5.8,B\n");
}

TEST(KernelSum, JsonParsesBackWithNumbersAsNumbers) {
  KernelSumBuilder builder;
  builder.BeginReport();
  const std::string weird = "void k<\"q\", '\\\\'>(char*)\n\t\x01";
  builder.AddKernel(Kernel(1, weird, kStatsT0, kStatsT0 + 1'234'567));
  builder.AddKernel(Kernel(2, "plain", kStatsT0, kStatsT0 + 3));
  std::string json = Write(builder.Build(), StatsFormat::kJson);
  std::string error;
  std::optional<JsonValue> document = ParseJson(json, &error);
  ASSERT_TRUE(document.has_value()) << error << "\n" << json;
  ASSERT_EQ(document->kind, JsonValue::Kind::kArray);
  ASSERT_EQ(document->array.size(), 2u);
  const JsonValue& first = document->array[0];
  ASSERT_EQ(first.object.size(), 9u);
  EXPECT_EQ(first.object[0].first, "Time (%)");
  EXPECT_EQ(first.Find("Name")->text, weird);
  const JsonValue* total = first.Find("Total Time (ns)");
  ASSERT_NE(total, nullptr);
  EXPECT_EQ(total->kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(total->text, "1234567");
  EXPECT_EQ(first.Find("Instances")->number, 1);
  EXPECT_EQ(first.Find("StdDev (ns)")->number, 0);
  EXPECT_EQ(first.Find("Time (%)")->text, "100.0");
  EXPECT_EQ(document->array[1].Find("Name")->text, "plain");
}

TEST(KernelSum, EmptyTablesSaySoInEveryFormat) {
  StatsTable empty = KernelSumBuilder().Build();
  EXPECT_EQ(Write(empty, StatsFormat::kColumn),
            " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n\n"
            "SKIPPED: no CUDA kernel data in the report(s)\n\n");
  EXPECT_EQ(
      Write(empty, StatsFormat::kCsv),
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n");
  EXPECT_EQ(Write(empty, StatsFormat::kJson), "[]\n");
}

TEST(ApiSum, SameSelectionAsTheNvprofSummary) {
  ApiSumBuilder builder;
  builder.BeginReport();
  builder.AddApiCall(Api(1, "cudaMalloc", kStatsT0, kStatsT0 + 3000));
  builder.AddApiCall(Api(1, "cudaMalloc", kStatsT0, kStatsT0 + 1000));
  builder.AddApiCall(Driver(2, "cuLaunchKernel", kStatsT0, kStatsT0 + 500));
  builder.AddApiCall(Driver(3, "cuMemAlloc_v2", kStatsT0, kStatsT0 + 900, /*nested=*/true));
  EXPECT_EQ(
      Write(builder.Build(), StatsFormat::kCsv),
      "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "88.9,4000,2,2000.0,2000.0,1000,3000,1414.2,cudaMalloc\n"
      "11.1,500,1,500.0,500.0,500,500,0.0,cuLaunchKernel\n");
}

MemOpsBuilder SomeMemOps() {
  MemOpsBuilder builder;
  builder.AddMemcpy(Memcpy(CopyKind::kHtoD, kStatsT0, kStatsT0 + 1000, 4194304));
  builder.AddMemcpy(Memcpy(CopyKind::kHtoD, kStatsT0, kStatsT0 + 3000, 4194304));
  builder.AddMemcpy(Memcpy(CopyKind::kDtoH, kStatsT0, kStatsT0 + 2000, 4194304));
  builder.AddMemset(Memset(kStatsT0, kStatsT0 + 500, 1000));
  builder.AddMemset(Memset(kStatsT0, kStatsT0 + 700, 2000000));
  builder.AddMemset(Memset(kStatsT0, kStatsT0 + 900, 3000));
  builder.AddMemcpy(Memcpy(CopyKind::kDtoD, 0, 0, 77));  // untimed: in neither table
  return builder;
}

TEST(MemTimeSum, ColumnLayoutMatchesNsys) {
  const char* expected =
      // clang-format off
      " ** CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum):\n"
      "\n"
      " Time (%)  Total Time (ns)  Count  Avg (ns)  Med (ns)  Min (ns)  Max (ns)  StdDev (ns)           Operation\n"
      " --------  ---------------  -----  --------  --------  --------  --------  -----------  ----------------------------\n"
      "     49.4            4,000      2   2,000.0   2,000.0     1,000     3,000      1,414.2  [CUDA memcpy Host-to-Device]\n"
      "     25.9            2,100      3     700.0     700.0       500       900        200.0  [CUDA memset]\n"
      "     24.7            2,000      1   2,000.0   2,000.0     2,000     2,000          0.0  [CUDA memcpy Device-to-Host]\n"
      "\n";
  // clang-format on
  EXPECT_EQ(Write(SomeMemOps().BuildTimeTable(), StatsFormat::kColumn), expected);
}

TEST(MemSizeSum, MegabytesOfTenToTheSix) {
  const char* expected =
      // clang-format off
      " ** CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum):\n"
      "\n"
      " Total (MB)  Count  Avg (MB)  Med (MB)  Min (MB)  Max (MB)  StdDev (MB)           Operation\n"
      " ----------  -----  --------  --------  --------  --------  -----------  ----------------------------\n"
      "      8.389      2     4.194     4.194     4.194     4.194        0.000  [CUDA memcpy Host-to-Device]\n"
      "      4.194      1     4.194     4.194     4.194     4.194        0.000  [CUDA memcpy Device-to-Host]\n"
      "      2.004      3     0.668     0.003     0.001     2.000        1.154  [CUDA memset]\n"
      "\n";
  // clang-format on
  EXPECT_EQ(Write(SomeMemOps().BuildSizeTable(), StatsFormat::kColumn), expected);
}

TEST(NvtxSum, StylesDomainsAndWhatIsLeftOut) {
  NvtxSumBuilder builder;
  auto range = [](model::NvtxKind kind, std::string_view domain, std::string_view name,
                  std::uint64_t start, std::uint64_t end) {
    model::NvtxRecord record;
    record.kind = kind;
    record.domain = domain;
    record.name = name;
    record.start = start;
    record.end = end;
    return record;
  };
  using model::NvtxKind;
  builder.AddNvtx(range(NvtxKind::kPushPopRange, "", "step", kStatsT0, kStatsT0 + 10));
  builder.AddNvtx(range(NvtxKind::kPushPopRange, "", "step", kStatsT0 + 50, kStatsT0 + 80));
  builder.AddNvtx(range(NvtxKind::kStartEndRange, "io", "load", kStatsT0, kStatsT0 + 100));
  builder.AddNvtx(range(NvtxKind::kPushPopRange, "io", "load", kStatsT0, kStatsT0 + 5));
  builder.AddNvtx(
      range(NvtxKind::kMark, "", "checkpoint", kStatsT0, kStatsT0));         // a mark: no duration
  builder.AddNvtx(range(NvtxKind::kPushPopRange, "", "step", kStatsT0, 0));  // never ended
  EXPECT_EQ(Write(builder.Build(), StatsFormat::kCsv),
            // clang-format off
            "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range\n"
            "69.0,100,1,100.0,100.0,100,100,0.0,StartEnd,io:load\n"
            "27.6,40,2,20.0,20.0,10,30,14.1,PushPop,:step\n"
            "3.4,5,1,5.0,5.0,5,5,0.0,PushPop,io:load\n");
  // clang-format on
}

TEST(WriteStatsReport, UnknownNameListsTheKnownOnes) {
  std::ostringstream out;
  Status status = WriteStatsReport("cuda_gpu_kernsum", {}, StatsFormat::kColumn, out);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            // clang-format off
            "unknown report 'cuda_gpu_kernsum' (known reports: cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum, cuda_gpu_kern_gb_sum, nvtx_kern_sum, "
            "nvtx_gpu_proj_sum, cuda_gpu_trace, cuda_api_trace, cuda_gpu_kern_callsite_sum, gpu_metrics_sum, rank_align, rank_kern_sum, "
            "rank_nvtx_sum, rank_comm_sum, nccl_sum)");
  // clang-format on
  EXPECT_TRUE(out.str().empty());
  EXPECT_EQ(StatsReportNames(),
            (std::vector<std::string>{"cuda_gpu_kern_sum", "cuda_api_sum", "cuda_gpu_mem_time_sum",
                                      "cuda_gpu_mem_size_sum", "nvtx_sum", "cuda_gpu_kern_gb_sum",
                                      "nvtx_kern_sum", "nvtx_gpu_proj_sum", "cuda_gpu_trace",
                                      "cuda_api_trace", "cuda_gpu_kern_callsite_sum",
                                      "gpu_metrics_sum"}));
}

TEST(WriteStatsReport, NoReportIsAnError) {
  std::ostringstream out;
  EXPECT_EQ(WriteStatsReport("nvtx_sum", {}, StatsFormat::kJson, out).message(),
            "no report to print");
}

TEST(ParseOptions, UnitsAndFormats) {
  EXPECT_EQ(*ParseTimeUnit("ms"), TimeUnit::kMilliseconds);
  EXPECT_EQ(*ParseTimeUnit("auto"), TimeUnit::kAuto);
  EXPECT_EQ(ParseTimeUnit("min").status().message(),
            "unknown time unit 'min' (expected s, ms, us, ns or auto)");
  EXPECT_EQ(*ParseStatsFormat("json"), StatsFormat::kJson);
  EXPECT_EQ(ParseStatsFormat("table").status().message(),
            "unknown output format 'table' (expected column, csv or json)");
}

TEST(JsonChecker, RejectsWhatIsNotJson) {
  std::string error;
  EXPECT_TRUE(ParseJson("[{\"a\": 1.5, \"b\": \"x\"}]", &error).has_value()) << error;
  EXPECT_FALSE(ParseJson("[1,]", &error).has_value());
  EXPECT_FALSE(ParseJson("[nan]", &error).has_value());
  EXPECT_FALSE(ParseJson("[\"raw\nnewline\"]", &error).has_value());
  EXPECT_FALSE(ParseJson("{\"a\" 1}", &error).has_value());
  EXPECT_FALSE(ParseJson("[1.]", &error).has_value());
  EXPECT_FALSE(ParseJson("[1] x", &error).has_value());
}

}  // namespace
}  // namespace gpuscope::analysis
