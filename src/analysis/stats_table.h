// An nsys-style statistics table as data: its columns, how each is written, and its rows.
// The builders (stats_builders.h) produce tables; render/stats_table_format.h prints them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpuscope::analysis {

// How a column's values are written. Integers get thousands separators in the column
// format only; decimals keep a fixed number of places everywhere (nsys's choice).
enum class ColumnKind {
  kPercent,        // 1 decimal ("56.3")
  kInteger,        // counts and whole nanoseconds ("121,288,629")
  kSignedInteger,  // whole nanoseconds that may be negative (clock offsets: "-1,250")
  kDecimal1,       // averages, medians, deviations in ns ("40,429,543.0")
  kMegabytes,      // sizes in MB = 10^6 bytes, 3 decimals ("4.194")
  kText,           // names; left-aligned, header centred
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
  // No value in this row (a copy has no grid): blank in columns and CSV, null in JSON.
  bool empty = false;
  std::int64_t signed_integer = 0;
};

inline StatsCell IntegerCell(std::uint64_t value) { return {value, 0, {}, false, 0}; }
inline StatsCell SignedCell(std::int64_t value) { return {0, 0, {}, false, value}; }
inline StatsCell DecimalCell(double value) { return {0, value, {}, false, 0}; }
inline StatsCell TextCell(std::string value) { return {0, 0, std::move(value), false, 0}; }
inline StatsCell EmptyCell() { return {0, 0, {}, true, 0}; }

struct StatsTable {
  std::string title;    // "CUDA GPU Kernel Summary"
  std::string name;     // "cuda_gpu_kern_sum"
  std::string subject;  // what an empty table lacks: "CUDA kernel data"
  std::vector<StatsColumn> columns;
  std::vector<std::vector<StatsCell>> rows;
};

}  // namespace gpuscope::analysis
