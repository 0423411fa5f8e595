#include "render/trace_findings_format.h"

#include <string>

#include "util/units.h"
#include "render/escaping.h"
#include "render/word_wrap.h"
#include "util/saturating.h"

namespace gpuscope::render {

using analysis::CitedRow;
using analysis::Finding;
using analysis::SeverityName;

namespace {

// Paragraphs are wrapped so that a finding reads like nvprof's and ncu's rule text.
constexpr std::size_t kTextWidth = 100;

// Saturating: a damaged report's start may be anything (INT64_MIN once overflowed here).
std::int64_t Relative(model::Timestamp time, model::Timestamp origin) {
  return SaturatingDifference(time, origin);
}

// Words of `text` on lines of at most kTextWidth, each line starting with `indent`.
void WriteWrapped(const std::string& text, const std::string& indent, std::ostream& out) {
  for (const std::string& line : WrapWords(text, kTextWidth - indent.size())) {
    out << indent << line << '\n';
  }
}

}  // namespace

void WriteTraceFindings(const std::vector<Finding>& findings, long pid, model::Timestamp origin,
                        std::ostream& out) {
  if (findings.empty()) return;
  out << "==" << pid << "== Findings:\n";
  WriteFindingParagraphs(findings, origin, out);
}

void WriteFindingParagraphs(const std::vector<Finding>& findings, model::Timestamp origin,
                            std::ostream& out) {
  bool first = true;
  for (const Finding& finding : findings) {
    if (!first) out << '\n';  // a blank line between paragraphs
    first = false;
    // Titles, messages and notes quote the program's names: no raw escapes.
    out << "    " << SeverityName(finding.severity) << "   " << TerminalText(finding.title) << " ["
        << TerminalText(finding.rule_id) << "]";
    if (finding.est_gain_ns > 0) {
      out << "   Est. Gain: "
          << FormatTime(static_cast<double>(finding.est_gain_ns), TimeUnit::kAuto);
    }
    out << '\n';
    WriteWrapped(TerminalText(finding.message), "          ", out);
    if (!finding.cited.empty()) {
      out << "          "
          << (finding.cited.size() < finding.occurrences ? "Largest rows:" : "Rows:") << '\n';
    }
    for (const CitedRow& row : finding.cited) {
      std::int64_t start = Relative(row.start, origin);
      out << "            " << TerminalText(row.table) << " correlation " << row.id << "  start "
          << (start < 0 ? "-" : "")
          << FormatTime(static_cast<double>(start < 0 ? -start : start), TimeUnit::kAuto)
          << "  duration " << FormatTime(static_cast<double>(row.duration_ns), TimeUnit::kAuto);
      if (!row.note.empty()) out << "  " << TerminalText(row.note);
      out << '\n';
    }
  }
}

void WriteTraceFindingsCsv(const std::vector<Finding>& findings, model::Timestamp origin,
                           std::ostream& out) {
  out << "\"Rule\",\"Severity\",\"Title\",\"Est. Gain (ns)\",\"Occurrences\",\"Time (ns)\","
         "\"Message\",\"Table\",\"Correlation ID\",\"Start (ns)\",\"Duration (ns)\",\"Note\"\n";
  for (const Finding& finding : findings) {
    std::string prefix = CsvQuoted(finding.rule_id) + "," +
                         CsvQuoted(std::string(SeverityName(finding.severity))) + "," +
                         CsvQuoted(finding.title) + "," + std::to_string(finding.est_gain_ns) +
                         "," + std::to_string(finding.occurrences) + "," +
                         std::to_string(finding.time_ns) + "," + CsvQuoted(finding.message) + ",";
    if (finding.cited.empty()) {
      out << prefix << ",,,,\n";
      continue;
    }
    for (const CitedRow& row : finding.cited) {
      out << prefix << CsvQuoted(row.table) << "," << row.id << "," << Relative(row.start, origin)
          << "," << row.duration_ns << "," << CsvQuoted(row.note) << '\n';
    }
  }
}

}  // namespace gpuscope::render
