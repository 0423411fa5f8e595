#include "analysis/finding.h"

namespace gpuscope::analysis {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kOpt:
      return "OPT";
    case Severity::kInf:
      return "INF";
    case Severity::kWrn:
      return "WRN";
  }
  return "INF";
}

std::optional<Severity> ParseSeverity(std::string_view name) {
  if (name == "OPT") return Severity::kOpt;
  if (name == "INF") return Severity::kInf;
  if (name == "WRN") return Severity::kWrn;
  return std::nullopt;
}

}  // namespace gpuscope::analysis
