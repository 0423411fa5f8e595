// Pure string logic on CUPTI metric names (no CUPTI): splitting a full name into base and
// sub-metric, and ranking candidates by edit distance for "did you mean" suggestions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::cupti::host {

struct MetricNameParts {
  std::string_view base;    // "dram__bytes", "LTS.TriageCompute.lts__t_sectors"
  std::string_view suffix;  // ".sum.per_second", with its leading '.'; empty for a bare base
};

// Splits at the first '.' after the name's first "__" (base names never have a '.' after it, but
// some have a dotted prefix before it); a name with no "__" splits at its first '.'.
MetricNameParts SplitMetricName(std::string_view name);

// Levenshtein distance, ASCII case-insensitive (so "DRAM__BYTES" is near "dram__bytes").
std::size_t EditDistance(std::string_view a, std::string_view b);

// Up to `count` candidates nearest to `query` by EditDistance, nearest first; ties keep the
// candidates' order.
std::vector<std::string> NearestCandidates(std::string_view query,
                                           const std::vector<std::string>& candidates,
                                           std::size_t count);

}  // namespace gpuscope::cupti::host
