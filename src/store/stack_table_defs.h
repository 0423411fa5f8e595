// The tables of `--backtrace`: the host call stacks and the objects mapped in the process,
// each declared once (table_info.h) with the members the writer binds from and the readers fill
// (record_column.h); read back by stack_tables.h.
#pragma once

#include <tuple>

#include "model/records.h"
#include "store/record_column.h"
#include "store/stack_tables.h"
#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
// A Python frame's names are interned; a native frame has only its address until `gpuscope`
// symbolizes it (WriteFrameSymbols fills module_id, function_id, file_id and line).
inline constexpr auto kStackFramesRecordColumns = std::tuple{
    BoundApart("stack_id", "INTEGER NOT NULL", "api_calls.stack_id"),
    BoundApart("depth", "INTEGER NOT NULL", "0: the innermost frame (the caller nearest the CUDA call)"),
    // Read apart: any kind but Python's reads as native.
    Stores<&model::StackFrame::kind, nullptr>("kind", "INTEGER NOT NULL", "frame_kinds.id (0 native, 1 python)"),
    StoresNoneAsNull<&model::StackFrame::address, &StoredFrame::address>("address", "INTEGER", "native: the return address (absolute); NULL for Python"),
    BoundApart("module_id", "INTEGER", "native: modules.id of the object holding it, once\n"
      "symbolized; NULL: not yet, or in no recorded module"),
    StoresOptionalName<&model::StackFrame::function, &StoredFrame::function>("function_id", "INTEGER", "strings.id: Python: the code object's (qualified) name;\n"
      "native: the symbol, once symbolized; NULL: not known"),
    StoresOptionalName<&model::StackFrame::file, &StoredFrame::file>("file_id", "INTEGER", "strings.id of the source file; NULL: not known"),
    Stores<&model::StackFrame::line, &StoredFrame::line>("line", "INTEGER", "source line; 0: not known"),
};
inline constexpr auto kStackFramesColumns = ColumnInfosOf(kStackFramesRecordColumns);

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

// The path and build id are read back whole: they name the files symbolizing opens.
inline constexpr auto kModulesRecordColumns = std::tuple{
    BoundApart<&StoredModule::id>("id", "INTEGER PRIMARY KEY", "what stack_frames.module_id names"),
    StoresWholeText<&model::ModuleRecord::path, &StoredModule::path>("path", "TEXT NOT NULL", "the program or shared library, as the dynamic linker named it"),
    Stores<&model::ModuleRecord::start, &StoredModule::start>("start", "INTEGER NOT NULL", "lowest address of its loaded segments"),
    Stores<&model::ModuleRecord::end, &StoredModule::end>("end", "INTEGER NOT NULL", "one past the highest"),
    Stores<&model::ModuleRecord::bias, &StoredModule::bias>("bias", "INTEGER NOT NULL", "added to the object's ELF addresses when it was loaded"),
    StoresNoneAsNull<&model::ModuleRecord::build_id, &StoredModule::build_id>("build_id", "TEXT", "GNU build id, hex; NULL: none"),
};
inline constexpr auto kModulesColumns = ColumnInfosOf(kModulesRecordColumns);

inline constexpr TableInfo kModulesTable = {
    .name = "modules",
    .doc = "`--backtrace`: the objects mapped in the process.",
    .columns = kModulesColumns,
};
// clang-format on

}  // namespace gpuscope::store
