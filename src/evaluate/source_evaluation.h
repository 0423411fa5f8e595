// The reading side of source counters: for each cubin that instruction_values refer to and
// whose instructions sass_instructions does not have yet, its SASS (disassembly/, when nvdisasm
// is found), each instruction's source line (cupti/host/source_lines, in a child process) and
// the text of the source files those lines name. Runs on any machine; written with the rest of
// the evaluation (store/evaluation_writer), in the same transaction.
#pragma once

#include <string>
#include <vector>

#include "disassembly/nvdisasm_locator.h"
#include "store/evaluation_writer.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::evaluate {

struct SourceEvaluation {
  store::SourceRows rows;  // empty: nothing needed reading
  // One line each, said once per process by the caller: no nvdisasm, a cubin that could not
  // be read (a missing line table is said by the page that shows the lines).
  std::vector<std::string> notes;
};

// Whether some cubin of the instruction values has no sass_instructions rows yet.
StatusOr<bool> NeedsSourceEvaluation(const store::ReportReader& report);

// `nvdisasm`: where to look for it (the caller's environment: disassembly/nvdisasm_locator.h).
StatusOr<SourceEvaluation> EvaluateSource(const store::ReportReader& report,
                                          const disassembly::NvdisasmSearch& nvdisasm);

// The notes on stderr ("gpuscope: warning: ..."), each text at most once per process.
void SayNotesOnce(const std::vector<std::string>& notes);

}  // namespace gpuscope::evaluate
