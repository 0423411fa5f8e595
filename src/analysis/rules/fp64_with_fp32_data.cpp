// FP64 arithmetic in a kernel that otherwise computes in FP32: the likely cause is a double
// literal (`x * 0.5` instead of `0.5f`) or a double accumulator, as in reference 000. Every
// promoted value also costs a float<->double conversion, which on CC 9.0 runs on the XU pipe
// at a quarter of the FP64 rate (our k_fp64_accumulator: XU 63.5% vs FP64 15.8%, 4:1).
#include <algorithm>

#include "analysis/rules/all_rules.h"
#include "analysis/rules/fp_counts.h"

namespace gpuscope::analysis::rules {
namespace {

std::optional<Finding> EvaluateFp64WithFp32Data(const RuleInputs& in) {
  const auto fp32 = ReadFpCounts(in, 'f');
  const auto fp64 = ReadFpCounts(in, 'd');
  if (!fp32 || !fp64 || !LooksLikeFp32Data(*fp32, *fp64)) return std::nullopt;
  const auto fp64_pipe = in.Metric("sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active");
  const auto xu_pipe = in.Metric("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active");
  if (!fp64_pipe || !in.sm_pct()) return std::nullopt;
  // Speedup = max(FP64 pipe %, XU pipe %) x min(1, SM throughput / busiest unit): the FP64
  // work and its conversions leave with the fix (work-reducing, weighted by how busy the
  // pipes are), scaled down when the SM is not the unit that bounds the kernel.
  const double freed = std::max(*fp64_pipe, xu_pipe.value_or(0));
  const double sm_share = in.busiest_pct() > 0 ? std::min(1.0, *in.sm_pct() / in.busiest_pct()) : 0;
  const double speedup = RuleInputs::WorkSpeedup(1.0, freed) * sm_share;
  std::string message = "The kernel executes " + Count(fp64->Total()) + " FP64 operations (DADD " +
                        Count(fp64->add) + ", DMUL " + Count(fp64->mul) + ", DFMA " +
                        Count(fp64->fma) + ") next to " + Count(fp32->Total()) +
                        " FP32 operations, so its data is most likely FP32 and a double literal "
                        "or a double accumulator promotes part of the arithmetic to FP64. "
                        "The FP64 pipe is " +
                        Fixed(*fp64_pipe, 1) + "% busy";
  if (xu_pipe) {
    message +=
        " and the XU pipe, where float<->double conversions run, " + Fixed(*xu_pipe, 1) + "%";
  }
  message +=
      ". Use float literals (0.5f) and a float accumulator, or keep the double accumulator per "
      "thread and convert once at the end.";
  message += Fp64Places(in);
  return MakeFinding(Fp64WithFp32DataRule(), "FP64 With FP32 Data", message, speedup);
}

}  // namespace

const Rule& Fp64WithFp32DataRule() {
  static const Rule rule{
      "fp64_with_fp32_data",
      "InstructionStats",
      Severity::kOpt,
      "FP64 instructions executed while FP32 arithmetic is at least half as frequent (FP32 data "
      "promoted by a double literal or accumulator)",
      "max(FP64 pipe %, XU pipe %) x min(1, SM throughput / busiest unit throughput)",
      EvaluateFp64WithFp32Data};
  return rule;
}

}  // namespace gpuscope::analysis::rules
