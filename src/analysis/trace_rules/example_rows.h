// The few rows a finding cites: the longest N of however many matched, kept in O(N) memory
// while rows stream past.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/finding.h"

namespace gpuscope::analysis::trace_rules {

// Enough examples to find the pattern in a timeline viewer; the count says the rest.
inline constexpr std::size_t kCitedExamples = 5;

class ExampleRows {
 public:
  explicit ExampleRows(std::size_t limit = kCitedExamples) : limit_(limit) {}

  // Keeps `row` if its rank is among the `limit` largest seen so far (ties: the earlier
  // row). The rank is the row's duration unless the rule ranks by something else (the idle
  // gap before the row, say).
  void Offer(CitedRow row) {
    std::uint64_t rank = row.duration_ns;
    Offer(std::move(row), rank);
  }
  void Offer(CitedRow row, std::uint64_t rank);
  // Largest rank first; ties in start order.
  std::vector<CitedRow> Sorted() const;
  bool empty() const { return rows_.empty(); }

 private:
  std::size_t limit_;
  struct Ranked {
    std::uint64_t rank;
    CitedRow row;
  };
  std::vector<Ranked> rows_;
};

}  // namespace gpuscope::analysis::trace_rules
