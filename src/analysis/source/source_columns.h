// The columns of Nsight Compute's source page (`ncu --page source`), as gpuscope computes them
// from the per-instruction values CUPTI measured (instruction_values): SASS-patching counts,
// their derived "Excessive" columns, and the PC-sampling warp stall samples per reason under
// ncu's short names (stall_long_sb, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuscope::analysis::source {

enum class ColumnKind {
  kMetric,          // the value of `metric`
  kExcess,          // `metric` - `ideal` (what the access pattern wastes), never below 0
  kAllSamples,      // every stall reason's samples (issued or not)
  kNotIssued,       // the samples of the `_not_issued` reasons (latency)
  kStallReason,     // samples of reason `metric` (a CUPTI suffix), issued or not
  kStallNotIssued,  // samples of reason `metric` while the warp was not issued
};

struct SourceColumn {
  std::string_view header;  // ncu's column name
  ColumnKind kind;
  std::string_view metric;  // CUPTI metric, or the stall reason's suffix
  std::string_view ideal = {};
};

// In the page's order.
std::span<const SourceColumn> SourceColumns();

// The column named `name` (its header, case-insensitive; "stall_long_sb" works too); nullopt:
// none.
std::optional<std::size_t> FindSourceColumn(std::string_view name);

// Per column of SourceColumns(), its value; nullopt: not measured.
using ColumnValues = std::vector<std::optional<std::uint64_t>>;

// CUPTI metric name -> value, for one instruction.
using InstructionMetrics = std::map<std::string, std::uint64_t, std::less<>>;

ColumnValues ComputeColumns(const InstructionMetrics& metrics);

// Adds `from` into `into` (a column is present when any instruction has it).
void AddColumns(ColumnValues& into, const ColumnValues& from);

// The PC-sampling prefix of the stall reasons (CUPTI's names).
inline constexpr std::string_view kStallPrefix = "smsp__pcsamp_warps_issue_stalled_";
inline constexpr std::string_view kNotIssuedSuffix = "_not_issued";

}  // namespace gpuscope::analysis::source
