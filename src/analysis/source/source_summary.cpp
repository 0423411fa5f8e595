#include "analysis/source/source_summary.h"

#include <algorithm>

namespace gpuscope::analysis::source {

ColumnValues KernelTotals(const KernelSource& kernel) {
  ColumnValues totals(SourceColumns().size());
  for (const InstructionRow& row : kernel.instructions) AddColumns(totals, row.values);
  return totals;
}

std::vector<std::size_t> ColumnsWithValues(const KernelSource& kernel) {
  std::vector<std::size_t> shown;
  for (std::size_t c = 0; c < SourceColumns().size(); ++c) {
    for (const InstructionRow& row : kernel.instructions) {
      if (c < row.values.size() && row.values[c]) {
        shown.push_back(c);
        break;
      }
    }
  }
  return shown;
}

std::vector<std::pair<std::size_t, std::uint64_t>> StallReasons(const ColumnValues& values) {
  std::vector<std::pair<std::size_t, std::uint64_t>> reasons;
  for (std::size_t c = 0; c < values.size() && c < SourceColumns().size(); ++c) {
    if (SourceColumns()[c].kind != ColumnKind::kStallReason) continue;
    if (values[c].value_or(0) > 0) reasons.emplace_back(c, *values[c]);
  }
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return reasons;
}

std::string FileBaseName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string NoSourceDataReason(const KernelSource* source) {
  if (source != nullptr && !source->instructions.empty()) return "";
  if (source == nullptr || !source->requested) {
    return "no source counters were collected for this launch; profile with --set full or "
           "--section SourceCounters";
  }
  if (!source->message.empty()) return source->message;
  return "the source passes recorded no instruction values";
}

}  // namespace gpuscope::analysis::source
