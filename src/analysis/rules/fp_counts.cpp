#include "analysis/rules/fp_counts.h"

#include <string>

namespace gpuscope::analysis::rules {

std::optional<FpCounts> ReadFpCounts(const RuleInputs& in, char precision) {
  const auto name = [precision](const char* op) {
    return "smsp__sass_thread_inst_executed_op_" + std::string(1, precision) + op + "_pred_on.sum";
  };
  const auto add = in.Metric(name("add"));
  const auto mul = in.Metric(name("mul"));
  const auto fma = in.Metric(name("fma"));
  if (!add || !mul || !fma) return std::nullopt;
  return FpCounts{*add, *mul, *fma};
}

bool LooksLikeFp32Data(const FpCounts& fp32, const FpCounts& fp64) {
  return fp64.Total() > 0 && fp32.Total() >= 0.5 * fp64.Total();
}

}  // namespace gpuscope::analysis::rules
