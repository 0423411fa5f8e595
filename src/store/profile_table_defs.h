// The tables of `gpuscope profile`: the measured launches, the metrics evaluated from them and
// the guided-analysis findings, each declared once (table_info.h) with the members the writers
// bind from and the readers fill (record_column.h); read back by profile_store.h.
#pragma once

#include <tuple>

#include "model/profile_records.h"
#include "store/profile_store.h"
#include "store/record_column.h"
#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr auto kProfiledKernelsRecordColumns = std::tuple{
    BoundApart<&StoredProfile::id>("id", "INTEGER PRIMARY KEY", "insertion order"),
    Stores<&model::ProfiledKernelRecord::profile_index, &StoredProfile::profile_index>("profile_index", "INTEGER NOT NULL", "n-th profiled kernel of the process, from 0 (ncu's ID)"),
    Stores<&model::ProfiledKernelRecord::correlation_id, &StoredProfile::correlation_id>("correlation_id", "INTEGER NOT NULL", "kernels.correlation_id of the launch"),
    Stores<&model::ProfiledKernelRecord::device_id, &StoredProfile::device_id>("device_id", "INTEGER NOT NULL", "devices.id"),
    Stores<&model::ProfiledKernelRecord::context_id, &StoredProfile::context_id>("context_id", "INTEGER NOT NULL", "contexts.context_id"),
    Stores<&model::ProfiledKernelRecord::stream_id, &StoredProfile::stream_id>("stream_id", "INTEGER NOT NULL", "streams.stream_id when --kernel-id named a stream, else 0\n"
      "(the launch's stream: kernels.stream_id by correlation_id)"),
    StoresKernelName<&model::ProfiledKernelRecord::mangled_name, &StoredProfile::mangled_name>("name_id", "INTEGER NOT NULL", "strings.id of the kernel name (mangled)"),
    Stores<&model::ProfiledKernelRecord::invocation, &StoredProfile::invocation>("invocation", "INTEGER NOT NULL", "n-th launch of this kernel name, selected or not, from 0"),
    StoresTime<&model::ProfiledKernelRecord::start, &StoredProfile::start>("start", "INTEGER", "ns, relative: the launch call began (host clock)"),
    StoresTime<&model::ProfiledKernelRecord::end, &StoredProfile::end>("end", "INTEGER", "ns, relative: the launch and its replay passes ended"),
    Stores<&model::ProfiledKernelRecord::chip, &StoredProfile::chip>("chip", "TEXT NOT NULL", "CUPTI's chip name, e.g. 'GH100'"),
    Stores<&model::ProfiledKernelRecord::passes, &StoredProfile::passes>("passes", "INTEGER NOT NULL", "replay passes the metric configuration needs"),
    Stores<&model::ProfiledKernelRecord::replay_mode, &StoredProfile::replay_mode>("replay_mode", "INTEGER NOT NULL", "replay_modes.id"),
    Stores<&model::ProfiledKernelRecord::outcome, &StoredProfile::outcome>("outcome", "INTEGER NOT NULL", "profile_outcomes.id"),
    Stores<&model::ProfiledKernelRecord::message, &StoredProfile::message>("message", "TEXT NOT NULL", "why the kernel was not measured ('' when it was)"),
    // Compressed by the writer (counter_data_codec.h); read alone (ReadCounterData).
    BoundApart("counter_data", "BLOB", "CUPTI counter-data image (one range), zlib-compressed;\n"
      "NULL unless outcome is 'measured'"),
    StoresSize<&model::ProfiledKernelRecord::counter_data, &StoredProfile::counter_data_size>("counter_data_size", "INTEGER NOT NULL", "bytes of the image before compression"),
};
inline constexpr auto kProfiledKernelsColumns = ColumnInfosOf(kProfiledKernelsRecordColumns);

inline constexpr TableInfo kProfiledKernelsTable = {
    .name = "profiled_kernels",
    .doc = "`gpuscope profile`: kernel launches measured by replay with CUPTI's Range Profiler. The\n"
           "counter data is CUPTI's image as recorded on the GPU; gpuscope evaluates it, also later\n"
           "and on a machine with no GPU (the host API needs only the chip name), into kernel_metrics.",
    .columns = kProfiledKernelsColumns,
};

inline constexpr auto kKernelMetricsRecordColumns = std::tuple{
    BoundApart("profiled_kernel_id", "INTEGER NOT NULL", "profiled_kernels.id"),
    Stores<&StoredMetric::name>("metric", "TEXT NOT NULL", "CUPTI metric name, e.g. 'dram__bytes.sum'"),
    // Read apart: a cell holding text where a number belongs is told from NULL (not_a_number).
    Stores<&StoredMetric::value, nullptr>("value", "REAL", "NULL: CUPTI could not evaluate it from the data"),
    Stores<&StoredMetric::unit>("unit", "TEXT NOT NULL", "the metric's base unit ('byte', 'cycle', '%', '')"),
};
inline constexpr auto kKernelMetricsColumns = ColumnInfosOf(kKernelMetricsRecordColumns);

inline constexpr TableInfo kKernelMetricsTable = {
    .name = "kernel_metrics",
    .doc = "The metrics evaluated from each measured launch's counter data.",
    .columns = kKernelMetricsColumns,
    .constraint = "PRIMARY KEY (profiled_kernel_id, metric)",
    .without_rowid = true,
};

inline constexpr auto kProfiledRangesRecordColumns = std::tuple{
    BoundApart("profiled_kernel_id", "INTEGER PRIMARY KEY", "profiled_kernels.id"),
    Stores<&model::ProfiledKernelRecord::range_kernels, &StoredProfile::range_kernels>("kernels", "INTEGER NOT NULL", "kernel launches inside the range (last run)"),
};
inline constexpr auto kProfiledRangesColumns = ColumnInfosOf(kProfiledRangesRecordColumns);

inline constexpr TableInfo kProfiledRangesTable = {
    .name = "profiled_ranges",
    .doc = "The results of `--replay-mode app-range` that are ranges of the program, not launches\n"
           "(profiled_kernels.replay_mode 'app-range': its name is the range's, correlation_id 0, its\n"
           "invocation the n-th range); one row per range. Absent in reports of older gpuscope versions.",
    .columns = kProfiledRangesColumns,
};

inline constexpr auto kKernelFindingsRecordColumns = std::tuple{
    BoundApart("profiled_kernel_id", "INTEGER NOT NULL", "profiled_kernels.id"),
    BoundApart("rank", "INTEGER NOT NULL", "0 = the finding with the biggest estimated speedup"),
    Stores<&StoredFinding::rule_id>("rule_id", "TEXT NOT NULL", "e.g. 'smem_bank_conflicts'"),
    Stores<&StoredFinding::severity>("severity", "TEXT NOT NULL", "'OPT' (optimisation), 'INF' (information), 'WRN'"),
    Stores<&StoredFinding::section>("section", "TEXT NOT NULL", "ncu section identifier it is printed after"),
    Stores<&StoredFinding::title>("title", "TEXT NOT NULL", "e.g. 'Shared Memory Bank Conflicts'"),
    Stores<&StoredFinding::message>("message", "TEXT NOT NULL", "with the kernel's own numbers"),
    Stores<&StoredFinding::speedup_pct>("speedup_pct", "REAL", "estimated speedup in %; NULL: no estimate"),
    Stores<&StoredFinding::speedup_formula>("speedup_formula", "TEXT NOT NULL", "how speedup_pct was estimated"),
};
inline constexpr auto kKernelFindingsColumns = ColumnInfosOf(kKernelFindingsRecordColumns);

inline constexpr TableInfo kKernelFindingsTable = {
    .name = "kernel_findings",
    .doc = "The guided-analysis findings of each measured kernel (src/analysis/rules; `gpuscope rules\n"
           "--list` describes every rule), written with kernel_metrics. Reports written before this table\n"
           "existed lack it; gpuscope creates it when it evaluates such a report again.",
    .columns = kKernelFindingsColumns,
    .constraint = "PRIMARY KEY (profiled_kernel_id, rank)",
    .without_rowid = true,
};
// clang-format on

}  // namespace gpuscope::store
