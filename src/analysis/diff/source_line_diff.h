// `gpuscope diff` per source line: when both reports hold a kernel's source page (profiled with
// source counters), the main columns of ncu's source page compared line by line. Lines are
// joined by file base name and line number (the same program built in another directory keeps
// its lines); when either report has no line information, by the SASS instruction's function and
// offset instead. Counts per line are exact (SASS patching) except the stall samples (PC
// sampling), so no noise threshold applies: every line whose values differ is listed, the
// biggest change against the kernel's total first.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/source/source_view.h"

namespace gpuscope::analysis::diff {

// The source page's columns a line diff compares (ncu's headers, analysis/source).
inline constexpr std::array<std::string_view, 4> kLineDiffColumns = {
    "Instructions Executed", "L2 Theoretical Sectors Global Excessive",
    "L1 Wavefronts Shared Excessive", "Warp Stall Sampling (All Samples)"};

struct LineValueDelta {
  std::optional<std::uint64_t> before;  // nullopt: not measured (or no such line) there
  std::optional<std::uint64_t> after;
  // after - before, a missing side counting 0.
  double Delta() const {
    return static_cast<double>(after.value_or(0)) - static_cast<double>(before.value_or(0));
  }
};

struct SourceLineDelta {
  // "source_probe.cu:22"; by offset: "0x0130"; "(no line information)" for the instructions
  // of a report with lines that have none.
  std::string location;
  std::string function;             // by offset: the mangled function; else ""
  std::optional<std::string> text;  // the line's code (after's, else before's) or SASS
  bool only_before = false;         // the line (instruction) is in one report only
  bool only_after = false;
  std::array<LineValueDelta, kLineDiffColumns.size()> values;
  // The largest |delta| of a column as a share of that column's kernel total (the larger of
  // the two reports'): what orders the lines.
  double weight = 0;
};

struct SourceLineDiff {
  bool by_line = true;                                   // false: joined by SASS offset
  std::array<bool, kLineDiffColumns.size()> measured{};  // the column has values in both
  std::vector<SourceLineDelta> changed;  // every line whose values differ, biggest first
  std::size_t compared = 0;              // lines (instructions) in either report
};

SourceLineDiff DiffSourceLines(const source::KernelSource& before,
                               const source::KernelSource& after);

}  // namespace gpuscope::analysis::diff
