#include "analysis/rules/findings_format.h"

#include <cstdio>

namespace gpuscope::analysis {
namespace {

constexpr std::size_t kWidth = 100;
constexpr std::string_view kIndent = "          ";  // under the text after "    OPT   "

}  // namespace

std::vector<std::string> WrapWords(std::string_view text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t start = text.find_first_not_of(' ', pos);
    if (start == std::string_view::npos) break;
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    pos = end;
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

std::string FormatFindings(const std::vector<Finding>& findings, std::string_view section_id) {
  std::string out;
  for (const Finding& finding : findings) {
    if (finding.section != section_id) continue;
    out += "    ";
    out += SeverityName(finding.severity);
    out += "   ";
    if (finding.speedup_pct) {
      char buffer[48];
      std::snprintf(buffer, sizeof buffer, "Est. Speedup: %.2f%%", *finding.speedup_pct);
      out += buffer;
      out += " (" + finding.title + ")";
    } else {
      out += finding.title;
    }
    out += '\n';
    for (const std::string& line : WrapWords(finding.message, kWidth - kIndent.size())) {
      out += kIndent;
      out += line;
      out += '\n';
    }
  }
  return out;
}

}  // namespace gpuscope::analysis
