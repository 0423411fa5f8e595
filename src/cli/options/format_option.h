// `--format column|csv|json` and `--csv` (nvprof's and ncu's spelling of `--format csv`): the
// one way every command that prints tables (stats, profile, rules, roofline, occupancy, diff)
// is asked for its output format. Each command declares the formats it has; asking for
// another is a usage error naming them, never a silent fallback.
#pragma once

#include "cli/options/option_parser.h"
#include "render/stats_table_format.h"
#include "util/status.h"

namespace gpuscope::cli {

using OutputFormat = render::StatsFormat;

// --format column|csv|json, filling `format`.
OptionSpec FormatOption(OutputFormat& format);
// --format column|csv, for the commands whose only other format is CSV: `csv` says whether
// it was asked for.
OptionSpec FormatOption(bool& csv);
// --csv, with the help line of the commands that say only that it is --format csv.
OptionSpec CsvOption(OutputFormat& format);
OptionSpec CsvOption(bool& csv);

}  // namespace gpuscope::cli
