// Splitting one line of Nsight Compute's CSV into fields. ncu quotes every field ("ID",
// "Kernel Name", values with thousands separators such as "33,554,432"), doubles a quote
// inside a field, and never breaks a record across lines; lines of other output (==PROF==
// progress, the profiled program's own prints) share the stream and must be told apart.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::ncu_csv {

// The fields of `line` (a trailing '\r' is ignored), unquoted; nullopt when the line is not
// well-formed CSV (a quote left open, or text after a closing quote before the next comma).
std::optional<std::vector<std::string>> SplitCsvLine(std::string_view line);

// Whether the line could be a record of ncu's CSV: it starts with a quote.
bool LooksLikeQuotedRecord(std::string_view line);

}  // namespace gpuscope::ncu_csv
