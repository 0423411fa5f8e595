// One row of a report table as columns and values, for callers that pass rows on without
// knowing their columns (CSV files, the viewer's event details): the store reads the
// schema's *_v views, so names are resolved and times absolute.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gpuscope::store {

struct FieldValue {
  enum class Kind { kNull, kInteger, kReal, kText } kind = Kind::kNull;
  std::int64_t integer = 0;
  double real = 0;
  std::string_view text;  // text (and blobs, as their bytes); valid during the row callback only
};

struct TableRow {
  std::span<const std::string> columns;  // column names, as the view names them
  std::span<const FieldValue> values;    // one per column
};

}  // namespace gpuscope::store
