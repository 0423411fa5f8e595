// Getting a report ready to be read, said once for every command that reads one: a report a
// run just wrote is finalised (and, with --backtrace, its stacks symbolised) first, and counter
// data never evaluated (a killed program, a report copied from the GPU machine) is evaluated
// and stored before anything reads it. One error policy: a report that cannot be prepared is
// an error of one line naming it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "evaluate/report_evaluation.h"
#include "util/status.h"

namespace gpuscope::cli {

// Evaluates what `asked` says (a profiling run's own request), else what the report asked.
// The summary's problems are single kernels'; what to do with them is the caller's.
StatusOr<evaluate::EvaluationSummary> EvaluateBeforeReading(
    const std::string& path, const std::optional<evaluate::ProfileAsk>& asked = std::nullopt);

// The reports the viewer shows (`view`, `report`), evaluated, their problems printed as
// warnings on stderr.
Status EvaluateForViewing(std::span<const std::string> paths);

// After the traced program ended: finalises the report, then with `symbolize` (--backtrace)
// symbolises its stacks, whose failure is only a warning (added to `warnings`): the report
// is whole without them. The error is the finaliser's.
Status FinishAfterRun(const std::string& path, bool symbolize, std::vector<std::string>& warnings);

}  // namespace gpuscope::cli
