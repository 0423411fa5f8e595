// The one rule for free text read from a report (kernel, API and NVTX names, stack frames'
// functions and files, command lines, host and device names, profile messages): text longer
// than kMaxReportTextBytes is shortened. A hostile or damaged report may hold a name of
// 10 MB, and every output that repeats a name per row (a trace, a table, an HTML page, a
// Chrome trace) would repeat it: 300 kernels of such a name made a 6 GB Chrome trace.
// ReportReader applies the rule and counts what it shortened (ReportReader::ReportText,
// shortened_texts()); the store's query files read free text only through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuscope::store {

// 4 KiB. The longest names real programs make (CUTLASS and CuTe kernels, demangled with their
// template arguments and parameter lists) run to a few KiB and stay whole; text beyond this
// cannot be read in any table, and each row that repeats it costs at most 4 KiB.
inline constexpr std::size_t kMaxReportTextBytes = 4096;

// `text` when it is at most kMaxReportTextBytes long. Else its start (cut between UTF-8
// characters) followed by "...[<bytes> bytes, #<hash>]", kMaxReportTextBytes at most in all:
// the original length says how much was cut, and the hash of the whole text (FNV-1a, 64
// bits) keeps two long names that share their start two names, so that no table adds up
// the launches of different kernels.
std::string ShortenedReportText(std::string_view text);

// FNV-1a of `text`: stable across builds and runs (the shortened text is printed).
std::uint64_t ReportTextHash(std::string_view text);

}  // namespace gpuscope::store
