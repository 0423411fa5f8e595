#include "cli/reports/report_preparation.h"

#include <iostream>

#include "cli/reports/reading_environment.h"
#include "cli/reports/stack_symbolization.h"
#include "render/escaping.h"
#include "store/report_finalizer.h"

namespace gpuscope::cli {

StatusOr<evaluate::EvaluationSummary> EvaluateBeforeReading(
    const std::string& path, const std::optional<evaluate::ProfileAsk>& asked) {
  StatusOr<evaluate::EvaluationSummary> evaluated =
      evaluate::EvaluateReport(path, NvdisasmSearchFromEnvironment(), asked);
  if (!evaluated.ok()) return Status::Error(NamingPath(evaluated.status().message(), path));
  return evaluated;
}

Status EvaluateForViewing(std::span<const std::string> paths) {
  for (const std::string& path : paths) {
    StatusOr<evaluate::EvaluationSummary> evaluated = EvaluateBeforeReading(path);
    if (!evaluated.ok()) return evaluated.status();
    for (const std::string& problem : evaluated->problems) {
      std::cerr << "gpuscope: warning: " << path << ": " << problem << '\n';
    }
    if (!evaluated->not_stored.empty()) {
      std::cerr << "gpuscope: warning: " << render::TerminalText(evaluated->not_stored) << '\n';
    }
  }
  return {};
}

Status FinishAfterRun(const std::string& path, bool symbolize, std::vector<std::string>& warnings) {
  GPUSCOPE_RETURN_IF_ERROR(store::FinalizeReport(path));
  if (symbolize) {
    Status symbolized = SymbolizeStacks(path);
    if (!symbolized.ok()) warnings.push_back(symbolized.message());
  }
  return {};
}

}  // namespace gpuscope::cli
