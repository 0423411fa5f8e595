#include "render/ranks_page.h"

#include <sstream>

#include "render/escaping.h"
#include "render/trace_findings_format.h"

namespace gpuscope::render {
namespace {

void WriteColumnPage(const RanksPage& page, std::ostream& out) {
  for (const analysis::StatsTable& table : page.tables) {
    WriteStatsTable(table, StatsFormat::kColumn, out);
  }
  if (page.findings.empty()) {
    out << "Findings: none (no rank rule fired)\n";
  } else {
    out << "Findings:\n";
    // Rank findings cite no rows: the origin is never used.
    WriteFindingParagraphs(page.findings, 0, out);
  }
  if (!page.notes.empty()) {
    out << "\nNotes:\n";
    for (const std::string& note : page.notes) out << "    " << TerminalText(note) << '\n';
  }
}

void WriteCsvPage(const RanksPage& page, std::ostream& out) {
  for (const analysis::StatsTable& table : page.tables) {
    out << "# " << table.name << '\n';
    WriteStatsTable(table, StatsFormat::kCsv, out);
    out << '\n';
  }
  out << "# findings\n";
  WriteTraceFindingsCsv(page.findings, 0, out);
  out << "\n# notes\n\"Note\"\n";
  for (const std::string& note : page.notes) out << CsvQuoted(note) << '\n';
}

void WriteJsonPage(const RanksPage& page, std::ostream& out) {
  out << "{\n";
  for (const analysis::StatsTable& table : page.tables) {
    std::ostringstream rows;
    WriteStatsTable(table, StatsFormat::kJson, rows);
    std::string text = rows.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    out << JsonString(table.name) << ": " << text << ",\n";
  }
  out << "\"findings\": [";
  for (std::size_t i = 0; i < page.findings.size(); ++i) {
    const analysis::Finding& finding = page.findings[i];
    out << (i == 0 ? "\n" : ",\n") << "  {\"rule\": " << JsonString(finding.rule_id)
        << ", \"severity\": " << JsonString(analysis::SeverityName(finding.severity))
        << ", \"title\": " << JsonString(finding.title)
        << ", \"est_gain_ns\": " << finding.est_gain_ns
        << ", \"occurrences\": " << finding.occurrences << ", \"time_ns\": " << finding.time_ns
        << ", \"message\": " << JsonString(finding.message) << "}";
  }
  out << (page.findings.empty() ? "],\n" : "\n],\n") << "\"notes\": [";
  for (std::size_t i = 0; i < page.notes.size(); ++i) {
    out << (i == 0 ? "" : ", ") << JsonString(page.notes[i]);
  }
  out << "]\n}\n";
}

}  // namespace

void WriteRanksPage(const RanksPage& page, StatsFormat format, std::ostream& out) {
  switch (format) {
    case StatsFormat::kColumn:
      WriteColumnPage(page, out);
      return;
    case StatsFormat::kCsv:
      WriteCsvPage(page, out);
      return;
    case StatsFormat::kJson:
      WriteJsonPage(page, out);
      return;
  }
}

}  // namespace gpuscope::render
