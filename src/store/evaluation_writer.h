// Writes one evaluation of a report's counter data back into the report: the metric values
// (kernel_metrics), the guided-analysis findings (kernel_findings) and what was asked for
// (meta profile_sections / profile_metrics), all in one transaction on one read-write
// connection, so that a failure part-way leaves the report as it was.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/profile_store.h"
#include "util/status.h"

namespace gpuscope::store {

// One SASS instruction read from a cubin after the run (sass_instructions).
struct SassInstructionRow {
  std::uint64_t cubin_crc = 0;
  std::int64_t function_id = 0;  // strings.id, as instruction_values names the function
  std::uint64_t pc_offset = 0;
  std::optional<std::string> sass;  // nullopt: no disassembler
  std::optional<std::string> file;  // source_files.path; nullopt: no line information
  std::optional<std::uint32_t> line;
};

// Source files by path -> their text (nullopt: not readable here).
using SourceFiles = std::map<std::string, std::optional<std::string>>;

// What the evaluation read from the cubins: their instructions and the source files their
// lines name.
struct SourceRows {
  std::vector<SassInstructionRow> instructions;
  SourceFiles files;
};

struct EvaluationRows {
  // false: only `source` and `findings` are written (the counter data had all been evaluated
  // before; the findings are made again to name their lines); the metrics and request are left
  // as they are.
  bool counters = true;
  // profiled_kernels.id -> its evaluated metrics; replaces that kernel's earlier values.
  std::map<std::int64_t, std::vector<StoredMetric>> metrics;
  // profiled_kernels.id -> its findings in rank order; replaces that kernel's earlier
  // findings. Empty: kernel_findings is left alone (not even created in old reports).
  std::map<std::int64_t, std::vector<StoredFinding>> findings;
  ProfileRequest request;
  SourceRows source;  // empty: sass_instructions and source_files are left alone
};

// The report must be complete (its process ended and it was finalised). A report that
// cannot be written (a read-only file) gets "cannot store the metrics in <path>: ...".
Status WriteEvaluation(const std::string& path, const EvaluationRows& rows);

}  // namespace gpuscope::store
