// The tables of `gpuscope profile`: the measured launches, the metrics evaluated from them and
// the guided-analysis findings, each declared once (table_info.h); read back by profile_store.h.
#pragma once

#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr ColumnInfo kProfiledKernelsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "insertion order"},
    {"profile_index", "INTEGER NOT NULL", "n-th profiled kernel of the process, from 0 (ncu's ID)"},
    {"correlation_id", "INTEGER NOT NULL", "kernels.correlation_id of the launch"},
    {"device_id", "INTEGER NOT NULL", "devices.id"},
    {"context_id", "INTEGER NOT NULL", "contexts.context_id"},
    {"stream_id", "INTEGER NOT NULL", "streams.stream_id when --kernel-id named a stream, else 0\n"
      "(the launch's stream: kernels.stream_id by correlation_id)"},
    {"name_id", "INTEGER NOT NULL", "strings.id of the kernel name (mangled)"},
    {"invocation", "INTEGER NOT NULL", "n-th launch of this kernel name, selected or not, from 0"},
    {"start", "INTEGER", "ns, relative: the launch call began (host clock)"},
    {"end", "INTEGER", "ns, relative: the launch and its replay passes ended"},
    {"chip", "TEXT NOT NULL", "CUPTI's chip name, e.g. 'GH100'"},
    {"passes", "INTEGER NOT NULL", "replay passes the metric configuration needs"},
    {"replay_mode", "INTEGER NOT NULL", "replay_modes.id"},
    {"outcome", "INTEGER NOT NULL", "profile_outcomes.id"},
    {"message", "TEXT NOT NULL", "why the kernel was not measured ('' when it was)"},
    {"counter_data", "BLOB", "CUPTI counter-data image (one range), zlib-compressed;\n"
      "NULL unless outcome is 'measured'"},
    {"counter_data_size", "INTEGER NOT NULL", "bytes of the image before compression"},
};

inline constexpr TableInfo kProfiledKernelsTable = {
    .name = "profiled_kernels",
    .doc = "`gpuscope profile`: kernel launches measured by replay with CUPTI's Range Profiler. The\n"
           "counter data is CUPTI's image as recorded on the GPU; gpuscope evaluates it, also later\n"
           "and on a machine with no GPU (the host API needs only the chip name), into kernel_metrics.",
    .columns = kProfiledKernelsColumns,
};

inline constexpr ColumnInfo kKernelMetricsColumns[] = {
    {"profiled_kernel_id", "INTEGER NOT NULL", "profiled_kernels.id"},
    {"metric", "TEXT NOT NULL", "CUPTI metric name, e.g. 'dram__bytes.sum'"},
    {"value", "REAL", "NULL: CUPTI could not evaluate it from the data"},
    {"unit", "TEXT NOT NULL", "the metric's base unit ('byte', 'cycle', '%', '')"},
};

inline constexpr TableInfo kKernelMetricsTable = {
    .name = "kernel_metrics",
    .doc = "The metrics evaluated from each measured launch's counter data.",
    .columns = kKernelMetricsColumns,
    .constraint = "PRIMARY KEY (profiled_kernel_id, metric)",
    .without_rowid = true,
};

inline constexpr ColumnInfo kProfiledRangesColumns[] = {
    {"profiled_kernel_id", "INTEGER PRIMARY KEY", "profiled_kernels.id"},
    {"kernels", "INTEGER NOT NULL", "kernel launches inside the range (last run)"},
};

inline constexpr TableInfo kProfiledRangesTable = {
    .name = "profiled_ranges",
    .doc = "The results of `--replay-mode app-range` that are ranges of the program, not launches\n"
           "(profiled_kernels.replay_mode 'app-range': its name is the range's, correlation_id 0, its\n"
           "invocation the n-th range); one row per range. Absent in reports of older gpuscope versions.",
    .columns = kProfiledRangesColumns,
};

inline constexpr ColumnInfo kKernelFindingsColumns[] = {
    {"profiled_kernel_id", "INTEGER NOT NULL", "profiled_kernels.id"},
    {"rank", "INTEGER NOT NULL", "0 = the finding with the biggest estimated speedup"},
    {"rule_id", "TEXT NOT NULL", "e.g. 'smem_bank_conflicts'"},
    {"severity", "TEXT NOT NULL", "'OPT' (optimisation), 'INF' (information), 'WRN'"},
    {"section", "TEXT NOT NULL", "ncu section identifier it is printed after"},
    {"title", "TEXT NOT NULL", "e.g. 'Shared Memory Bank Conflicts'"},
    {"message", "TEXT NOT NULL", "with the kernel's own numbers"},
    {"speedup_pct", "REAL", "estimated speedup in %; NULL: no estimate"},
    {"speedup_formula", "TEXT NOT NULL", "how speedup_pct was estimated"},
};

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
