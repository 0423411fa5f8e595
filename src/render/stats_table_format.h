// The three renderings of an nsys-style statistics table (analysis/stats_table.h): nsys's
// aligned columns, CSV and JSON.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::render {

enum class StatsFormat { kColumn, kCsv, kJson };

// "column", "csv", "json" (nsys stats --format).
StatusOr<StatsFormat> ParseStatsFormat(std::string_view text);

// Column: " ** Title (name):", a blank line, header, dashes, rows, a blank line; an empty
// table prints "SKIPPED: no <subject> in the report(s)" instead of the grid.
// CSV: a header row of column names, then the rows. JSON: an array of objects keyed by
// column name, numbers as JSON numbers.
void WriteStatsTable(const analysis::StatsTable& table, StatsFormat format, std::ostream& out);

// "1234567" -> "1,234,567"; keeps a decimal part as it is ("1234.5" -> "1,234.5") and a
// sign ("-123" -> "-123").
std::string WithThousandsSeparators(const std::string& number);

}  // namespace gpuscope::render
