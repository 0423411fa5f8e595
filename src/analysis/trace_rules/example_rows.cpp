#include "analysis/trace_rules/example_rows.h"

#include <algorithm>

namespace gpuscope::analysis::trace_rules {

void ExampleRows::Offer(CitedRow row, std::uint64_t rank) {
  if (limit_ == 0) return;
  auto before = [](const Ranked& a, const Ranked& b) {
    if (a.rank != b.rank) return a.rank > b.rank;
    return a.row.start < b.row.start;
  };
  Ranked ranked{rank, std::move(row)};
  if (rows_.size() < limit_) {
    rows_.push_back(std::move(ranked));
    return;
  }
  // The list is tiny: a linear search for the last one beats keeping a heap.
  auto last = std::min_element(rows_.begin(), rows_.end(),
                               [&](const Ranked& a, const Ranked& b) { return before(b, a); });
  if (before(ranked, *last)) *last = std::move(ranked);
}

std::vector<CitedRow> ExampleRows::Sorted() const {
  std::vector<Ranked> sorted = rows_;
  std::sort(sorted.begin(), sorted.end(), [](const Ranked& a, const Ranked& b) {
    if (a.rank != b.rank) return a.rank > b.rank;
    return a.row.start < b.row.start;
  });
  std::vector<CitedRow> rows;
  for (Ranked& ranked : sorted) rows.push_back(std::move(ranked.row));
  return rows;
}

}  // namespace gpuscope::analysis::trace_rules
