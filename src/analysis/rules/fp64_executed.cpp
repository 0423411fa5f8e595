// FP64 arithmetic in a kernel whose data is FP64 (no FP32 arithmetic to speak of): a fact
// worth knowing on chips whose FP64 rate is a fraction of FP32, not a mistake to fix.
#include "analysis/rules/all_rules.h"
#include "analysis/rules/fp_counts.h"

namespace gpuscope::analysis::rules {
namespace {

std::optional<Finding> EvaluateFp64Executed(const RuleInputs& in) {
  const auto fp32 = ReadFpCounts(in, 'f');
  const auto fp64 = ReadFpCounts(in, 'd');
  if (!fp32 || !fp64 || fp64->Total() <= 0 || LooksLikeFp32Data(*fp32, *fp64)) {
    return std::nullopt;
  }
  std::string message = "The kernel executes " + Count(fp64->Total()) +
                        " FP64 operations and only " + Count(fp32->Total()) + " FP32 ones";
  if (const auto pipe = in.Metric("sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active")) {
    message += "; the FP64 pipe is " + Fixed(*pipe, 1) + "% busy";
  }
  const auto f_peak = in.Metric("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained");
  const auto d_peak = in.Metric("sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained");
  if (f_peak && d_peak && *d_peak > 0) {
    message += ". This device's FP32:FP64 peak ratio is " + Fixed(*f_peak / *d_peak, 0) +
               ":1; if the algorithm tolerates FP32 (or mixed precision), it runs on the faster "
               "pipe";
  }
  message += "." + Fp64Places(in);
  return MakeFinding(Fp64ExecutedRule(), "FP64 Executed", message, std::nullopt);
}

}  // namespace

const Rule& Fp64ExecutedRule() {
  static const Rule rule{"fp64_executed",
                         "InstructionStats",
                         Severity::kInf,
                         "FP64 instructions executed in a kernel whose arithmetic is FP64 (FP32 "
                         "less than half as frequent)",
                         "",
                         EvaluateFp64Executed};
  return rule;
}

}  // namespace gpuscope::analysis::rules
