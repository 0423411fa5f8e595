#include "cupti/host/metric_names.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace gpuscope::cupti::host {

MetricNameParts SplitMetricName(std::string_view name) {
  std::size_t search_from = 0;
  if (std::size_t separator = name.find("__"); separator != std::string_view::npos) {
    search_from = separator + 2;
  }
  std::size_t dot = name.find('.', search_from);
  if (dot == std::string_view::npos) return {name, {}};
  return {name.substr(0, dot), name.substr(dot)};
}

std::size_t EditDistance(std::string_view a, std::string_view b) {
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  // One row of the dynamic-programming table: names are short (< 100 characters).
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      std::size_t substitution = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> NearestCandidates(std::string_view query,
                                           const std::vector<std::string>& candidates,
                                           std::size_t count) {
  std::vector<std::pair<std::size_t, std::size_t>> ranked;  // (distance, index)
  ranked.reserve(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::string& candidate = candidates[i];
    // The length difference bounds the distance from below: skip what cannot beat the worst
    // kept candidate once we have enough (thousands of bases, checked on every typo).
    std::size_t floor = candidate.size() > query.size() ? candidate.size() - query.size()
                                                        : query.size() - candidate.size();
    if (ranked.size() >= count && count > 0) {
      std::partial_sort(ranked.begin(), ranked.begin() + count, ranked.end());
      ranked.resize(count);
      if (floor > ranked.back().first) continue;
    }
    ranked.emplace_back(EditDistance(query, candidate), i);
  }
  std::stable_sort(ranked.begin(), ranked.end());
  std::vector<std::string> nearest;
  for (std::size_t k = 0; k < ranked.size() && k < count; ++k) {
    nearest.push_back(candidates[ranked[k].second]);
  }
  return nearest;
}

}  // namespace gpuscope::cupti::host
