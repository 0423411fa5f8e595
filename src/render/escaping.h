// Quoting for the machine-readable outputs (CSV, JSON) and the SVG charts. Kernel names are
// arbitrary text (commas in template argument lists, quotes in Numba names), so every name
// cell goes through here.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::render {

// CSV cells are made safe first (see CsvSafeText), then:
// always quoted, inner quotes doubled (nvprof quotes every text cell): a,"b -> "a,""b".
std::string CsvQuoted(std::string_view text);

// One CSV line of CsvQuoted cells.
void WriteQuotedCsvRow(std::ostream& out, const std::vector<std::string>& cells);

// Quoted only when needed (a comma, quote, CR or LF inside), as nsys writes its CSV.
std::string CsvField(std::string_view text);

// A cell a spreadsheet will not run and any reader can decode: NUL and invalid UTF-8
// become U+FFFD, and text starting with = + - @ (or a tab or CR) that is not a plain
// number gets a leading ' so that it stays text, not a formula (OWASP's advice on CSV
// injection). Names come from the traced program and may be anything.
std::string CsvSafeText(std::string_view text);

// Text for a terminal (column output): control characters (C0 and DEL) are shown as
// \xHH escapes instead of moving the cursor, ringing, retitling the window or starting
// a fake row. Other bytes are left as they are.
std::string TerminalText(std::string_view text);

// A JSON string literal, quotes included; control characters become \uXXXX escapes.
std::string JsonString(std::string_view text);

// A JSON number with `significant_digits` (printf's %g). JSON has no NaN or infinity (a
// REAL column of a damaged report may hold one): those become null.
std::string JsonNumber(double value, int significant_digits = 17);

// Text for SVG/XML content and attribute values: & < > " ' become entities, and control
// characters XML 1.0 forbids become U+FFFD.
std::string XmlEscaped(std::string_view text);

}  // namespace gpuscope::render
