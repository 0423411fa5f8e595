#include "analysis/source/source_columns.h"

#include <algorithm>
#include <cctype>

namespace gpuscope::analysis::source {
namespace {

using K = ColumnKind;

// ncu's stall columns and the CUPTI PC-sampling reason each counts (metric suffix after
// kStallPrefix). Reasons CUPTI reports beyond these still count in the two sums.
constexpr SourceColumn kColumns[] = {
    {"Instructions Executed", K::kMetric, "smsp__sass_inst_executed"},
    {"Thread Instructions Executed", K::kMetric, "smsp__sass_thread_inst_executed"},
    {"Predicated-On Thread Instructions Executed", K::kMetric,
     "smsp__sass_thread_inst_executed_pred_on"},
    {"Divergent Branches", K::kMetric, "smsp__sass_branch_targets_threads_divergent"},
    {"L2 Theoretical Sectors Global", K::kMetric, "smsp__sass_sectors_mem_global"},
    {"L2 Theoretical Sectors Global Ideal", K::kMetric, "smsp__sass_sectors_mem_global_ideal"},
    {"L2 Theoretical Sectors Global Excessive", K::kExcess, "smsp__sass_sectors_mem_global",
     "smsp__sass_sectors_mem_global_ideal"},
    {"L1 Wavefronts Shared", K::kMetric, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"},
    {"L1 Wavefronts Shared Ideal", K::kMetric,
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"},
    {"L1 Wavefronts Shared Excessive", K::kExcess,
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"},
    {"Warp Stall Sampling (All Samples)", K::kAllSamples, ""},
    {"Warp Stall Sampling (Not-issued Samples)", K::kNotIssued, ""},
    {"stall_barrier", K::kStallReason, "barrier"},
    {"stall_branch_resolving", K::kStallReason, "branch_resolving"},
    {"stall_dispatch", K::kStallReason, "dispatch_stall"},
    {"stall_drain", K::kStallReason, "drain"},
    {"stall_imc", K::kStallReason, "imc_miss"},
    {"stall_lg", K::kStallReason, "lg_throttle"},
    {"stall_long_sb", K::kStallReason, "long_scoreboard"},
    {"stall_math", K::kStallReason, "math_pipe_throttle"},
    {"stall_membar", K::kStallReason, "membar"},
    {"stall_mio", K::kStallReason, "mio_throttle"},
    {"stall_misc", K::kStallReason, "misc"},
    {"stall_no_inst", K::kStallReason, "no_instructions"},
    {"stall_not_selected", K::kStallReason, "not_selected"},
    {"stall_selected", K::kStallReason, "selected"},
    {"stall_short_sb", K::kStallReason, "short_scoreboard"},
    {"stall_sleep", K::kStallReason, "sleeping"},
    {"stall_tex", K::kStallReason, "tex_throttle"},
    {"stall_wait", K::kStallReason, "wait"},
    {"stall_barrier (Not Issued)", K::kStallNotIssued, "barrier"},
    {"stall_branch_resolving (Not Issued)", K::kStallNotIssued, "branch_resolving"},
    {"stall_dispatch (Not Issued)", K::kStallNotIssued, "dispatch_stall"},
    {"stall_drain (Not Issued)", K::kStallNotIssued, "drain"},
    {"stall_imc (Not Issued)", K::kStallNotIssued, "imc_miss"},
    {"stall_lg (Not Issued)", K::kStallNotIssued, "lg_throttle"},
    {"stall_long_sb (Not Issued)", K::kStallNotIssued, "long_scoreboard"},
    {"stall_math (Not Issued)", K::kStallNotIssued, "math_pipe_throttle"},
    {"stall_membar (Not Issued)", K::kStallNotIssued, "membar"},
    {"stall_mio (Not Issued)", K::kStallNotIssued, "mio_throttle"},
    {"stall_misc (Not Issued)", K::kStallNotIssued, "misc"},
    {"stall_no_inst (Not Issued)", K::kStallNotIssued, "no_instructions"},
    {"stall_not_selected (Not Issued)", K::kStallNotIssued, "not_selected"},
    {"stall_selected (Not Issued)", K::kStallNotIssued, "selected"},
    {"stall_short_sb (Not Issued)", K::kStallNotIssued, "short_scoreboard"},
    {"stall_sleeping (Not Issued)", K::kStallNotIssued, "sleeping"},
    {"stall_tex (Not Issued)", K::kStallNotIssued, "tex_throttle"},
    {"stall_wait (Not Issued)", K::kStallNotIssued, "wait"},
};

bool EqualIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::optional<std::uint64_t> Find(const InstructionMetrics& metrics, std::string_view name) {
  auto found = metrics.find(name);
  if (found == metrics.end()) return std::nullopt;
  return found->second;
}

std::optional<std::uint64_t> Add(std::optional<std::uint64_t> sum, std::uint64_t value) {
  return sum.value_or(0) + value;
}

}  // namespace

std::span<const SourceColumn> SourceColumns() { return kColumns; }

std::optional<std::size_t> FindSourceColumn(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kColumns); ++i) {
    if (EqualIgnoringCase(kColumns[i].header, name)) return i;
  }
  return std::nullopt;
}

ColumnValues ComputeColumns(const InstructionMetrics& metrics) {
  // The sums over the stall reasons, whatever reasons CUPTI reported.
  std::optional<std::uint64_t> all, not_issued;
  for (const auto& [name, value] : metrics) {
    if (!name.starts_with(kStallPrefix)) continue;
    if (name.ends_with(kNotIssuedSuffix)) {
      not_issued = Add(not_issued, value);
    } else {
      all = Add(all, value);
    }
  }
  ColumnValues values;
  values.reserve(std::size(kColumns));
  for (const SourceColumn& column : kColumns) {
    switch (column.kind) {
      case K::kMetric:
        values.push_back(Find(metrics, column.metric));
        break;
      case K::kExcess: {
        std::optional<std::uint64_t> total = Find(metrics, column.metric);
        std::optional<std::uint64_t> ideal = Find(metrics, column.ideal);
        values.push_back(total && ideal
                             ? std::optional<std::uint64_t>(*total > *ideal ? *total - *ideal : 0)
                             : std::nullopt);
        break;
      }
      case K::kAllSamples:
        values.push_back(all);
        break;
      case K::kNotIssued:
        values.push_back(not_issued);
        break;
      case K::kStallReason:
        values.push_back(Find(metrics, std::string(kStallPrefix) + std::string(column.metric)));
        break;
      case K::kStallNotIssued:
        values.push_back(Find(metrics, std::string(kStallPrefix) + std::string(column.metric) +
                                           std::string(kNotIssuedSuffix)));
        break;
    }
  }
  return values;
}

void AddColumns(ColumnValues& into, const ColumnValues& from) {
  if (into.size() < from.size()) into.resize(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (from[i]) into[i] = into[i].value_or(0) + *from[i];
  }
}

}  // namespace gpuscope::analysis::source
