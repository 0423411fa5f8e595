// The evaluation of a report's profiled kernels, in one pass: the counter data of each
// measured kernel -> metric values (CUPTI's host API, which needs only the chip name, so it
// runs on any machine) -> the kernels' guided-analysis findings (analysis/rules) -> both
// stored in the report with the request, in one transaction. The report is read once and
// opened for writing once; a failure part-way leaves it as it was.
//
// The one entry point of every command that shows profiled kernels: `gpuscope profile` calls
// it on each report once the program ended; `stats --page`, `view` and `report` call it before
// they read a report, for the counter data that was never evaluated (a killed program, a
// report copied from the GPU machine).
#pragma once

#include <optional>
#include <string>

#include "disassembly/nvdisasm_locator.h"
#include "evaluate/counter_evaluation.h"
#include "evaluate/profile_ask.h"
#include "util/status.h"

namespace gpuscope::evaluate {

using disassembly::NvdisasmSearch;

// `asked` given (`gpuscope profile`): every measured kernel is evaluated for it and it is
// stored as the report's request, even when no kernel was measured.
// `asked` absent (the readers): a report whose measured kernels all have values is only read;
// otherwise every measured kernel is evaluated for what the report asked (AskOfReport).
// A report that cannot take the results (a read-only file or directory, a full disk) keeps
// none of them, and the results are kept in memory instead (store/unsaved_evaluations.h):
// every reader this process opens on the report afterwards shows them, and the summary says
// why they were not stored (not_stored). Problems with single kernels are in the summary too;
// errors are reports that cannot be read.
// `nvdisasm`: where to look for it, for the SASS text of source counters (the caller reads
// its environment; the CLI: GPUSCOPE_NVDISASM, PATH, CUDA_HOME).
StatusOr<EvaluationSummary> EvaluateReport(const std::string& path, const NvdisasmSearch& nvdisasm,
                                           const std::optional<ProfileAsk>& asked = std::nullopt);

}  // namespace gpuscope::evaluate
