#include "analysis/roofline/roofline.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "analysis/metrics/profile_loader.h"
#include "render/roofline_format.h"
#include "render/roofline_svg.h"
#include "store/report_reader.h"

namespace gpuscope::analysis::roofline {
namespace {

using render::RooflineSvg;
using render::WriteRooflineCsv;
using render::WriteRooflineText;

// The recorded report's kernels by function name (the first launch of each).
std::map<std::string, RooflineResult> RecordedRooflines() {
  auto reader = store::ReportReader::Open(std::string(GPUSCOPE_TEST_DATA_DIR) +
                                          "/reports/h100_metrics_full.sqlite");
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  auto profiles = metrics::LoadKernelProfiles(**reader);
  EXPECT_TRUE(profiles.ok());
  std::map<std::string, RooflineResult> results;
  for (const metrics::KernelProfile& p : *profiles)
    results.try_emplace(p.function_name, ComputeRoofline(p));
  return results;
}

TEST(RooflineRecorded, SaxpyIsMemoryBoundNearTheDramRoof) {
  RooflineResult r = RecordedRooflines().at("k_saxpy");
  EXPECT_EQ(r.verdict.bound, Bound::kMemory);
  EXPECT_EQ(r.verdict.limiter, "DRAM");
  // 83% of the H100 SXM's 3.35 TB/s (the recording's card: tests/data/reports/README.md).
  EXPECT_NEAR(*r.level(MemoryLevel::kDram).peak_bytes_per_second, 3.35e12, 0.01e12);
  EXPECT_NEAR(*r.level(MemoryLevel::kDram).pct_of_peak, 82.9, 0.5);
  EXPECT_NEAR(*r.verdict.headroom, 1.21, 0.02);
  // FP32: 2 FLOPs per element (one FMA) at 0.17 FLOP per DRAM byte.
  EXPECT_NEAR(*r.Intensity(Precision::kFp32, MemoryLevel::kDram), 0.168, 0.002);
  EXPECT_TRUE(r.missing.empty());
}

TEST(RooflineRecorded, FmaIsCompute32BoundNearTheFp32Roof) {
  RooflineResult r = RecordedRooflines().at("k_fma_fp32");
  EXPECT_EQ(r.verdict.bound, Bound::kCompute);
  EXPECT_EQ(r.verdict.limiter, "FP32");
  EXPECT_NEAR(*r.rate(Precision::kFp32).peak_flop_per_second, 67.3e12, 0.5e12);
  EXPECT_GT(*r.rate(Precision::kFp32).pct_of_peak, 80.0);
}

TEST(RooflineRecorded, DfmaIsFp64Bound) {
  RooflineResult r = RecordedRooflines().at("k_dfma_fp64");
  EXPECT_EQ(r.verdict.bound, Bound::kCompute);
  EXPECT_EQ(r.verdict.limiter, "FP64");
  EXPECT_EQ(r.MainPrecision(), Precision::kFp64);
  EXPECT_GT(*r.rate(Precision::kFp64).pct_of_peak, 90.0);
}

TEST(RooflineRecorded, TinyIsLatencyBound) {
  RooflineResult r = RecordedRooflines().at("k_tiny");
  EXPECT_EQ(r.verdict.bound, Bound::kLatency);
  // Its few blocks keep every unit far below its peak (11.6% at most on the H100).
  EXPECT_LT(*r.verdict.utilization_pct, 20.0);
}

// Shared-memory bank conflicts saturate L1/TEX's data stage while its tag stage counts almost
// no bytes: the L1 row says the level is busy, as the verdict does (it used to print 0.00%
// next to a verdict of "L1/TEX at 99.9%").
TEST(RooflineRecorded, BankConflictsBoundByL1EvenWithFewBytes) {
  RooflineResult r = RecordedRooflines().at("k_smem_bank_conflicts");
  EXPECT_EQ(r.verdict.bound, Bound::kMemory);
  EXPECT_EQ(r.verdict.limiter, "L1");
  const Bandwidth& l1 = r.level(MemoryLevel::kL1);
  EXPECT_LT(*l1.bytes_per_second / *l1.peak_bytes_per_second, 0.01);  // few tag-stage bytes
  EXPECT_GT(*l1.pct_of_peak, 99.0);
  EXPECT_FALSE(l1.busy_source.empty());
  EXPECT_DOUBLE_EQ(*r.verdict.utilization_pct, *l1.pct_of_peak);
}

// Whatever roof the verdict names, the table's row for that roof (or the header line, for the
// generic SM and memory stages) shows the same share of peak.
TEST(RooflineRecorded, TheVerdictAndTheTableAgreeOnEveryKernel) {
  for (const auto& [name, r] : RecordedRooflines()) {
    if (r.verdict.bound != Bound::kMemory && r.verdict.bound != Bound::kCompute) continue;
    // The generic stages are the header line's Speed Of Light numbers.
    std::optional<double> row = r.verdict.limiter == "SM" ? r.sm_throughput_pct
                                : r.verdict.limiter == "memory" || r.verdict.limiter == "L1/TEX"
                                    ? r.memory_throughput_pct
                                    : std::nullopt;
    for (const Bandwidth& bw : r.levels) {
      if (MemoryLevelName(bw.level) == r.verdict.limiter) row = bw.pct_of_peak;
    }
    for (const FlopRate& rate : r.precisions) {
      if (PrecisionName(rate.precision) == r.verdict.limiter) row = rate.pct_of_peak;
    }
    ASSERT_TRUE(row.has_value()) << name << ": the verdict names " << r.verdict.limiter
                                 << ", which has no row in the table";
    EXPECT_DOUBLE_EQ(*row, *r.verdict.utilization_pct) << name;
  }
}

TEST(RooflineRecorded, L2RoofFromItsMeasuredShareAgreesWithTheChipTable) {
  RooflineResult r = RecordedRooflines().at("k_saxpy");
  EXPECT_EQ(r.level(MemoryLevel::kL2).peak_source, "measured share of peak");
  EXPECT_NEAR(*r.level(MemoryLevel::kL2).peak_bytes_per_second, 13.11e12, 0.1e12);
}

metrics::KernelProfile Synthetic() {
  metrics::KernelProfile p;
  p.function_name = "k";
  p.chip = "GH100";
  p.measured = true;
  p.device.num_sms = 132;
  p.metrics = {
      {"gpu__time_duration.sum", 1000.0},  // 1 us
      {"sm__cycles_elapsed.avg.per_second", 2e9},
      {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 16896},
      {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", 8448},
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 1e6},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 2e6},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 3e6},
      {"dram__bytes.sum", 1e6},  // 1 TB/s: a third of the roof
      {"dram__bytes.sum.peak_sustained", 1500},
      {"dram__cycles_elapsed.avg.per_second", 2e9},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 20},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 30},
  };
  return p;
}

TEST(RooflineSynthetic, FlopsAreAddPlusMulPlusTwiceFma) {
  RooflineResult r = ComputeRoofline(Synthetic());
  EXPECT_DOUBLE_EQ(*r.rate(Precision::kFp32).flops, 1e6 + 2e6 + 2 * 3e6);
  EXPECT_DOUBLE_EQ(*r.rate(Precision::kFp32).flop_per_second, 9e6 / 1e-6);
  EXPECT_DOUBLE_EQ(*r.rate(Precision::kFp32).peak_flop_per_second, 16896 * 2 * 2e9);
  EXPECT_DOUBLE_EQ(*r.level(MemoryLevel::kDram).peak_bytes_per_second, 3e12);
  EXPECT_DOUBLE_EQ(*r.Intensity(Precision::kFp32, MemoryLevel::kDram), 9e6 / 1e6);
  EXPECT_NEAR(*r.level(MemoryLevel::kDram).pct_of_peak, 100.0 / 3, 1e-9);
}

TEST(RooflineSynthetic, DramAboveSixtyPercentIsMemoryBound) {
  metrics::KernelProfile p = Synthetic();
  // 2 MB in 1 us = 2 TB/s of the 3 TB/s roof = 66.7%.
  p.metrics["dram__bytes.sum"] = 2e6;
  p.metrics["gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"] = 66.7;
  RooflineResult r = ComputeRoofline(p);
  EXPECT_EQ(r.verdict.bound, Bound::kMemory);
  EXPECT_EQ(r.verdict.limiter, "DRAM");
  EXPECT_NEAR(*r.verdict.headroom, 1.5, 0.01);
}

TEST(RooflineSynthetic, TensorFlopsComeFromTheOpsCountersAndTheRoofFromThePipe) {
  metrics::KernelProfile p = Synthetic();
  // The H200's 4096^3 FP16 matmul: 2 n^3 ops in 183.328 us with the tensor pipe 89.79% busy.
  p.metrics["gpu__time_duration.sum"] = 183328;
  p.metrics["sm__ops_path_tensor_src_fp16.sum"] = 137438953472.0;
  p.metrics["sm__ops_path_tensor_src_bf16_dst_fp32.sum"] = 0;
  p.metrics["sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"] = 89.79;
  // The sparse rate the counters call peak_sustained must not become the roof.
  p.metrics["sm__ops_path_tensor_src_fp16.sum.peak_sustained"] = 1081344;
  RooflineResult r = ComputeRoofline(p);
  const auto& tensor = r.precisions[3];
  ASSERT_TRUE(tensor.flops && tensor.flop_per_second && tensor.peak_flop_per_second);
  EXPECT_DOUBLE_EQ(*tensor.flops, 137438953472.0);
  EXPECT_NEAR(*tensor.flop_per_second / 1e12, 749.7, 0.1);  // Tflop/s
  EXPECT_NEAR(*tensor.pct_of_peak, 89.79, 1e-9);
  EXPECT_NEAR(*tensor.peak_flop_per_second / 1e12, 749.7 / 0.8979, 0.2);
}

TEST(RooflineSynthetic, NothingBusyIsLatencyBound) {
  metrics::KernelProfile p = Synthetic();
  p.metrics["dram__bytes.sum"] = 1e3;
  RooflineResult r = ComputeRoofline(p);
  EXPECT_EQ(r.verdict.bound, Bound::kLatency);
  EXPECT_EQ(r.verdict.limiter, "memory");
  EXPECT_NEAR(*r.verdict.utilization_pct, 30.0, 1e-9);
}

TEST(RooflineSynthetic, MissingInputsAreNamedNotGuessed) {
  metrics::KernelProfile p = Synthetic();
  p.metrics.erase("gpu__time_duration.sum");
  p.metrics.erase("dram__bytes.sum.peak_sustained");
  RooflineResult r = ComputeRoofline(p);
  EXPECT_EQ(r.verdict.bound, Bound::kUnknown);
  EXPECT_FALSE(r.level(MemoryLevel::kDram).peak_bytes_per_second);
  EXPECT_NE(std::find(r.missing.begin(), r.missing.end(), "gpu__time_duration.sum"),
            r.missing.end());
  EXPECT_NE(std::find(r.missing.begin(), r.missing.end(), "dram__bytes.sum.peak_sustained"),
            r.missing.end());
  std::ostringstream text;
  WriteRooflineText(r, text);
  EXPECT_NE(text.str().find("Missing metrics:"), std::string::npos);
}

TEST(RooflineSynthetic, UnmeasuredKernelSaysWhy) {
  metrics::KernelProfile p = Synthetic();
  p.measured = false;
  p.failure = "replay failed";
  RooflineResult r = ComputeRoofline(p);
  EXPECT_EQ(r.verdict.bound, Bound::kUnknown);
  EXPECT_NE(r.verdict.reason.find("replay failed"), std::string::npos);
}

TEST(RooflineSvg, DrawsRoofsAndPointsAndListsKernelsWithoutFlops) {
  metrics::KernelProfile no_flops = Synthetic();
  no_flops.function_name = "copy<int>";
  for (const char* op : {"fadd", "fmul", "ffma"}) {
    no_flops.metrics[std::string("smsp__sass_thread_inst_executed_op_") + op + "_pred_on.sum"] = 0;
  }
  std::string svg = RooflineSvg({ComputeRoofline(Synthetic()), ComputeRoofline(no_flops)});
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("<circle"), std::string::npos);  // the DRAM point
  // FP32 and FP16 share one roof (and one label) in the synthetic profile.
  EXPECT_NE(svg.find("FP32, FP16 peak"), std::string::npos);
  EXPECT_NE(svg.find("copy&lt;int&gt;"), std::string::npos);  // escaped, listed off-chart
  EXPECT_NE(svg.find("No FLOPs"), std::string::npos);
}

TEST(RooflineCsv, OneRowPerKernelWithRawNumbers) {
  std::ostringstream csv;
  WriteRooflineCsv({ComputeRoofline(Synthetic())}, csv);
  std::string text = csv.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  EXPECT_NE(text.find(",9000000,"), std::string::npos);  // FP32 FLOPs, unscaled
  EXPECT_NE(text.find("latency-bound"), std::string::npos);
}

TEST(RooflineText, ControlCharactersInTheKernelNamePrintEscaped) {
  RooflineResult r = RecordedRooflines().at("k_saxpy");
  r.kernel_name = "k\x1b]0;pwn\x07\r\nx";
  r.chip = "k\x1b]0;pwn\x07\r\nx";
  std::ostringstream out;
  WriteRooflineText(r, out);
  EXPECT_EQ(out.str().find_first_of("\x1b\x07\r"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().rfind(std::string("  ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + " (", 0), 0u)
      << out.str();
  EXPECT_NE(out.str().find(std::string("  ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(RooflineSvg({r}).find("k\xef\xbf\xbd]0;pwn"), std::string::npos);  // XML: U+FFFD
}

}  // namespace
}  // namespace gpuscope::analysis::roofline
