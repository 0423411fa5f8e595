// Prints an aggregated nvprof summary in nvprof's summary-mode layout, as text columns
// or as nvprof's CSV.
#pragma once

#include <ostream>

#include "analysis/summary_builder.h"
#include "render/output_options.h"

namespace gpuscope::render {

// Text: the "Type  Time(%)  Time  Calls  Avg  Min  Max  Name" table; sections without rows
// are omitted, and when no requested section has a row, one line says so instead.
// CSV: header row, units row, one quoted row per line of each requested section.
void FormatNvprofSummary(const analysis::NvprofSummary& summary, const OutputOptions& options,
                         std::ostream& out);

}  // namespace gpuscope::render
