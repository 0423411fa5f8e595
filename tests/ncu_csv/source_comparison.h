// Comparing the per-instruction source pages of two tools for the same launch (issue 11,
// acceptance (a)): instructions are matched by their offset in the function and must have
// the same mnemonic; each compared column must agree within a relative tolerance per
// instruction, exactly where either value is zero. A value a tool leaves empty counts as
// zero (ncu prints "0" where gpuscope may print nothing for an instruction that cannot have
// the value, such as sectors of an IMAD).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "source_csv.h"

namespace gpuscope::ncu_csv {

struct SourceComparison {
  size_t matched_instructions = 0;
  size_t values_compared = 0;
  // Per column: how many instructions had a non-zero value in both tools. A column that is
  // all zeros compares nothing, so a test asks here whether it saw the kernel's character.
  std::map<std::string, size_t> nonzero_compared;
  // Columns the reference (ncu) did not print for this function; ncu leaves out columns
  // that no instruction of the function has (shared wavefronts in a kernel without shared
  // memory), so the other tool must have only zeros there.
  std::vector<std::string> absent_in_reference;
  std::vector<std::string> problems;  // one line each: structure or a value out of tolerance

  bool ok() const { return problems.empty(); }
};

// `reference` is ncu's page, `measured` gpuscope's, of one launch of one function.
SourceComparison CompareSourceFunctions(const SourceFunction& reference,
                                        const SourceFunction& measured,
                                        const std::vector<std::string>& columns,
                                        double relative_tolerance);

// The sum of `column` over the function's SASS rows (rows with an address).
double SassColumnSum(const SourceFunction& function, const std::string& column);

// A launch as both tools can name it: the function name and the n-th launch of that name
// on the page (from 0). Pages list launches in the order they were profiled.
using LaunchKey = std::pair<std::string, int>;

// `items` (SourceFunction or ProfiledLaunch: anything with a function_name) by LaunchKey.
template <typename T>
std::map<LaunchKey, const T*> ByLaunch(const std::vector<T>& items) {
  std::map<LaunchKey, const T*> keyed;
  std::map<std::string, int> ordinal;
  for (const T& item : items) keyed[{item.function_name, ordinal[item.function_name]++}] = &item;
  return keyed;
}

// Whether two counts agree: equal when either is zero, else within `relative_tolerance` of
// the reference.
bool CountsAgree(double reference, double measured, double relative_tolerance);

}  // namespace gpuscope::ncu_csv
