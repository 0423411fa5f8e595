#include "analysis/report_checks.h"

#include <string>

namespace gpuscope::analysis {

Status CheckReports(const Reports& reports) {
  if (reports.empty()) return Status::Error("no report to print");
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (reports[i] == nullptr) {
      return Status::Error("report " + std::to_string(i + 1) + " of " +
                           std::to_string(reports.size()) + " was not opened");
    }
  }
  return Status();
}

}  // namespace gpuscope::analysis
