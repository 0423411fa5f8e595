// Separate multiply and add instructions that one fused multiply-add could replace.
#include <algorithm>

#include "analysis/rules/all_rules.h"
#include "analysis/rules/fp_counts.h"

namespace gpuscope::analysis::rules {
namespace {

struct Candidate {
  std::string precision;
  FpCounts counts;
  double pairs = 0;
  double speedup = 0;
};

std::optional<Finding> EvaluateUnfusedFp(const RuleInputs& in) {
  std::optional<Candidate> best;
  const std::pair<char, const char*> precisions[] = {
      {'f', "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"},
      {'d', "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"}};
  for (const auto& [precision, pipe_metric] : precisions) {
    const auto counts = ReadFpCounts(in, precision);
    const auto pipe = in.Metric(pipe_metric);
    if (!counts || !pipe || counts->Total() <= 0) continue;
    // Speedup = min(add, mul) / (add + mul + fma) x pipe %: each pair fused removes one
    // instruction from that pipe (work-reducing).
    const double pairs = std::min(counts->add, counts->mul);
    const double share = pairs / counts->Total();
    // Below 10% of the pipe's instructions, or under 1% of the kernel: not worth a finding.
    if (share < 0.10) continue;
    const double speedup = RuleInputs::WorkSpeedup(share, *pipe);
    if (speedup < 1.0) continue;
    if (!best || speedup > best->speedup) {
      best = Candidate{precision == 'f' ? "FP32" : "FP64", *counts, pairs, speedup};
    }
  }
  if (!best) return std::nullopt;
  return MakeFinding(UnfusedFpRule(), "Unfused " + best->precision + " Arithmetic",
                     "The kernel executes " + Count(best->counts.fma) + " fused and " +
                         Count(best->counts.add + best->counts.mul) + " non-fused " +
                         best->precision + " instructions (" + Count(best->counts.add) + " adds, " +
                         Count(best->counts.mul) + " multiplies). Up to " + Count(best->pairs) +
                         " multiply/add pairs could become one FMA each: check that fast "
                         "fusion is not disabled (-fmad=false) and write a*b+c where possible.",
                     best->speedup);
}

}  // namespace

const Rule& UnfusedFpRule() {
  static const Rule rule{
      "unfused_fp",
      "InstructionStats",
      Severity::kOpt,
      "FP32 or FP64 adds and multiplies that could pair into FMAs make >= 10% of the "
      "precision's arithmetic (and the estimate is >= 1%)",
      "min(add, mul) / (add + mul + fma) x FMA (or FP64) pipe %",
      EvaluateUnfusedFp};
  return rule;
}

}  // namespace gpuscope::analysis::rules
