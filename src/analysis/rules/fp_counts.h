// Thread-level floating-point instruction counts of a kernel (predicated-on SASS), shared by
// the FP64 and fusion rules.
#pragma once

#include <optional>
#include <string>

#include "analysis/rules/rule_inputs.h"

namespace gpuscope::analysis::rules {

struct FpCounts {
  double add = 0, mul = 0, fma = 0;
  double Total() const { return add + mul + fma; }
};

// 'f' (FP32) or 'd' (FP64); nullopt when a count is missing.
std::optional<FpCounts> ReadFpCounts(const RuleInputs& in, char precision);

// The kernel computes mostly in FP32 and some operations are promoted to FP64: FP32
// arithmetic is at least half as frequent as FP64 arithmetic. A pure FP64 kernel (DFMA
// loops over double data) has almost no FP32 arithmetic.
bool LooksLikeFp32Data(const FpCounts& fp32, const FpCounts& fp64);

// " The hottest FP64 lines: 176,092,900 DADD at k.cu:4 `s += x;`; ...": the (up to three)
// lines with the most executed FP64 thread instructions, when the kernel has source data; "".
std::string Fp64Places(const RuleInputs& in);

}  // namespace gpuscope::analysis::rules
