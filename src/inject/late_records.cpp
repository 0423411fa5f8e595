#include "inject/late_records.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpuscope::inject {

void LateRecords::Add(std::string_view what, std::uint64_t count) {
  if (count == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = counts_.find(what);
  if (found == counts_.end()) found = counts_.emplace(std::string(what), 0).first;
  found->second += count;
  total_ += count;
}

std::uint64_t LateRecords::total() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return total_;
}

std::string LateRecords::Describe(std::size_t max_items) const {
  std::vector<std::pair<std::string, std::uint64_t>> items;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    items.assign(counts_.begin(), counts_.end());
  }
  // Stable on a name-ordered list: equal counts stay in name order.
  std::stable_sort(items.begin(), items.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  std::uint64_t rest = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i >= max_items) {
      rest += items[i].second;
      continue;
    }
    if (!text.empty()) text += ", ";
    text += std::to_string(items[i].second) + " " + items[i].first;
  }
  if (rest != 0) text += " and " + std::to_string(rest) + " more";
  return text;
}

}  // namespace gpuscope::inject
