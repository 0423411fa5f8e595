// `--format column|csv|json` and `--csv` (nvprof's and ncu's spelling of `--format csv`): the
// one way every command that prints tables (stats, profile, rules, roofline, occupancy, diff)
// is asked for its output format. Each command declares the formats it has; asking for
// another is a usage error naming them, never a silent fallback.
#pragma once

#include <span>
#include <string_view>

#include "cli/option_parser.h"
#include "render/stats_table_format.h"
#include "util/status.h"

namespace gpuscope::cli {

using OutputFormat = render::StatsFormat;

inline constexpr OutputFormat kColumnAndCsv[] = {OutputFormat::kColumn, OutputFormat::kCsv};
inline constexpr OutputFormat kAllFormats[] = {OutputFormat::kColumn, OutputFormat::kCsv,
                                               OutputFormat::kJson};

// The option declarations, with the formats in the value name ("column|csv").
constexpr OptionSpec FormatOption(int id, std::string_view formats) {
  return {id, "format", 0, formats, "output format (default column)"};
}
constexpr OptionSpec CsvOption(int id) {
  return {id, "csv", 0, "", "the same as --format csv (nvprof's and ncu's spelling)"};
}

// The value of --format, one of `supported`: "option '--format' expects column or csv, not
// 'json'".
StatusOr<OutputFormat> ParseFormatOption(std::string_view value,
                                         std::span<const OutputFormat> supported);

}  // namespace gpuscope::cli
