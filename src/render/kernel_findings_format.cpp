#include "render/kernel_findings_format.h"

#include <cstdio>

#include "render/escaping.h"
#include "render/word_wrap.h"

namespace gpuscope::render {

using analysis::Finding;
using analysis::SeverityName;

namespace {

constexpr std::size_t kWidth = 100;
constexpr std::string_view kIndent = "          ";  // under the text after "    OPT   "

}  // namespace

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
      out += " (" + TerminalText(finding.title) + ")";
    } else {
      out += TerminalText(finding.title);  // titles and messages quote the program's names
    }
    out += '\n';
    for (const std::string& line :
         WrapWords(TerminalText(finding.message), kWidth - kIndent.size())) {
      out += kIndent;
      out += line;
      out += '\n';
    }
  }
  return out;
}

}  // namespace gpuscope::render
