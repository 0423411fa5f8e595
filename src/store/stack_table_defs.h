// The tables of `--backtrace`: the host call stacks and the objects mapped in the process,
// each declared once (table_info.h); read back by stack_tables.h.
#pragma once

#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr ColumnInfo kStackFramesColumns[] = {
    {"stack_id", "INTEGER NOT NULL", "api_calls.stack_id"},
    {"depth", "INTEGER NOT NULL", "0: the innermost frame (the caller nearest the CUDA call)"},
    {"kind", "INTEGER NOT NULL", "frame_kinds.id (0 native, 1 python)"},
    {"address", "INTEGER", "native: the return address (absolute); NULL for Python"},
    {"module_id", "INTEGER", "native: modules.id of the object holding it, once\n"
      "symbolized; NULL: not yet, or in no recorded module"},
    {"function_id", "INTEGER", "strings.id: Python: the code object's (qualified) name;\n"
      "native: the symbol, once symbolized; NULL: not known"},
    {"file_id", "INTEGER", "strings.id of the source file; NULL: not known"},
    {"line", "INTEGER", "source line; 0: not known"},
};

inline constexpr TableInfo kStackFramesTable = {
    .name = "stack_frames",
    .doc = "`--backtrace`: the host call stacks of kernel launches, copies, memsets and synchronising\n"
           "calls, each distinct stack stored once; api_calls.stack_id names the stack of a call. A stack\n"
           "is Python frames (CPython programs, while the calling thread held the GIL) or native return\n"
           "addresses; `gpuscope` fills in the native frames' functions and lines after the run from the\n"
           "modules below (meta.stacks_symbolized).",
    .columns = kStackFramesColumns,
    .constraint = "PRIMARY KEY (stack_id, depth)",
    .without_rowid = true,
};

inline constexpr ColumnInfo kModulesColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "what stack_frames.module_id names"},
    {"path", "TEXT NOT NULL", "the program or shared library, as the dynamic linker named it"},
    {"start", "INTEGER NOT NULL", "lowest address of its loaded segments"},
    {"end", "INTEGER NOT NULL", "one past the highest"},
    {"bias", "INTEGER NOT NULL", "added to the object's ELF addresses when it was loaded"},
    {"build_id", "TEXT", "GNU build id, hex; NULL: none"},
};

inline constexpr TableInfo kModulesTable = {
    .name = "modules",
    .doc = "`--backtrace`: the objects mapped in the process.",
    .columns = kModulesColumns,
};
// clang-format on

}  // namespace gpuscope::store
