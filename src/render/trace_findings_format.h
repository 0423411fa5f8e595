// How trace findings are printed: nvprof-like text after a run's summary, and CSV.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/finding.h"

namespace gpuscope::render {

// "==PID== Findings:" and one paragraph per finding: severity, title, estimated gain, the
// message, then its cited rows. Row times are measured from `origin`, the process's tracing
// start (ProcessInfo::start) as in --print-gpu-trace, so the rows can be found there; 0
// prints absolute times. Writes nothing when there are no findings.
void WriteTraceFindings(const std::vector<analysis::Finding>& findings, long pid,
                        model::Timestamp origin, std::ostream& out);

// The paragraphs alone, without the header line (also the rank findings of `gpuscope ranks`).
void WriteFindingParagraphs(const std::vector<analysis::Finding>& findings, model::Timestamp origin,
                            std::ostream& out);

// A header, then one row per cited row (a finding without cited rows gets one row with the
// row columns empty). Times in nanoseconds.
void WriteTraceFindingsCsv(const std::vector<analysis::Finding>& findings, model::Timestamp origin,
                           std::ostream& out);

}  // namespace gpuscope::render
