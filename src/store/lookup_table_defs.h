// The names of the enumerations the other tables store as small integers, each table declared
// once (table_info.h); the views join them in. Their rows are in schema.sql.
#pragma once

#include <string_view>

#include "store/table_info.h"

namespace gpuscope::store {

inline constexpr ColumnInfo kEnumerationColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr ColumnInfo kCopyKindsColumns[] = {
    kEnumerationColumns[0],
    kEnumerationColumns[1],
    {"label", "TEXT NOT NULL", "how nvprof names the copy in its summary"},
};

// The table of the names of an enumeration; `doc` names the columns that store its values and
// where gpuscope defines them.
constexpr TableInfo EnumerationTable(std::string_view name, std::string_view doc) {
  return {.name = name, .doc = doc, .columns = kEnumerationColumns};
}

// clang-format off
inline constexpr TableInfo kReplayModesTable = EnumerationTable(
    "replay_modes", "The names of the values of profiled_kernels.replay_mode (src/model/profile_records.h).");
inline constexpr TableInfo kProfileOutcomesTable = EnumerationTable(
    "profile_outcomes", "The names of the values of profiled_kernels.outcome (src/model/profile_records.h).");
inline constexpr TableInfo kApiDomainsTable = EnumerationTable(
    "api_domains", "The names of the values of api_calls.domain (src/model/records.h).");
inline constexpr TableInfo kCopyKindsTable = {
    .name = "copy_kinds",
    .doc = "The names of the values of memcpys.copy_kind (src/model/records.h).",
    .columns = kCopyKindsColumns,
};
inline constexpr TableInfo kMemoryKindsTable = EnumerationTable(
    "memory_kinds", "The names of the values of memcpys.src_kind and dst_kind, memsets.memory_kind and memory.memory_kind\n"
                    "(src/model/records.h).");
inline constexpr TableInfo kMemoryOpsTable = EnumerationTable(
    "memory_ops", "The names of the values of memory.op (src/model/records.h).");
inline constexpr TableInfo kSyncKindsTable = EnumerationTable(
    "sync_kinds", "The names of the values of syncs.kind (src/model/records.h).");
inline constexpr TableInfo kNvtxKindsTable = EnumerationTable(
    "nvtx_kinds", "The names of the values of nvtx.kind (src/model/records.h).");
inline constexpr TableInfo kFrameKindsTable = EnumerationTable(
    "frame_kinds", "The names of the values of stack_frames.kind (src/model/records.h).");
// clang-format on

}  // namespace gpuscope::store
