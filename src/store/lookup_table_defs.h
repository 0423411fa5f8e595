// The names of the enumerations the other tables store as small integers, each table declared
// once (table_info.h); the views join them in. Their rows are in schema.sql.
#pragma once

#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr ColumnInfo kReplayModesColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kReplayModesTable = {
    .name = "replay_modes",
    .doc = "The names of the values of profiled_kernels.replay_mode (src/model/profile_records.h).",
    .columns = kReplayModesColumns,
};

inline constexpr ColumnInfo kProfileOutcomesColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kProfileOutcomesTable = {
    .name = "profile_outcomes",
    .doc = "The names of the values of profiled_kernels.outcome (src/model/profile_records.h).",
    .columns = kProfileOutcomesColumns,
};

inline constexpr ColumnInfo kApiDomainsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kApiDomainsTable = {
    .name = "api_domains",
    .doc = "The names of the values of api_calls.domain (src/model/records.h).",
    .columns = kApiDomainsColumns,
};

inline constexpr ColumnInfo kCopyKindsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
    {"label", "TEXT NOT NULL", "how nvprof names the copy in its summary"},
};

inline constexpr TableInfo kCopyKindsTable = {
    .name = "copy_kinds",
    .doc = "The names of the values of memcpys.copy_kind (src/model/records.h).",
    .columns = kCopyKindsColumns,
};

inline constexpr ColumnInfo kMemoryKindsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kMemoryKindsTable = {
    .name = "memory_kinds",
    .doc = "The names of the values of memcpys.src_kind and dst_kind, memsets.memory_kind and memory.memory_kind (src/model/records.h).",
    .columns = kMemoryKindsColumns,
};

inline constexpr ColumnInfo kMemoryOpsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kMemoryOpsTable = {
    .name = "memory_ops",
    .doc = "The names of the values of memory.op (src/model/records.h).",
    .columns = kMemoryOpsColumns,
};

inline constexpr ColumnInfo kSyncKindsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kSyncKindsTable = {
    .name = "sync_kinds",
    .doc = "The names of the values of syncs.kind (src/model/records.h).",
    .columns = kSyncKindsColumns,
};

inline constexpr ColumnInfo kNvtxKindsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kNvtxKindsTable = {
    .name = "nvtx_kinds",
    .doc = "The names of the values of nvtx.kind (src/model/records.h).",
    .columns = kNvtxKindsColumns,
};

inline constexpr ColumnInfo kFrameKindsColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "the value stored"},
    {"name", "TEXT NOT NULL", "its name"},
};

inline constexpr TableInfo kFrameKindsTable = {
    .name = "frame_kinds",
    .doc = "The names of the values of stack_frames.kind (src/model/records.h).",
    .columns = kFrameKindsColumns,
};
// clang-format on

}  // namespace gpuscope::store
