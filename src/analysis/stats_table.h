// An nsys-style statistics table and its three renderings: nsys's aligned columns, CSV and
// JSON. The builders (stats_builders.h) produce tables; this file only prints them.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/printers.h"

namespace gpuscope::analysis {

// How a column's values are written. Integers get thousands separators in the column
// format only; decimals keep a fixed number of places everywhere (nsys's choice).
enum class ColumnKind {
  kPercent,    // 1 decimal ("56.3")
  kInteger,    // counts and whole nanoseconds ("121,288,629")
  kDecimal1,   // averages, medians, deviations in ns ("40,429,543.0")
  kMegabytes,  // sizes in MB = 10^6 bytes, 3 decimals ("4.194")
  kText,       // names; left-aligned, header centred
};

struct StatsColumn {
  std::string header;
  ColumnKind kind;
};

// A cell holds the field its column's kind uses.
struct StatsCell {
  std::uint64_t integer = 0;
  double decimal = 0;
  std::string text;
};

struct StatsTable {
  std::string title;    // "CUDA GPU Kernel Summary"
  std::string name;     // "cuda_gpu_kern_sum"
  std::string subject;  // what an empty table lacks: "CUDA kernel data"
  std::vector<StatsColumn> columns;
  std::vector<std::vector<StatsCell>> rows;
};

// Column: " ** Title (name):", a blank line, header, dashes, rows, a blank line; an empty
// table prints "SKIPPED: no <subject> in the report(s)" instead of the grid.
// CSV: a header row of column names, then the rows. JSON: an array of objects keyed by
// column name, numbers as JSON numbers.
void WriteStatsTable(const StatsTable& table, StatsFormat format, std::ostream& out);

// "1234567" -> "1,234,567"; keeps a decimal part as it is ("1234.5" -> "1,234.5").
std::string WithThousandsSeparators(const std::string& number);

}  // namespace gpuscope::analysis
